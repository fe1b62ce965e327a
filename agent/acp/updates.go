package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/tools"
)

// maxResultText caps the text of a tool result shown to the client; the
// model gets it whole.
const maxResultText = 16 << 10

// toolKinds says how a client shows each of parley's tools (MCP tools and
// unknown ones are "other").
var toolKinds = map[string]sdk.ToolKind{
	"read_file": sdk.ToolKindRead, "list_dir": sdk.ToolKindRead, "file_info": sdk.ToolKindRead,
	"file_delta": sdk.ToolKindRead, "outline": sdk.ToolKindRead, "get_symbol": sdk.ToolKindRead,
	"get_complexity": sdk.ToolKindRead, "get_todos": sdk.ToolKindRead, "git_status": sdk.ToolKindRead,
	"git_diff": sdk.ToolKindRead, "git_log": sdk.ToolKindRead, "recall_memories": sdk.ToolKindRead,
	"grep": sdk.ToolKindSearch, "glob": sdk.ToolKindSearch, "search_symbols": sdk.ToolKindSearch,
	"find_definition": sdk.ToolKindSearch, "find_references": sdk.ToolKindSearch,
	"get_dependencies": sdk.ToolKindSearch, "get_dependents": sdk.ToolKindSearch,
	"write_file": sdk.ToolKindEdit, "edit_file": sdk.ToolKindEdit, "multi_edit": sdk.ToolKindEdit,
	"git_commit": sdk.ToolKindEdit, "remember": sdk.ToolKindEdit, "forget_memory": sdk.ToolKindDelete,
	"delete_file": sdk.ToolKindDelete, "move_file": sdk.ToolKindMove,
	"shell": sdk.ToolKindExecute, "fetch_url": sdk.ToolKindFetch,
	"todo_write": sdk.ToolKindThink, "task": sdk.ToolKindThink,
}

func toolKind(name string) sdk.ToolKind {
	if k, ok := toolKinds[name]; ok {
		return k
	}
	return sdk.ToolKindOther
}

// callInput is what titles and locations are made of.
type callInput struct {
	Path    string `json:"path"`
	From    string `json:"from"`
	To      string `json:"to"`
	Pattern string `json:"pattern"`
	Command string `json:"command"`
	URL     string `json:"url"`
	Name    string `json:"name"`
	Query   string `json:"query"`
}

func decodeInput(raw json.RawMessage) callInput {
	var in callInput
	// A model's malformed input is reported by the tool; here it only
	// means a plainer title.
	_ = json.Unmarshal(raw, &in)
	return in
}

// title is one line saying what a call does.
func title(tool string, raw json.RawMessage) string {
	in := decodeInput(raw)
	var what string
	switch {
	case in.Command != "":
		what = "`" + clip(in.Command, 120) + "`"
	case in.From != "" && in.To != "":
		what = in.From + " → " + in.To
	case in.URL != "":
		what = in.URL
	case in.Pattern != "":
		what = fmt.Sprintf("%q", clip(in.Pattern, 80))
		if in.Path != "" {
			what += " in " + in.Path
		}
	case in.Path != "":
		what = in.Path
	case in.Name != "":
		what = in.Name
	case in.Query != "":
		what = fmt.Sprintf("%q", clip(in.Query, 80))
	}
	if what == "" {
		return tool
	}
	return tool + " " + what
}

// locations are the files a call names, as absolute paths inside the
// workspace (paths outside it are left out: the tool refuses them).
func (ss *session) locations(raw json.RawMessage) []sdk.ToolCallLocation {
	in := decodeInput(raw)
	var out []sdk.ToolCallLocation
	for _, p := range []string{in.Path, in.From, in.To} {
		if p == "" {
			continue
		}
		if abs, _, _, err := ss.ws.Roots.Resolve(p); err == nil {
			out = append(out, sdk.ToolCallLocation{Path: abs})
		}
	}
	return out
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// sink turns a turn's events into session/update notifications.
func (ss *session) sink(ctx context.Context) agent.Sink {
	return func(e agent.Event) {
		if u, ok := ss.updateFor(e); ok {
			ss.update(ctx, u)
		}
		if e.Kind == agent.EventToolResult && e.ToolName == "todo_write" && !e.Result.IsError {
			ss.update(ctx, ss.plan())
		}
	}
}

// subSink shows a task sub-agent's tool calls as tool calls of the
// session (the client then knows the calls its questions are about); its
// text is its report to the agent, not an answer to the user.
func (ss *session) subSink(ctx context.Context) agent.Sink {
	return func(e agent.Event) {
		switch e.Kind {
		case agent.EventToolCall, agent.EventToolResult, agent.EventEdit:
			if u, ok := ss.updateFor(e); ok {
				ss.update(ctx, u)
			}
		}
	}
}

// updateFor maps one event; ok is false for events the protocol has no
// place for (usage, the end of the turn: the prompt's response says it).
func (ss *session) updateFor(e agent.Event) (sdk.SessionUpdate, bool) {
	switch e.Kind {
	case agent.EventText:
		return sdk.UpdateAgentMessageText(e.Text), true
	case agent.EventThinking:
		return sdk.UpdateAgentThoughtText(e.Text), true
	case agent.EventCompaction, agent.EventHook, agent.EventMemory:
		// parley's own notes on the turn: shown as thoughts, not as part
		// of the answer.
		return sdk.UpdateAgentThoughtText("[parley] " + e.Text + "\n"), true
	case agent.EventToolCall:
		return ss.toolStart(e.ToolCallID, e.ToolName, e.Input), true
	case agent.EventToolResult:
		// The diffs of its applied edits and its terminal, then the text.
		content := append(ss.takeContent(e.ToolCallID), resultContent(e.Result.Content))
		return toolEnd(e.ToolCallID, e.Result.IsError, content), true
	case agent.EventEdit:
		var locs []sdk.ToolCallLocation
		for _, c := range e.Changes {
			locs = append(locs, sdk.ToolCallLocation{Path: c.Path})
			if c.NewPath != "" {
				locs = append(locs, sdk.ToolCallLocation{Path: c.NewPath})
			}
		}
		return sdk.UpdateToolCall(sdk.ToolCallId(e.ToolCallID), sdk.WithUpdateLocations(locs)), true
	case agent.EventError:
		return sdk.UpdateAgentMessageText("\n\nparley: " + e.Text + "\n"), true
	}
	return sdk.SessionUpdate{}, false
}

func resultContent(text string) sdk.ToolCallContent {
	if len(text) > maxResultText {
		text = clipBytes(text, maxResultText) + fmt.Sprintf("\n… (%d bytes in all)", len(text))
	}
	return sdk.ToolContent(sdk.TextBlock(text))
}

// clipBytes cuts s to at most n bytes at a character boundary.
func clipBytes(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// plan is the session's todo list as an ACP plan.
func (ss *session) plan() sdk.SessionUpdate {
	var entries []sdk.PlanEntry
	for _, it := range ss.todos.Items() {
		st := sdk.PlanEntryStatusPending
		switch it.Status {
		case tools.TodoInProgress:
			st = sdk.PlanEntryStatusInProgress
		case tools.TodoCompleted:
			st = sdk.PlanEntryStatusCompleted
		}
		entries = append(entries, sdk.PlanEntry{Content: it.Content, Status: st, Priority: sdk.PlanEntryPriorityMedium})
	}
	if entries == nil {
		entries = []sdk.PlanEntry{}
	}
	return sdk.UpdatePlan(entries...)
}

// addContent keeps content of call id (the diffs of its applied edits,
// its terminal) for the update that reports its result.
func (ss *session) addContent(id string, c ...sdk.ToolCallContent) {
	if id == "" {
		return
	}
	ss.mu.Lock()
	ss.content[id] = append(ss.content[id], c...)
	ss.mu.Unlock()
}

func (ss *session) takeContent(id string) []sdk.ToolCallContent {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	c := ss.content[id]
	delete(ss.content, id)
	return c
}

// startReporter wraps a tool so that a call, once allowed, is reported
// in_progress as it starts.
type startReporter struct {
	tools.Tool
	ss *session
}

func (t startReporter) Prepare(env *tools.Env, input json.RawMessage) (tools.Call, error) {
	c, err := t.Tool.Prepare(env, input)
	if err != nil {
		return nil, err
	}
	return startedCall{Call: c, ss: t.ss}, nil
}

type startedCall struct {
	tools.Call
	ss *session
}

func (c startedCall) Run(ctx context.Context) (*tools.Result, error) {
	if id := agent.ToolCallID(ctx); id != "" {
		c.ss.update(ctx, sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
	}
	return c.Call.Run(ctx)
}

// toolStart is the update that shows a tool call, pending.
func (ss *session) toolStart(id, tool string, input json.RawMessage) sdk.SessionUpdate {
	return sdk.StartToolCall(sdk.ToolCallId(id), title(tool, input),
		sdk.WithStartKind(toolKind(tool)), sdk.WithStartStatus(sdk.ToolCallStatusPending),
		sdk.WithStartLocations(ss.locations(input)), sdk.WithStartRawInput(input))
}

// toolEnd is the update that ends a tool call with its content.
func toolEnd(id string, failed bool, content []sdk.ToolCallContent) sdk.SessionUpdate {
	status := sdk.ToolCallStatusCompleted
	if failed {
		status = sdk.ToolCallStatusFailed
	}
	return sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateStatus(status), sdk.WithUpdateContent(content))
}
