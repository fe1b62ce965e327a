package agent

import (
	"encoding/json"

	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

// EventKind discriminates Event.
type EventKind string

const (
	// EventText and EventThinking carry a streamed fragment in Text.
	EventText     EventKind = "text"
	EventThinking EventKind = "thinking"
	// EventToolCall announces a complete tool call (ToolCallID, ToolName,
	// Input), before it runs.
	EventToolCall EventKind = "toolCall"
	// EventToolResult carries the outcome the model will see (Result),
	// including refusals and denials.
	EventToolResult EventKind = "toolResult"
	// EventEdit follows a toolResult whose call changed files (Changes).
	EventEdit EventKind = "edit"
	// EventUsage reports the tokens of one model call (Usage).
	EventUsage EventKind = "usage"
	// EventCompaction reports a compaction of the session's history
	// (Compaction; Text says it in one line). It comes before the model
	// call it made room for; after a context overflow, the text streamed
	// since the last tool result belonged to an answer that was dropped
	// and is answered again. Agent.Compact sends it outside any turn,
	// without an EventDone.
	EventCompaction EventKind = "compaction"
	// EventHook reports one hook run (Hook; Text says it in one line):
	// blocks, failures, timeouts and refused workspace hooks included.
	EventHook EventKind = "hook"
	// EventMemory reports the long-term memories auto-recall added to the
	// user's message (Memories; Text says it in one line), or a failed
	// recall (Text alone). It comes before the turn's first model call.
	EventMemory EventKind = "memory"
	// EventMCP reports what happened to an MCP server (MCP; Text says it
	// in one line): a failed start, a crash, a restart under way or done.
	// A server belongs to the workspace, not to a session, so the event
	// may come outside any turn with Session empty and Turn 0; front ends
	// show it whatever session they show.
	EventMCP EventKind = "mcp"
	// EventError reports a failure that ends the turn (Err).
	EventError EventKind = "error"
	// EventDone is always the last event of a turn: Usage is the turn's
	// total and StopReason says why it ended.
	EventDone EventKind = "done"
)

// Event is one thing that happened during a turn. Fields not used by Kind
// stay zero.
type Event struct {
	Session    string           `json:"session"`
	Turn       int              `json:"turn"`
	Kind       EventKind        `json:"kind"`
	Text       string           `json:"text,omitempty"`
	ToolCallID string           `json:"toolCallId,omitempty"`
	ToolName   string           `json:"toolName,omitempty"`
	Input      json.RawMessage  `json:"input,omitempty"`
	Result     *ToolOutcome     `json:"result,omitempty"`
	Changes    []Change         `json:"changes,omitempty"`
	Usage      provider.Usage   `json:"usage"`
	Compaction *Compaction      `json:"compaction,omitempty"`
	Hook       *hooks.Report    `json:"hook,omitempty"`
	Memories   []RecalledMemory `json:"memories,omitempty"`
	MCP        *MCPReport       `json:"mcp,omitempty"`
	StopReason StopReason       `json:"stopReason,omitempty"`
	Err        error            `json:"-"`
}

// MCPReport is one thing that happened to an MCP server (EventMCP).
type MCPReport struct {
	Server string `json:"server"`
	// State is "failed" (could not start), "crashed" (its connection
	// ended; restarted on next use), "restarting" or "restarted".
	State string `json:"state"`
	Error string `json:"error,omitempty"`
	// RetrySeconds is, for "failed", the wait before the next start (0:
	// not retried, e.g. a workspace server waiting to be allowed).
	RetrySeconds int `json:"retrySeconds,omitempty"`
}

// ToolOutcome is what a tool call returned to the model.
type ToolOutcome struct {
	Content string `json:"content"`
	IsError bool   `json:"isError,omitempty"`
}

// Change is one file-level change applied by a tool call.
type Change struct {
	Op      string `json:"op"`   // "modify", "create", "delete" or "rename"
	Path    string `json:"path"` // absolute
	NewPath string `json:"newPath,omitempty"`
}

// Sink receives a turn's events. Calls from one Run are serialized and
// arrive in order; a Sink runs on the loop's path, so it must return
// quickly and must not call back into the Agent.
type Sink func(Event)

func changesOf(fcs []tools.FileChange) []Change {
	out := make([]Change, len(fcs))
	for i, fc := range fcs {
		out[i] = Change{Op: opName(fc.Op), Path: fc.Path, NewPath: fc.NewPath}
	}
	return out
}

func opName(op tools.ChangeOp) string {
	switch op {
	case tools.OpCreate:
		return "create"
	case tools.OpDelete:
		return "delete"
	case tools.OpRename:
		return "rename"
	}
	return "modify"
}
