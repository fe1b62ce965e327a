package tools

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/memory"
)

// A symbol anchor is judged on the symbol's lines as the index places
// them, a file anchor on the whole file; both through the Env's view.
func TestAnchorHasher(t *testing.T) {
	w := ftIndexed(t)
	ws, err := memory.Open(t.TempDir(), memory.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	w.env.Memory = &memory.Set{Workspace: ws, Anchors: AnchorHasher(w.env)}

	remember := func(anchors ...map[string]any) {
		t.Helper()
		ftContains(t, ftOK(t, rememberTool, w.env, map[string]any{"content": "doubling overflows", "anchors": anchors}), "Remembered")
	}
	remember(map[string]any{"path": "util/util.go", "symbol": "Double"})
	remember(map[string]any{"path": "main.go", "symbol": "Server.Serve"})
	remember(map[string]any{"path": "util/util.go"})
	ftFail(t, rememberTool, w.env, map[string]any{"content": "x", "anchors": []map[string]any{{"path": "util/util.go", "symbol": "Triple"}}},
		"anchor util/util.go#Triple: no such file or symbol")

	stale := func() map[string][]string {
		t.Helper()
		hits, err := w.env.Memory.ListStale()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string][]string{}
		for _, h := range hits {
			out[memory.Ref(h.Memory)] = h.Stale
		}
		return out
	}
	if got := stale(); len(got) != 0 {
		t.Fatalf("stale at once: %v", got)
	}
	// A change outside Double: the file anchor is stale, Double is not.
	src := w.read(t, "util/util.go")
	ftWrite(t, w.root, "util/util.go", strings.Replace(src, "func Serve() {}", "func Serve() { println() }", 1))
	reindex(t, w)
	if got := stale(); len(got) != 1 || !slices.Equal(got["3"], []string{"util/util.go changed"}) {
		t.Errorf("after a change elsewhere in the file: %v", got)
	}
	// Lines added above Double move it but leave it unchanged.
	ftWrite(t, w.root, "util/util.go", strings.Replace(w.read(t, "util/util.go"), "package util\n", "package util\n\nconst k = 1\n", 1))
	reindex(t, w)
	if got := stale(); got["1"] != nil {
		t.Errorf("a moved but unchanged symbol is stale: %v", got)
	}
	ftWrite(t, w.root, "util/util.go", strings.Replace(w.read(t, "util/util.go"), "x * 2", "x << 1", 1))
	ftWrite(t, w.root, "main.go", strings.Replace(w.read(t, "main.go"), "func (s *Server) Serve(", "func (s *Server) Handle(", 1))
	reindex(t, w)
	got := stale()
	if !slices.Equal(got["1"], []string{"util/util.go#Double changed"}) || !slices.Equal(got["2"], []string{"main.go#Server.Serve is gone"}) {
		t.Errorf("after changing Double and renaming Serve: %v", got)
	}
	ftContains(t, ftOK(t, recallMemoriesTool, w.env, map[string]any{"query": "doubling"}), "[STALE: util/util.go#Double changed since it was written]")
}

func reindex(t *testing.T, w *ftWorkspace) {
	t.Helper()
	st := w.env.Index.(ftIndexSet).store
	if _, err := st.Index(context.Background(), w.root, index.Options{}); err != nil {
		t.Fatal(err)
	}
}
