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

// TestWarmOnOpen: opening a TypeScript document parses it and the
// modules it imports into the folder's tree cache in the background,
// before any request asks for them. (A Python document is warmed only
// while the index does not hold its content, which the server writes
// right after the open: index.TestWarmSyntax.)
func TestWarmOnOpen(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_ts.txtar"))
	warmed := make(chan []string, 4)
	e := startEditor(t, root, editorConfig{noInit: true})
	e.srv.testHookWarm = func(w []string) { warmed <- w }
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	e.open("src/app.ts")
	select {
	case got := <-warmed:
		want := []string{"src/app.ts", "src/models.ts", "src/index.ts", "src/util/help.ts"}
		if !slices.Equal(got, want) {
			t.Errorf("warmed %v, want %v", got, want)
		}
	case <-time.After(waitTimeout):
		t.Fatal("opening src/app.ts warmed nothing")
	}
	// A resolution after warming is not cancelled by it.
	if got, want := definitions(t, e, "src/app.ts", pos(12, 3)), []string{"src/util/help.ts:0:16-22"}; !slices.Equal(got, want) {
		t.Errorf("definition of assist after warming: %v, want %v", got, want)
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
	// Under load one warming here once answered a shorter list (not
	// reproduced since; a warming stops when cancelled): what counts is
	// that a warming after the run reaches the imports.
	want := []string{"src/app.ts", "src/models.ts", "src/index.ts", "src/util/help.ts"}
	timeout := time.After(waitTimeout)
	var got []string
	for !slices.Equal(got, want) {
		select {
		case got = <-warmed:
		case <-timeout:
			t.Fatalf("the end of the index run warmed %v, want %v", got, want)
		}
	}
}
