package lsp

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestWarmOnOpen: opening a document of a language whose locals are
// resolved parses it into the folder's tree cache in the background,
// before any request asks for it, and a request after the warming is not
// cancelled by it. (A Python, TypeScript or JavaScript document is warmed
// only while the index does not hold its content, which the server writes
// right after the open: index.TestWarmSyntax, TestTSWarmSyntax.)
func TestWarmOnOpen(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "locals", "testdata", "locals_java.txtar"))
	warmed := make(chan []string, 4)
	e := startEditor(t, root, editorConfig{noInit: true})
	e.srv.testHookWarm = func(w []string) { warmed <- w }
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	const file = "demo/Shapes.java"
	e.open(file)
	select {
	case got := <-warmed:
		if want := []string{file}; !slices.Equal(got, want) {
			t.Errorf("warmed %v, want %v", got, want)
		}
	case <-time.After(waitTimeout):
		t.Fatalf("opening %s warmed nothing", file)
	}
	// `return x;` in area: the local declared on line 8.
	if got, want := definitions(t, e, file, pos(20, 15)), []string{file + ":7:12-13"}; !slices.Equal(got, want) {
		t.Errorf("definition of the local x after warming: %v, want %v", got, want)
	}
}

// TestAwaitLateResumes: a request that takes the place of a late
// resolution (or warming) which ended between the request's look and its
// cancel finds the store resumed, not cancelled from its start.
func TestAwaitLateResumes(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "python", "testdata", "resolve_py.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	f, _, ok := e.srv.folderOf(filepath.Join(e.root, "app", "main.py"))
	if !ok {
		t.Fatal("no folder for app/main.py")
	}
	// A late one holds the slot when the request looks, and ends (the
	// store resumed, the slot freed) after the request's cancel.
	if !f.slot.takeLate() {
		t.Fatal("the folder's slot is busy")
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		f.slot.release()
	}()
	if !awaitLate(context.Background(), f, time.Second, time.Now().Add(time.Second)) {
		t.Fatal("awaitLate did not take the freed slot")
	}
	defer f.slot.release()
	if nav.CancelledSince(f.store, nav.ResolveGen(f.store)) {
		t.Error("the store stays cancelled for the resolution that took the slot")
	}
}
