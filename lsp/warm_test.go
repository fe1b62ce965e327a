package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestWarmOnOpen: opening a Python document parses it and the modules it
// imports into the folder's tree cache in the background, before any
// request asks for them.
func TestWarmOnOpen(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_py.txtar"))
	warmed := make(chan []string, 4)
	e := startEditor(t, root, editorConfig{noInit: true})
	e.srv.testHookWarm = func(w []string) { warmed <- w }
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	e.open("app/main.py")
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
// imports lead to, which the index did not know when it was opened.
func TestWarmAfterIndexing(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_py.txtar"))
	warmed := make(chan []string, 8)
	release := make(chan struct{})
	var once sync.Once
	e := startEditor(t, root, editorConfig{noInit: true})
	e.srv.testHookWarm = func(w []string) { warmed <- w }
	e.srv.testHookIndexProgress = func(context.Context) { once.Do(func() { <-release }) }
	e.initialize(editorConfig{utf8: true})
	e.open("app/main.py")
	select {
	case <-warmed: // the warming on open, with what the index knew then
	case <-time.After(waitTimeout):
		t.Fatal("opening app/main.py warmed nothing")
	}
	close(release)
	e.waitIndexed(1)
	want := []string{"app/main.py", "pkg/models.py", "pkg/__init__.py", "pkg/util.py", "pkg/star.py", "app/sibling.py"}
	select {
	case got := <-warmed:
		if !slices.Equal(got, want) {
			t.Errorf("warmed after indexing %v, want %v", got, want)
		}
	case <-time.After(waitTimeout):
		t.Fatal("the end of the index run warmed nothing")
	}
}
