package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestWarmOnOpen: opening a Python document whose content differs from
// the index's parses it and the modules it imports into the folder's tree
// cache in the background, before any request asks for them.
func TestWarmOnOpen(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_py.txtar"))
	warmed := make(chan []string, 4)
	e := startEditor(t, root, editorConfig{noInit: true})
	e.srv.testHookWarm = func(w []string) { warmed <- w }
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	e.openText("app/main.py", editedPy(t, root, "app/main.py"))
	select {
	case got := <-warmed:
		want := []string{"app/main.py", "pkg/models.py", "pkg/__init__.py", "pkg/util.py", "pkg/star.py", "app/sibling.py"}
		if !slices.Equal(got, want) {
			t.Errorf("warmed %v, want %v", got, want)
		}
	case <-time.After(waitTimeout):
		t.Fatal("opening app/main.py warmed nothing")
	}
	// A resolution after warming is not cancelled by it.
	if got, want := definitions(t, e, "app/main.py", pos(16, 6)), []string{"pkg/models.py:3:8-12"}; !slices.Equal(got, want) {
		t.Errorf("definition of u.save after warming: %v, want %v", got, want)
	}
}

// TestAwaitLateResumes: a request that takes the place of a late
// resolution (or warming) which ended between the request's look and its
// cancel finds the store resumed, not cancelled from its start.
func TestAwaitLateResumes(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_py.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	f, _, ok := e.srv.folderOf(filepath.Join(e.root, "app", "main.py"))
	if !ok {
		t.Fatal("no folder for app/main.py")
	}
	// The late one has resumed the store and freed the slot; its late
	// flag is what the request saw.
	f.late.Store(true)
	if !awaitLate(context.Background(), f, time.Second, time.Now().Add(time.Second)) {
		t.Fatal("awaitLate did not take the free slot")
	}
	defer f.resolving.Store(false)
	if f.store.CancelledSince(f.store.ResolveGen()) {
		t.Error("the store stays cancelled for the resolution that took the slot")
	}
}

// TestWarmAfterIndexing: a document opened before the first index run
// finished is warmed again when the run ends, now with the modules its
// imports lead to, which the index did not know when it was opened. A
// TypeScript document: a Python one's content is in the index by then,
// and its requests are answered from descriptors, with nothing to warm.
func TestWarmAfterIndexing(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_ts.txtar"))
	warmed := make(chan []string, 8)
	release := make(chan struct{})
	var once sync.Once
	e := startEditor(t, root, editorConfig{noInit: true})
	e.srv.testHookWarm = func(w []string) { warmed <- w }
	e.srv.testHookIndexProgress = func(context.Context) { once.Do(func() { <-release }) }
	e.initialize(editorConfig{utf8: true})
	e.open("src/app.ts")
	select {
	case <-warmed: // the warming on open, with what the index knew then
	case <-time.After(waitTimeout):
		t.Fatal("opening src/app.ts warmed nothing")
	}
	close(release)
	e.waitIndexed(1)
	want := []string{"src/app.ts", "src/models.ts", "src/index.ts", "src/util/help.ts"}
	select {
	case got := <-warmed:
		if !slices.Equal(got, want) {
			t.Errorf("warmed after indexing %v, want %v", got, want)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the end of the index run warmed nothing")
	}
}

// editedPy is rel's content with a comment added: a buffer the index
// does not hold, which warming parses.
func editedPy(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "# edited\n"
}
