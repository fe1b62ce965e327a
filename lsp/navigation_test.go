package lsp

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestGoReferencesScope checks what the server answers for Go references
// on index/golang/testdata/resolve_go.txtar: what a type checker configured for
// the requesting file would (goReferences), not the uncertain rest that
// `parley refs` marks.
func TestGoReferencesScope(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "golang", "testdata", "resolve_go.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	refs := func(rel string, p protocol.Position) []string {
		t.Helper()
		return references(t, e, rel, p, true)
	}
	// Square.Area: its calls on sq, on the alias Figure, through the
	// embedding Named, the Shape interface (sh, and it ranging over
	// []Shape), on an element of Squares and on all["x"], a value of a
	// map of *Square; not Circle's c.Area or b.Rows[0].Area. Also on an
	// interface method's result (iface.go), elements of a call's result
	// and of a variable (results.go), and a type switch's clause listing several types
	// (switch.go:7, a Shape), not its *Circle clause.
	want := []string{"shapes/alias.go:4:40-44", "shapes/elems.go:8:8-12", "shapes/elems.go:9:10-14", "shapes/iface.go:8:10-14", "shapes/results.go:8:8-12", "shapes/results.go:9:9-13", "shapes/shapes.go:8:16-20", "shapes/switch.go:7:11-15", "shapes/use.go:6:13-17", "shapes/use.go:6:35-39", "shapes/use.go:6:47-51", "shapes/use.go:8:14-18"}
	if got := refs("shapes/shapes.go", pos(8, 17)); !slices.Equal(got, want) {
		t.Errorf("references to Square.Area:\n got %v\nwant %v", got, want)
	}
	// sys.Call from the linux file: not the windows files' (another
	// build), nor riscv64's unless this is one.
	want = []string{"sys/sys_linux.go:2:5-9"}
	if runtime.GOOS == "linux" && runtime.GOARCH == "riscv64" {
		want = append(want, "sys/z_linux_riscv64.go:2:15-19")
	}
	if got := refs("sys/sys_linux.go", pos(2, 6)); !slices.Equal(got, want) {
		t.Errorf("references to sys.Call from linux:\n got %v\nwant %v", got, want)
	}
	// A local: its declaration and use in run, not labeled's d or the
	// receivers named d in store.go.
	want = []string{"cmd/typed.go:13:5-6", "cmd/typed.go:14:1-2"}
	if got := refs("cmd/typed.go", pos(14, 1)); !slices.Equal(got, want) {
		t.Errorf("references to the local d:\n got %v\nwant %v", got, want)
	}
	// Predeclared names (nil, error): none, as gopls, not every
	// occurrence of the name.
	for _, p := range []protocol.Position{pos(8, 36), pos(8, 21)} {
		if got := refs("store/store.go", p); len(got) != 0 {
			t.Errorf("references to a predeclared name at %v: %v", p, got)
		}
	}
	// A word in a comment ("which Open it has"): none, not every Open.
	if got := refs("cache/cache.go", pos(9, 14)); len(got) != 0 {
		t.Errorf("references to a word in a comment: %v", got)
	}
	// tx.Close on a range variable: DB.Close or Tx.Close, the syntax
	// cannot tell; the answer is their references, not cache's
	// package-level Close.
	got := refs("cmd/typed.go", pos(23, 5))
	if !slices.Contains(got, "store/store.go:8:13-18") || !slices.Contains(got, "store/store.go:14:13-18") {
		t.Errorf("references at an unknown tx.Close miss a candidate's declaration: %v", got)
	}
	for _, l := range got {
		if strings.HasPrefix(l, "cache/") {
			t.Errorf("references at an unknown tx.Close include %s", l)
		}
	}
}
