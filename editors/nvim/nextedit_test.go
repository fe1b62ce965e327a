// Next-edit proposals (lua/parley/nextedit.lua): parley/nextEdit after a
// change, shown as virtual text, jumped through, accepted as one undo
// step, never applied when stale.

package nvim_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
)

// Functions whose first parameter is used three times (scale.go: once
// after non-ASCII text, so positions must be UTF-16) or twice.
var nextEditFiles = map[string]string{
	"cart/scale.go": "package cart\n\n// Scale multiplies.\nfunc Scale(n int, by int) int {\n\tif n < 0 {\n\t\treturn -n * by\n\t}\n" +
		"\t_ = \"« 😀 »\"; return n * by\n}\n",
	"cart/shift.go": "package cart\n\n// Shift adds.\nfunc Shift(k int, by int) int {\n\tif k < 0 {\n\t\treturn by - k\n\t}\n\treturn k + by\n}\n",
	"cart/grow.go":  "package cart\n\n// Grow multiplies and adds.\nfunc Grow(g int, by int) int {\n\tif g < 0 {\n\t\treturn g\n\t}\n\treturn g*by + by\n}\n",
}

// TestNextEdit: renaming a parameter at its declaration shows the
// proposal to rename its uses, the jump key goes through them, the accept
// key applies them all and one `u` takes them back; an edit in a file not
// open is jumped to and applied (a proposal the script makes up: the
// server's own needs the file's old declaration still indexed); a change
// after the proposal dismisses it, a stale proposal is never applied and
// an answer for an old version is not shown; a proposal is accepted in
// Insert mode too (tests/nextedit.lua). Here: the server counted the two
// accepted proposals it made.
func TestNextEdit(t *testing.T) {
	r := run(t, nvimRun{script: "nextedit.lua", workspaceFiles: nextEditFiles})
	out, err := exec.Command(parleyBinary(t), "stats", "--completions", "--json", "--root", r.root, "--data-dir", r.data).CombinedOutput()
	if err != nil {
		t.Fatalf("parley stats --completions: %v\n%s", err, out)
	}
	var stats []struct {
		Language                  string
		NextOffered, NextAccepted int
	}
	if err := json.Unmarshal(out, &stats); err != nil {
		t.Fatalf("parley stats --completions: %v\n%s", err, out)
	}
	offered, accepted := 0, 0
	for _, s := range stats {
		offered += s.NextOffered
		accepted += s.NextAccepted
	}
	if accepted != 2 || offered < 5 {
		t.Errorf("parley stats --completions (want 2 proposals accepted of 5 or more offered):\n%s", out)
	}
}

// TestNextEditMinimalSetup: the README's setup({}) (next_edit's defaults,
// didChange debounced as Neovim does by default): the keys are mapped, a
// change with nothing to propose shows nothing and fails nowhere, and a
// rename's proposal is accepted with <M-CR> (tests/nextedit_minimal.lua).
func TestNextEditMinimalSetup(t *testing.T) {
	plugin, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	run(t, nvimRun{script: "nextedit_minimal.lua", init: minimalSetup(t, plugin), files: []string{"cart/scale.go"},
		userEnv: true, workspaceFiles: nextEditFiles})
}
