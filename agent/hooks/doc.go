// Package hooks runs the user's hook commands at the agent's lifecycle
// events, in Claude Code's format and protocol, so that the same hooks
// work in `parley chat`, `parley serve` and `parley loop`.
//
// A hook is a command run with `sh -c` in the workspace root, in its own
// process group, with a JSON description of the event on stdin (Input,
// with Claude Code's field names). It answers through its exit code and
// stdout:
//   - exit 0: success; stdout, if it is a JSON object, is read as Output
//     (decision, permissionDecision, updatedInput, additionalContext,
//     continue/stopReason); other stdout is ignored, except for
//     UserPromptSubmit and SessionStart, where it is added as context.
//   - exit 2: block; stderr is the reason, which reaches the model (or, for
//     UserPromptSubmit, the user).
//   - any other exit, a crash, an unreadable answer or a timeout: reported
//     (Report) and otherwise ignored. A hook never makes a turn fail.
//
// Contracts: the hooks of one event run one after another in
// configuration order, and their answers are combined (Result): any block
// or deny wins over ask, ask over allow; the last updatedInput wins. A
// hook that outlives its timeout, or whose context is cancelled, has its
// whole process group killed. Hooks from a workspace file run only once
// the user approved exactly that definition for that workspace
// (Approvals); until then they are reported as refused and not run.
// A Runner is read-only after New and safe for concurrent use.
package hooks
