package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/provider"
)

// chatEditor starts a fake editor with agent capabilities serving model m
// under the configuration layer; confirms says the editor confirms edits
// itself (change annotations, opted in with editConfirmation).
func chatEditor(t *testing.T, m provider.Provider, layer string, confirms bool) *fakeEditor {
	t.Helper()
	root := loadTxtar(t, "testdata/chat.txtar")
	cfg := editorConfig{progress: true, agent: true, annotate: confirms, serverOpts: agentOpts(m, layer)}
	if confirms {
		cfg.initOpts = `{"editConfirmation": "annotations"}`
	}
	e := startEditor(t, root, cfg)
	e.waitIndexed(1)
	return e
}

func awaitChat(t *testing.T, c <-chan chatOutcome) ChatResult {
	t.Helper()
	select {
	case out := <-c:
		if out.err != nil {
			t.Fatalf("parley/chat: %v", out.err)
		}
		return out.res
	case <-time.After(waitTimeout):
		t.Fatal("parley/chat did not answer")
	}
	return ChatResult{}
}

// One turn does what a real one does: reads a file with unsaved changes,
// edits an open and a closed file, runs an approved command, has an edit
// rejected and a command denied, and finishes.
func TestChatTurn(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "default"}`, true)
	unsaved := strings.Replace(mustRead(t, e, "a.go"), `"hello"`, `"hello, UNSAVED"`, 1)
	e.openText("a.go", unsaved)
	e.agent.answers = []string{approveOnce, approveDeny}
	edits := 0
	e.agent.reject = func(wireApply) string {
		// Each edit is one applyEdit: step 4's is the third.
		if edits++; edits == 3 {
			return "the user discarded it"
		}
		return ""
	}
	m.script("work please",
		calls("read_file", `{"path": "a.go"}`),
		calls("edit_file", `{"path": "a.go", "old_string": "UNSAVED", "new_string": "EDITED"}`,
			"edit_file", `{"path": "b.go", "old_string": "bye", "new_string": "so long"}`),
		calls("shell", `{"command": "echo approved-output"}`),
		calls("edit_file", `{"path": "a.go", "old_string": "EDITED", "new_string": "REJECTED"}`),
		calls("shell", `{"command": "touch denied.txt"}`),
		calls("read_file", `{"path": "b.go"}`),
		reply("All done."),
	)
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "work please"}))
	if res.StopReason != "end_turn" || res.Text != "All done." || res.Turn != 1 || res.Session == "" {
		t.Fatalf("result %+v", res)
	}
	evs := e.events(res.Session)
	results := toolResults(evs)
	if r := results["read_file"]; len(r) != 2 || !strings.Contains(r[0], "UNSAVED") || !strings.Contains(r[1], "so long") {
		t.Errorf("read_file saw %q; want the unsaved buffer, then the edit to the closed file", r)
	}
	if r := results["shell"]; len(r) != 2 || !strings.Contains(r[0], "approved-output") || !strings.Contains(r[1], "denied") {
		t.Errorf("shell results %q", r)
	} else if !strings.Contains(r[0], "unsaved changes in the editor that this command did not see (it reads the disk): a.go, b.go;") {
		t.Errorf("the command's result does not name the unsaved files: %q", r[0])
	}
	if r := results["edit_file"]; len(r) != 3 || !strings.Contains(r[2], "the user discarded it") {
		t.Errorf("edit_file results %q; the third must carry the rejection", r)
	}
	if got, v := e.docText("a.go"); !strings.Contains(got, "EDITED") || v != 2 {
		t.Errorf("a.go in the editor (v%d): %q", v, got)
	}
	if got, _ := e.bufferText("b.go"); !strings.Contains(got, "so long") {
		t.Errorf("b.go buffer %q", got)
	}
	if disk := mustRead(t, e, "b.go"); strings.Contains(disk, "so long") {
		t.Error("the closed file was written to disk behind the editor")
	}
	if _, err := os.Stat(filepath.Join(e.root, "denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
	if len(e.agent.asked) != 2 || !strings.Contains(e.agent.asked[0], "echo approved-output") {
		t.Errorf("questions %q; edits are confirmed by the editor, commands asked", e.agent.asked)
	}
	first := e.agent.applied[0]
	if a, ok := first.Edit.ChangeAnnotations["parley.edit"]; !ok || !a.NeedsConfirmation {
		t.Errorf("edit without a confirmation annotation: %+v", first.Edit.ChangeAnnotations)
	}
	k := kinds(evs)
	for _, want := range []string{"toolCall", "toolResult", "edit", "usage", "text", "done"} {
		if !slices.Contains(k, want) {
			t.Errorf("no %s event in %v", want, k)
		}
	}
	if k[len(k)-1] != "done" {
		t.Errorf("last event %s", k[len(k)-1])
	}
	if n := len(e.events("")); n != len(evs) {
		t.Errorf("events of other sessions: %d of %d", n-len(evs), n)
	}
}

func mustRead(t *testing.T, e *fakeEditor, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An edit computed against a version the editor has moved past is never
// sent; the model is told to read again.
func TestChatStaleEdit(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "acceptEdits"}`, false)
	text := mustRead(t, e, "a.go")
	e.openText("a.go", text)
	abs := filepath.Join(e.root, "a.go")
	e.srv.testHookApply = func() {
		// The user types between the tool's read and the edit going out.
		ring := e.srv.docBell.next()
		e.change("a.go", 2, &protocol.TextDocumentContentChangeWholeDocument{Text: text + "// typed\n"})
		for {
			if ov, _ := e.srv.overlays.Get(abs); ov.Version == 2 {
				return
			}
			<-ring
			ring = e.srv.docBell.next()
		}
	}
	m.script("stale", calls("edit_file", `{"path": "a.go", "old_string": "hello", "new_string": "hi"}`), reply("ok"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "stale"}))
	r := toolResults(e.events(res.Session))["edit_file"]
	if len(r) != 1 || !strings.Contains(r[0], "changed in the editor since you read it") {
		t.Errorf("edit_file result %q", r)
	}
	if len(e.agent.applied) != 0 {
		t.Errorf("a stale edit was sent: %+v", e.agent.applied)
	}
}

// Cancelling a chat request stops the turn while a command runs; the
// session stays usable.
func TestChatCancel(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "default", "permissions": {"allow": ["shell(sleep:*)"]}}`, false)
	m.script("sleepy", calls("shell", `{"command": "sleep 60"}`), reply("awake"))
	ctx, cancel := context.WithCancel(context.Background())
	e.chatCall(ctx, ChatParams{Message: "sleepy"})
	n, _ := e.waitNote(0, "the shell call", func(n note) bool {
		return n.method == methodEvent && strings.Contains(string(n.params), `"toolName":"shell"`)
	})
	session := eventOf(t, n).Session
	cancel() // sends $/cancelRequest
	done, _ := e.waitNote(0, "the done event", func(n note) bool {
		return n.method == methodEvent && strings.Contains(string(n.params), `"kind":"done"`)
	})
	if ev := eventOf(t, done); ev.StopReason != "cancelled" {
		t.Errorf("stop reason %q", ev.StopReason)
	}
	// The next message of the session runs: the cancelled turn never made
	// its second model call.
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Session: session, Message: "wake up"}))
	if res.Text != "awake" || res.Turn != 2 {
		t.Errorf("after cancel: %+v", res)
	}
}

// Two sessions run at once, each with its own events.
func TestChatConcurrentSessions(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, "", false)
	aStarted, bStarted := make(chan struct{}), make(chan struct{})
	meet := func(mine, other chan struct{}, text string) modelStep {
		return func(ctx context.Context, _ *provider.Request) (*provider.Response, error) {
			close(mine)
			select { // both turns are in a model call at the same time
			case <-other:
			case <-time.After(waitTimeout):
				t.Error("the other session did not run concurrently")
			}
			return reply(text)(ctx, nil)
		}
	}
	m.script("session A", meet(aStarted, bStarted, "from A"))
	m.script("session B", meet(bStarted, aStarted, "from B"))
	ca := e.chatCall(context.Background(), ChatParams{Message: "session A"})
	cb := e.chatCall(context.Background(), ChatParams{Message: "session B"})
	ra, rb := awaitChat(t, ca), awaitChat(t, cb)
	if ra.Text != "from A" || rb.Text != "from B" || ra.Session == rb.Session {
		t.Fatalf("results %+v %+v", ra, rb)
	}
	for _, r := range []ChatResult{ra, rb} {
		for _, ev := range e.events(r.Session) {
			if ev.Kind == "text" && ev.Text != r.Text {
				t.Errorf("session %s got text %q", r.Session, ev.Text)
			}
		}
	}
	// Sessions are listed, readable and deletable.
	var list struct {
		Sessions []SessionSummary `json:"sessions"`
	}
	e.mustCall(methodSessions, nil, &list)
	if len(list.Sessions) != 2 {
		t.Fatalf("sessions %+v", list.Sessions)
	}
	var s struct {
		Title    string            `json:"title"`
		Messages []json.RawMessage `json:"messages"`
	}
	e.mustCall(methodSession, map[string]string{"session": ra.Session}, &s)
	if s.Title != "session A" || len(s.Messages) != 2 {
		t.Errorf("session A: %q, %d messages", s.Title, len(s.Messages))
	}
	e.mustCall(methodDeleteSession, map[string]string{"session": ra.Session}, nil)
	if err := e.call(methodSession, map[string]string{"session": ra.Session}, nil); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("deleted session: %v", err)
	}
}

func eventOf(t *testing.T, n note) ChatEvent {
	t.Helper()
	var ev ChatEvent
	if err := json.Unmarshal(n.params, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

// Code actions start a turn about the selection through executeCommand;
// the message carries the code as the editor shows it and the diagnostics.
func TestCodeActions(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, "", false)
	e.openText("a.go", mustRead(t, e, "a.go"))
	sel := protocol.Range{Start: pos(3, 0), End: pos(3, 41)}
	diag := protocol.Diagnostic{Range: sel, Message: protocol.String("Greeting is too cheerful"), Source: protocol.NewOptional("vet")}
	var actions []json.RawMessage
	e.mustCall(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.uri("a.go")}, Range: sel,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{diag}},
	}, &actions)
	var titles []string
	var fix struct {
		Command protocol.Command `json:"command"`
	}
	for _, raw := range actions {
		var a struct {
			Title   string          `json:"title"`
			Kind    string          `json:"kind"`
			Command json.RawMessage `json:"command"`
		}
		json.Unmarshal(raw, &a)
		titles = append(titles, a.Title)
		if a.Kind == "quickfix" {
			json.Unmarshal(raw, &fix)
		}
	}
	if want := []string{"parley: Explain", "parley: Fix", "parley: Refactor", "parley: Add tests", "parley: Document"}; !slices.Equal(titles, want) {
		t.Fatalf("actions %q, want %q", titles, want)
	}
	// Without diagnostics there is nothing to fix; "only" filters kinds.
	e.mustCall(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: e.uri("a.go")}, Range: sel,
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindRefactor}},
	}, &actions)
	if len(actions) != 3 {
		t.Errorf("refactor actions without diagnostics: %d, want 3", len(actions))
	}

	var prompt string
	m.script("Fix the problems reported in the diagnostics below. Make the smallest correct change, then say what you changed.",
		func(_ context.Context, req *provider.Request) (*provider.Response, error) {
			prompt = req.Messages[0].Blocks[0].Text
			return reply("fixed")(context.Background(), nil)
		})
	var res ChatResult
	e.mustCall(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: fix.Command.Command, Arguments: fix.Command.Arguments}, &res)
	if res.Text != "fixed" {
		t.Fatalf("executeCommand: %+v", res)
	}
	for _, want := range []string{"a.go, lines 4-4", `func Greeting() string { return "hello" }`, "- line 4: vet: Greeting is too cheerful"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q:\n%s", want, prompt)
		}
	}
	if err := e.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: "parley.nope"}, nil); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("unknown command: %v", err)
	}
	outside := protocol.TextDocumentIdentifier{URI: uri.File(filepath.Join(t.TempDir(), "x.go"))}
	if err := e.call(protocol.MethodTextDocumentCodeAction, &protocol.CodeActionParams{TextDocument: outside, Range: sel}, nil); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("code actions outside the folders: %v", err)
	}
}

// A client that cannot be asked gets the non-interactive behaviour: what
// needs approval is denied with a reason, not run.
func TestChatNonInteractive(t *testing.T) {
	m := newScriptModel()
	root := loadTxtar(t, "testdata/chat.txtar")
	e := startEditor(t, root, editorConfig{serverOpts: agentOpts(m, `{"permission_mode": "acceptEdits"}`)}) // no showMessage, no applyEdit
	e.waitIndexed(1)
	m.script("try", calls("shell", `{"command": "touch x.txt"}`), calls("edit_file", `{"path": "a.go", "old_string": "hello", "new_string": "hi"}`), reply("gave up"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "try"}))
	results := toolResults(e.events(res.Session))
	if r := results["shell"]; len(r) != 1 || !strings.Contains(r[0], "non-interactive") {
		t.Errorf("shell result %q", r)
	}
	// acceptEdits lets the edit through the policy, but the client cannot
	// receive it.
	if r := results["edit_file"]; len(r) != 1 || !strings.Contains(r[0], "does not support workspace/applyEdit") {
		t.Errorf("edit_file result %q", r)
	}
	if _, err := os.Stat(filepath.Join(root, "x.txt")); err == nil {
		t.Error("the command ran")
	}
}

// Without a model configured the chat fails clearly and the server goes on.
func TestChatNotConfigured(t *testing.T) {
	root := loadTxtar(t, "testdata/chat.txtar")
	e := startEditor(t, root, editorConfig{serverOpts: func(o *Options) {
		o.Agent.Config = config.Options{UserFile: "-", Getenv: func(string) string { return "" }}
	}})
	err := e.call(methodChat, ChatParams{Message: "hi"}, nil)
	if rpcCode(err) != -32803 || !strings.Contains(err.Error(), "not configured") {
		t.Fatalf("chat without a model: %v", err)
	}
	if err := e.call(methodChat, ChatParams{}, nil); rpcCode(err) != jsonrpc2.InvalidParams {
		t.Errorf("empty message: %v", err)
	}
	e.waitIndexed(1)
}

// "Allow for this session" covers the session's later calls of the same
// kind, and only that session's.
func TestChatAllowForSession(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, "", false)
	e.agent.answers = []string{approveSession, ""} // the second question is dismissed
	m.script("first", calls("shell", `{"command": "echo one"}`), calls("shell", `{"command": "echo two"}`), reply("ok"))
	m.script("second", calls("shell", `{"command": "echo three"}`), reply("ok"))
	r1 := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "first"}))
	r2 := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "second"}))
	if got := toolResults(e.events(r1.Session))["shell"]; len(got) != 2 || !strings.Contains(got[1], "two") {
		t.Errorf("first session: %q", got)
	}
	if got := toolResults(e.events(r2.Session))["shell"]; len(got) != 1 || !strings.Contains(got[0], "denied") {
		t.Errorf("second session (dismissed question): %q", got)
	}
	if len(e.agent.asked) != 2 {
		t.Errorf("questions %q: one per session", e.agent.asked)
	}
}

// Creating, moving and deleting files go through the editor as resource
// operations; the agent then reads what the editor holds.
func TestChatResourceOps(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "acceptEdits"}`, false)
	m.script("files",
		calls("write_file", `{"path": "c.go", "content": "package chat\n\nconst C = 1\n"}`),
		calls("read_file", `{"path": "c.go"}`),
		calls("move_file", `{"from": "b.go", "to": "sub/b.go"}`),
		calls("delete_file", `{"path": "c.go"}`),
		calls("read_file", `{"path": "sub/b.go"}`),
		calls("read_file", `{"path": "c.go"}`),
		reply("ok"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "files"}))
	results := toolResults(e.events(res.Session))
	if r := results["read_file"]; len(r) != 3 || !strings.Contains(r[0], "const C = 1") ||
		!strings.Contains(r[1], "Farewell") || !strings.Contains(r[2], "not") {
		t.Errorf("reads after create, move and delete: %q\nall results: %q", r, results)
	}
	var kinds []string
	for _, ap := range e.agent.applied {
		for _, raw := range ap.Edit.DocumentChanges {
			var dc wireDocChange
			json.Unmarshal(raw, &dc)
			kinds = append(kinds, dc.Kind)
		}
	}
	if want := []string{"create", "", "rename", "delete"}; !slices.Equal(kinds, want) {
		t.Errorf("document changes %q, want %q", kinds, want)
	}
	// The fake editor performs resource operations on disk, as editors do.
	if _, err := os.Stat(filepath.Join(e.root, "sub", "b.go")); err != nil {
		t.Errorf("moved file: %v", err)
	}
	for _, gone := range []string{"b.go", "c.go"} {
		if _, err := os.Stat(filepath.Join(e.root, gone)); err == nil {
			t.Errorf("%s still exists", gone)
		}
	}
}

// A client that supports change annotations but did not say it confirms
// edits gets the approval question and plain edits: some clients apply
// annotated edits without asking.
func TestChatEditConfirmation(t *testing.T) {
	m := newScriptModel()
	root := loadTxtar(t, "testdata/chat.txtar")
	e := startEditor(t, root, editorConfig{agent: true, annotate: true, serverOpts: agentOpts(m, `{"permission_mode": "default"}`)})
	e.waitIndexed(1)
	e.agent.answers = []string{approveOnce}
	m.script("edit", calls("edit_file", `{"path": "b.go", "old_string": "bye", "new_string": "ciao"}`), reply("ok"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "edit"}))
	if r := toolResults(e.events(res.Session))["edit_file"]; len(r) != 1 || !strings.HasPrefix(r[0], "Edited") {
		t.Fatalf("edit_file: %q", r)
	}
	if len(e.agent.asked) != 1 || !strings.Contains(e.agent.asked[0], "change b.go") {
		t.Errorf("questions %q, want the edit asked about", e.agent.asked)
	}
	if a := e.agent.applied[0].Edit.ChangeAnnotations; len(a) != 0 {
		t.Errorf("annotations %v on an edit the user already approved", a)
	}
}

// An edit the permission rules allow is applied without the editor's
// confirmation, as in the terminal; one they ask about (and one a
// PreToolUse hook's question would cover) is confirmed in the preview.
func TestChatEditConfirmationFollowsRules(t *testing.T) {
	tests := []struct {
		name, layer string
		confirm     bool
	}{
		{"default mode confirms", `{"permission_mode": "default"}`, true},
		{"an allow rule does not", `{"permission_mode": "default", "permissions": {"allow": ["edit_file(b.go)"]}}`, false},
		{"acceptEdits does not", `{"permission_mode": "acceptEdits"}`, false},
		{"an ask rule confirms", `{"permission_mode": "acceptEdits", "permissions": {"ask": ["edit_file"]}}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newScriptModel()
			e := chatEditor(t, m, tt.layer, true)
			m.script("edit", calls("edit_file", `{"path": "b.go", "old_string": "bye", "new_string": "ciao"}`), reply("ok"))
			res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "edit"}))
			if r := toolResults(e.events(res.Session))["edit_file"]; len(r) != 1 || !strings.HasPrefix(r[0], "Edited") {
				t.Fatalf("edit_file: %q", r)
			}
			if len(e.agent.asked) != 0 {
				t.Errorf("questions %q; edits are never asked in a message box here", e.agent.asked)
			}
			a, ok := e.agent.applied[0].Edit.ChangeAnnotations["parley.edit"]
			if got := ok && a.NeedsConfirmation; got != tt.confirm {
				t.Errorf("needsConfirmation %v, want %v (annotations %+v)", got, tt.confirm, e.agent.applied[0].Edit.ChangeAnnotations)
			}
		})
	}
}
