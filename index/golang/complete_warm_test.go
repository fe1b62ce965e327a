package golang

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestWarmCompletion: opening app/main.go builds its package's tables
// and the exported API of the package it imports for its port, which
// the completion after `store.` then reads without decoding anything.
func TestWarmCompletion(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "complete_go.txtar"))
	st := navtest.Open(t, t.TempDir(), nil)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	src, err := os.ReadFile(filepath.Join(root, "app", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	WarmCompletion(st, "app/main.go", src)
	g := goDirsOf(st)
	g.mu.Lock()
	app, store := g.byDir["app"], g.byDir["store"]
	_, refs := g.refs["app"]
	g.mu.Unlock()
	if app == nil || store == nil || !refs {
		t.Fatalf("tables after warming: app %v, store %v, app's names %v", app != nil, store != nil, refs)
	}
	store.mu.Lock()
	api, ok := store.api[index.PortOf("app/main.go", "")]
	store.mu.Unlock()
	if !ok || len(api.same) == 0 {
		t.Fatalf("store's API for app/main.go's port not built: %+v", store.api)
	}
	// A request reads the same tables: nothing is rebuilt.
	off := bytes.Index(src, []byte("\tstore.New(\"y\")")) + len("\tstore.")
	c := CompletionAt(st, "app/main.go", src, off)
	if c.Members == nil || !c.Members.Package || len(c.Members.Hits) == 0 {
		t.Fatalf("no package API after store.: %+v", c.Members)
	}
	g.mu.Lock()
	again := g.byDir["store"]
	g.mu.Unlock()
	if again != store {
		t.Error("the completion rebuilt the warmed table of store")
	}
}
