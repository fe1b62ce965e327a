package hooks

import "encoding/json"

// Event is a hook event name (config.HookPreToolUse, ...).
type Event = string

// Input is the JSON a hook reads on stdin. Field names are Claude Code's;
// fields an event does not use are left out.
type Input struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Cwd            string `json:"cwd"`
	PermissionMode string `json:"permission_mode,omitempty"`
	HookEventName  Event  `json:"hook_event_name"`
	// PreToolUse, PermissionRequest, PostToolUse.
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"` // PostToolUse
	Prompt       string          `json:"prompt,omitempty"`        // UserPromptSubmit
	// Source is "startup" or "resume" (SessionStart).
	Source string `json:"source,omitempty"`
	// Trigger is "manual" or "auto" (PreCompact), CustomInstructions the
	// user's focus for a manual compaction.
	Trigger            string  `json:"trigger,omitempty"`
	CustomInstructions *string `json:"custom_instructions,omitempty"`
	// StopHookActive is set (Stop, SubagentStop) when the turn goes on
	// because a Stop hook blocked it before: a hook checks it to avoid
	// blocking forever.
	StopHookActive *bool `json:"stop_hook_active,omitempty"`
	// Reason says why a session ended (SessionEnd): "clear", "logout",
	// "prompt_input_exit" or "other".
	Reason string `json:"reason,omitempty"`
}

// matchKey is what an event's matchers are tested against.
func (in *Input) matchKey() string {
	switch in.HookEventName {
	case "SessionStart":
		return in.Source
	case "PreCompact":
		return in.Trigger
	}
	return in.ToolName
}

// Output is a hook's JSON answer on stdout (Claude Code's common and
// event-specific fields).
type Output struct {
	Continue      *bool  `json:"continue,omitempty"`
	StopReason    string `json:"stopReason,omitempty"`
	SystemMessage string `json:"systemMessage,omitempty"`
	// Decision is "block" (PostToolUse, Stop, UserPromptSubmit) or, in
	// older PreToolUse hooks, "approve" / "block".
	Decision           string              `json:"decision,omitempty"`
	Reason             string              `json:"reason,omitempty"`
	HookSpecificOutput *HookSpecificOutput `json:"hookSpecificOutput,omitempty"`
}

// HookSpecificOutput holds the per-event answers.
type HookSpecificOutput struct {
	HookEventName string `json:"hookEventName,omitempty"`
	// PreToolUse: "allow", "deny" or "ask".
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             json.RawMessage `json:"updatedInput,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	// Decision answers a PermissionRequest.
	Decision *PermissionAnswer `json:"decision,omitempty"`
}

// PermissionAnswer is a PermissionRequest hook's answer: behavior "allow"
// or "deny".
type PermissionAnswer struct {
	Behavior     string          `json:"behavior"`
	UpdatedInput json.RawMessage `json:"updatedInput,omitempty"`
	Message      string          `json:"message,omitempty"`
}
