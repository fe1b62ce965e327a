// Package agent is the coding agent's query loop and its sessions: it
// sends the conversation to a model, runs the tool calls the model makes
// (through the permission policy), feeds the results back, and repeats
// until the model answers without calling a tool.
//
// Contracts:
//   - Agent.Run owns one turn of one Session. A Session must not be used by
//     two Runs at once; an Agent (read-only configuration) may serve
//     several sessions concurrently.
//   - Read-only tools from one model response run in parallel (bounded);
//     every other tool runs alone, in the order the model called it.
//     Results always go back in call order.
//   - The history only ever holds complete messages, and every tool_use is
//     answered by a tool_result, whatever happens: a refused, denied,
//     failed or cancelled call gets an error result. A provider failure or
//     cancellation during the model stream appends nothing for that step,
//     so the session can always continue with another Run.
//   - Model mistakes (unknown tool, bad arguments, denial, repeated calls)
//     go back to the model as error results and the turn continues. Go
//     errors returned by Run mean infrastructure failed (provider, tool
//     infrastructure, session store); cancellation is not an error but the
//     stop reason "cancelled".
//   - Events reach the Sink serialized and in order, a Run's always
//     ending with one EventDone (Agent.Compact sends only its
//     EventCompaction).
//   - The conversation is kept inside the model's context window: a prompt
//     counted above CompactThreshold of the window is compacted before the
//     call (old tool results masked, then old messages summarised by the
//     model, see compact.go), and a call the model rejects as too long
//     (provider.ErrContextOverflow) is compacted and retried once; a second
//     rejection fails the turn with an error saying so.
//   - Hooks (Agent.Hooks, package hooks; call sites in hooks.go) run at
//     SessionStart and UserPromptSubmit (before the prompt joins the
//     history), PreToolUse (after the input is decoded, before the
//     permission check), PermissionRequest (in place of the user's answer
//     when a hook decides), PostToolUse, PreCompact, Stop/SubagentStop
//     (a block makes the model go on) and SessionEnd (Agent.EndSession).
//     What hooks say reaches the model inside the messages the history
//     already has, so its invariants hold; a hook never fails a turn, and
//     continue:false ends it with StopHook after the current tool round.
//   - Sessions hold messages and usage only: configuration and API keys
//     are never part of a Session, so the SessionStore cannot persist them.
//     The SessionStore is safe for concurrent use; the caller must Close it.
package agent
