package acp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

var fsCaps = sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}

// TestTurnThroughClientFS: a full turn with a read and an edit, both
// through the client's fs methods (so the unsaved buffer is what the agent
// reads and edits, and the disk is left alone), the edit asked about with
// session/request_permission, every tool call reported with kind,
// locations, statuses and the edit's diff.
func TestTurnThroughClientFS(t *testing.T) {
	f := newFixture(t, `tool read_file {"path":"a.txt"}
---
tool edit_file {"path":"a.txt","old_string":"unsaved","new_string":"edited"}
---
text done editing
`, map[string]string{"a.txt": "on disk\n"})
	c := newFakeClient()
	abs := filepath.Join(f.root, "a.txt")
	c.buffers[abs] = "unsaved buffer\n"
	c.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse { return selected("allow_once") }
	conn := f.connect(t, c, fsCaps)
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if sess.Modes == nil || sess.Modes.CurrentModeId != "default" || len(sess.Modes.AvailableModes) != 4 {
		t.Errorf("modes %+v", sess.Modes)
	}
	resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("change it")})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q", resp.StopReason)
	}
	// The model saw the buffer, not the disk.
	reqs := f.llm.Requests()
	if len(reqs) != 3 || !strings.Contains(string(reqs[1]), "unsaved buffer") || strings.Contains(string(reqs[1]), "on disk") {
		t.Errorf("the read did not go through the client: %d requests, second ends %.300s", len(reqs), lastMessage(reqs[1]))
	}
	updates, writes, asked := c.snapshot()
	if len(writes) != 1 || writes[0].Path != abs || writes[0].Content != "edited buffer\n" {
		t.Errorf("writes %+v", writes)
	}
	if data, _ := os.ReadFile(abs); string(data) != "on disk\n" {
		t.Errorf("the disk changed: %q", data)
	}
	if len(asked) != 1 || string(asked[0].ToolCall.ToolCallId) != "call_2_0" || len(asked[0].Options) != 3 ||
		*asked[0].ToolCall.Kind != sdk.ToolKindEdit {
		t.Fatalf("permission requests %+v", asked)
	}
	// The question came with the diff it asks about.
	if c := asked[0].ToolCall.Content; len(c) != 1 || c[0].Diff == nil || c[0].Diff.NewText != "edited buffer\n" ||
		c[0].Diff.OldText == nil || *c[0].Diff.OldText != "unsaved buffer\n" {
		t.Errorf("the permission request's content %+v", c)
	}
	start, later := toolUpdates(updates, "call_1_0")
	if start == nil || start.Kind != sdk.ToolKindRead || start.Status != sdk.ToolCallStatusPending ||
		len(start.Locations) != 1 || start.Locations[0].Path != abs {
		t.Errorf("read's tool_call %+v", start)
	}
	if got := statuses(later); !slices.Equal(got, []string{"in_progress", "completed"}) {
		t.Errorf("read's statuses %q", got)
	}
	start, later = toolUpdates(updates, "call_2_0")
	if start == nil || start.Kind != sdk.ToolKindEdit || start.Title != "edit_file a.txt" {
		t.Errorf("edit's tool_call %+v", start)
	}
	if got := statuses(later); !slices.Equal(got, []string{"in_progress", "completed"}) {
		t.Errorf("edit's statuses %q", got)
	}
	var diff *sdk.ToolCallContentDiff
	for _, u := range later {
		for _, c := range u.Content {
			if c.Diff != nil {
				diff = c.Diff
			}
		}
	}
	if diff == nil || diff.Path != abs || diff.NewText != "edited buffer\n" || diff.OldText == nil || *diff.OldText != "unsaved buffer\n" {
		t.Errorf("edit's diff %+v", diff)
	}
	if got := agentText(updates); got != "done editing" {
		t.Errorf("agent text %q", got)
	}
}

// TestPermissionAnswers: a rejection reaches the model and changes
// nothing; "allow always" runs the call and the next edit of the same file
// without asking again.
func TestPermissionAnswers(t *testing.T) {
	f := newFixture(t, `tool write_file {"path":"x.txt","content":"one\n"}
---
text refused
---
tool write_file {"path":"x.txt","content":"two\n"}
---
tool write_file {"path":"x.txt","content":"three\n"}
---
text written
`, nil)
	c := newFakeClient()
	conn := f.connect(t, c, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	c.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse { return selected("reject_once") }
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("write x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.root, "x.txt")); !os.IsNotExist(err) {
		t.Errorf("a rejected write ran: %v", err)
	}
	updates, _, _ := c.snapshot()
	// The write ran up to the question, which came with its diff.
	if _, later := toolUpdates(updates, "call_1_0"); !slices.Equal(statuses(later), []string{"in_progress", "failed"}) {
		t.Errorf("rejected call's statuses %q", statuses(later))
	}
	if reqs := f.llm.Requests(); !strings.Contains(string(reqs[1]), "not applied: the user denied this call") {
		t.Errorf("the model was not told of the rejection: %.300s", lastMessage(reqs[1]))
	}

	c.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse { return selected("allow_always") }
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("write both")}); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(f.root, "x.txt")); err != nil || string(data) != "three\n" {
		t.Errorf("x.txt = %q, %v", data, err)
	}
	if _, _, asked := c.snapshot(); len(asked) != 2 {
		t.Errorf("asked %d times, want 2 (allow always covers the second write)", len(asked))
	}
}

// TestCancelMidTurn: session/cancel ends a turn waiting on the model with
// stop reason cancelled, and the session takes the next prompt.
func TestCancelMidTurn(t *testing.T) {
	f := newFixture(t, "text thinking about it\nwait\n---\ntext next answer\n", nil)
	c := newFakeClient()
	conn := f.connect(t, c, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	type result struct {
		resp sdk.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("go on")})
		done <- result{r, err}
	}()
	c.waitFor(t, "the first chunk", func(u []sdk.SessionNotification) bool { return agentText(u) != "" })
	if err := conn.Cancel(ctx, sdk.CancelNotification{SessionId: sess.SessionId}); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt = %+v, %v; want stop reason cancelled", r.resp, r.err)
	}
	resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("again")})
	if err != nil || resp.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt after cancel = %+v, %v", resp, err)
	}
}

// TestLoadSession: a stored session is listed and replayed to a new
// connection as updates, and goes on with its history.
func TestLoadSession(t *testing.T) {
	f := newFixture(t, `tool list_dir {}
---
text first answer
---
text second answer
`, map[string]string{"a.txt": "a\n"})
	c1 := newFakeClient()
	conn := f.connect(t, c1, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("first question")}); err != nil {
		t.Fatal(err)
	}

	c2 := newFakeClient()
	conn2 := f.connect(t, c2, sdk.ClientCapabilities{})
	list, err := conn2.ListSessions(ctx, sdk.ListSessionsRequest{Cwd: sdk.Ptr(f.root)})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].SessionId != sess.SessionId ||
		list.Sessions[0].Title == nil || *list.Sessions[0].Title != "first question" {
		t.Errorf("session/list = %+v, %v", list, err)
	}
	if _, err := conn2.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: sess.SessionId, Cwd: f.root, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatal(err)
	}
	updates, _, _ := c2.snapshot()
	var user string
	for _, n := range updates {
		if u := n.Update.UserMessageChunk; u != nil && u.Content.Text != nil {
			user += u.Content.Text.Text
		}
	}
	if !strings.Contains(user, "first question") || agentText(updates) != "first answer" {
		t.Errorf("replayed user %q, agent %q", user, agentText(updates))
	}
	if start, later := toolUpdates(updates, "call_1_0"); start == nil || !slices.Equal(statuses(later), []string{"completed"}) {
		t.Errorf("replayed tool call %+v %q", start, statuses(later))
	}
	if _, err := conn2.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("second question")}); err != nil {
		t.Fatal(err)
	}
	if reqs := f.llm.Requests(); !strings.Contains(string(reqs[2]), "first answer") {
		t.Errorf("the resumed session lost its history: %.300s", lastMessage(reqs[2]))
	}
	if _, err := conn2.LoadSession(ctx, sdk.LoadSessionRequest{SessionId: "no-such-session", Cwd: f.root, McpServers: []sdk.McpServer{}}); err == nil {
		t.Error("loading an unknown session succeeded")
	}
}

// TestPlanFromTodos: todo_write becomes a plan update.
func TestPlanFromTodos(t *testing.T) {
	todos, _ := json.Marshal(map[string]any{"todos": []map[string]string{
		{"id": "1", "content": "read the code", "status": "completed"},
		{"id": "2", "content": "fix the bug", "status": "in_progress"},
	}})
	f := newFixture(t, "tool todo_write "+string(todos)+"\n---\ntext planned\n", nil)
	c := newFakeClient()
	conn := f.connect(t, c, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("plan")}); err != nil {
		t.Fatal(err)
	}
	updates, _, _ := c.snapshot()
	var plan *sdk.SessionUpdatePlan
	for _, n := range updates {
		if n.Update.Plan != nil {
			plan = n.Update.Plan
		}
	}
	if plan == nil || len(plan.Entries) != 2 || plan.Entries[0].Status != sdk.PlanEntryStatusCompleted ||
		plan.Entries[1].Content != "fix the bug" || plan.Entries[1].Status != sdk.PlanEntryStatusInProgress {
		t.Errorf("plan %+v", plan)
	}
}

// TestModes: session/set_mode switches the permission mode (plan refuses
// a write without asking) and is announced.
func TestModes(t *testing.T) {
	f := newFixture(t, `tool write_file {"path":"x.txt","content":"x"}
---
text ok
`, nil)
	c := newFakeClient()
	conn := f.connect(t, c, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "nonsense"}); err == nil {
		t.Error("an unknown mode was accepted")
	}
	if _, err := conn.SetSessionMode(ctx, sdk.SetSessionModeRequest{SessionId: sess.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("write")}); err != nil {
		t.Fatal(err)
	}
	updates, _, asked := c.snapshot()
	if len(asked) != 0 {
		t.Errorf("plan mode asked %d times", len(asked))
	}
	if reqs := f.llm.Requests(); !strings.Contains(string(reqs[1]), "plan mode is read-only") {
		t.Errorf("the model was not told of plan mode: %.300s", lastMessage(reqs[1]))
	}
	var announced bool
	for _, n := range updates {
		announced = announced || (n.Update.CurrentModeUpdate != nil && n.Update.CurrentModeUpdate.CurrentModeId == "plan")
	}
	if !announced {
		t.Error("the mode change was not announced")
	}
}

// TestRefusals: requests the client got wrong are errors, not crashes.
func TestRefusals(t *testing.T) {
	f := newFixture(t, "", nil)
	conn := f.connect(t, newFakeClient(), sdk.ClientCapabilities{})
	ctx := ctxT(t)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: "nope", Prompt: text("hi")}); err == nil {
		t.Error("a prompt to an unknown session succeeded")
	}
	if _, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: "/somewhere/else", McpServers: []sdk.McpServer{}}); err == nil {
		t.Error("a session outside the workspace was opened")
	}
	if _, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: f.root, McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "x"}}}}); err == nil {
		t.Error("an MCP server without a command was accepted")
	}
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: []sdk.ContentBlock{}}); err == nil {
		t.Error("an empty prompt was accepted")
	}
}

// lastMessage is the last message of a model request (the tools and the
// system prompt make the whole too long to show).
func lastMessage(req []byte) string {
	var r struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(req, &r) != nil || len(r.Messages) == 0 {
		return string(req)
	}
	return string(r.Messages[len(r.Messages)-1])
}

// TestSubAgentCalls: a task sub-agent's tool calls show as tool calls of
// the session, so a question about one names a call the client knows.
func TestSubAgentCalls(t *testing.T) {
	f := newFixture(t, `tool task {"description":"write it","prompt":"write x.txt","tools":["write_file"]}
---
tool write_file {"path":"x.txt","content":"x\n"}
---
text the sub-agent wrote it
---
text done
`, nil)
	c := newFakeClient()
	c.answer = func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse { return selected("allow_once") }
	conn := f.connect(t, c, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("delegate")}); err != nil {
		t.Fatal(err)
	}
	updates, _, asked := c.snapshot()
	if len(asked) != 1 || asked[0].ToolCall.ToolCallId != "call_2_0" {
		t.Fatalf("asked %+v", asked)
	}
	start, later := toolUpdates(updates, "call_2_0")
	if start == nil || start.Kind != sdk.ToolKindEdit || !slices.Equal(statuses(later), []string{"in_progress", "completed"}) {
		t.Errorf("the sub-agent's call: %+v %q", start, statuses(later))
	}
	if got := agentText(updates); got != "done" {
		t.Errorf("agent text %q: the sub-agent's report is not the answer", got)
	}
}

// TestPromptSupersedes: a prompt sent while another runs cancels it (the
// SDK's rule) and runs once it has ended.
func TestPromptSupersedes(t *testing.T) {
	f := newFixture(t, "text slow\nwait\n---\ntext second answer\n", nil)
	c := newFakeClient()
	conn := f.connect(t, c, sdk.ClientCapabilities{})
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	first := make(chan sdk.PromptResponse, 1)
	go func() {
		r, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("one")})
		if err != nil {
			t.Error(err)
		}
		first <- r
	}()
	c.waitFor(t, "the first chunk", func(u []sdk.SessionNotification) bool { return agentText(u) != "" })
	r2, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("two")})
	if err != nil || r2.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("second prompt = %+v, %v", r2, err)
	}
	if r1 := <-first; r1.StopReason != sdk.StopReasonCancelled {
		t.Errorf("first prompt's stop reason %q", r1.StopReason)
	}
}

// TestCreateAndDeleteThroughClient: with the client's fs, a new file is
// written through it (its directory made first); a deletion, which the
// protocol has no method for, goes to the disk.
func TestCreateAndDeleteThroughClient(t *testing.T) {
	f := newFixture(t, `tool write_file {"path":"sub/new.txt","content":"fresh\n"}
---
tool delete_file {"path":"old.txt"}
---
text done
`, map[string]string{"old.txt": "old\n"})
	f.mode = "acceptEdits"
	c := newFakeClient()
	conn := f.connect(t, c, fsCaps)
	ctx := ctxT(t)
	sess := f.newSession(t, ctx, conn)
	if _, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: sess.SessionId, Prompt: text("tidy")}); err != nil {
		t.Fatal(err)
	}
	updates, writes, asked := c.snapshot()
	if len(asked) != 0 {
		t.Errorf("acceptEdits asked %d times", len(asked))
	}
	if len(writes) != 1 || writes[0].Path != filepath.Join(f.root, "sub", "new.txt") || writes[0].Content != "fresh\n" {
		t.Errorf("writes %+v", writes)
	}
	if _, err := os.Stat(filepath.Join(f.root, "old.txt")); !os.IsNotExist(err) {
		t.Errorf("old.txt was not deleted: %v", err)
	}
	for _, id := range []string{"call_1_0", "call_2_0"} {
		if _, later := toolUpdates(updates, id); !slices.Equal(statuses(later), []string{"in_progress", "completed"}) {
			t.Errorf("%s statuses %q", id, statuses(later))
		}
	}
}
