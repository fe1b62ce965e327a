package index

import (
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/index/graph"
)

// The report of issue 11, on this repository: with the root at agent/,
// which has no go.mod of its own, `deps loop.go` resolved the module's
// tools package to "./" and marked agent/permission, under the root,
// external. Imports are now resolved against the go.mod above the root.
func TestGraphRootInsideThisModule(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "agent"))
	if err != nil {
		t.Fatal(err)
	}
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	g, err := st.Graph(root)
	if err != nil {
		t.Fatal(err)
	}
	const mod = "github.com/parleyhq/parley/"
	want := map[string]graph.Edge{
		mod + "agent/permission": {To: "permission", ToDir: true, Resolved: true},
		mod + "agent/provider":   {To: "provider", ToDir: true, Resolved: true},
		mod + "tools":            {External: true}, // in the module, outside the root
		"context":                {External: true},
	}
	for _, e := range g.Deps("loop.go") {
		w, ok := want[e.Import]
		if !ok {
			continue
		}
		delete(want, e.Import)
		w.From, w.Import, w.Line = e.From, e.Import, e.Line
		if e != w {
			t.Errorf("loop.go imports %s:\ngot  %+v\nwant %+v", e.Import, e, w)
		}
	}
	for imp := range want {
		t.Errorf("loop.go does not import %s any more; update the test", imp)
	}
}
