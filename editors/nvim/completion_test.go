// Inline completion (lua/parley/completion.lua): ghost text from
// parley/inlineCompletion in Insert mode.

package nvim_test

import "testing"

// TestCompletionUnit: the Lua side against a stub client, no server:
// params, extmarks, typing through, cycling, accept and undo, dismissal,
// stale answers, cancellation, the toggle (tests/completion_unit.lua).
func TestCompletionUnit(t *testing.T) {
	run(t, nvimRun{script: "completion_unit.lua"})
}
