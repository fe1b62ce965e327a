package index

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

func TestPutContentAndSkip(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"a.go": "package a\n\nfunc OnDisk() {}\n",
		"b.go": "package a\n\nfunc Other() { OnDisk() }\n",
	})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	ctx := context.Background()

	// An unsaved buffer replaces the file's records.
	if err := st.PutContent(ctx, "a.go", []byte("package a\n\nfunc InBuffer() {}\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if got := defPaths(t, st, "InBuffer"); !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("InBuffer defined in %v", got)
	}
	if got := defPaths(t, st, "OnDisk"); len(got) != 0 {
		t.Fatalf("OnDisk still defined in %v", got)
	}
	// A new, unsaved file is indexed too and survives a run that skips it.
	if err := st.PutContent(ctx, "new.go", []byte("package a\n\nfunc Fresh() {}\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	open := map[string]bool{"a.go": true, "new.go": true}
	if _, err := st.Index(ctx, root, Options{Skip: func(rel string) bool { return open[rel] }}); err != nil {
		t.Fatal(err)
	}
	if got := defPaths(t, st, "InBuffer"); !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("skipped run lost the buffer: InBuffer in %v", got)
	}
	if got := defPaths(t, st, "Fresh"); !slices.Equal(got, []string{"new.go"}) {
		t.Fatalf("skipped run removed an unsaved file: Fresh in %v", got)
	}
	// Once closed, the next run restores the disk content and drops the
	// file that never reached the disk.
	mustIndex(t, st, root)
	if got := defPaths(t, st, "OnDisk"); !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("OnDisk after reindex: %v", got)
	}
	if got := defPaths(t, st, "Fresh"); len(got) != 0 {
		t.Fatalf("Fresh after reindex: %v", got)
	}
	if err := st.RemovePath("b.go"); err != nil {
		t.Fatal(err)
	}
	if got := refPaths(t, st, "OnDisk"); !slices.Equal(got, []string{"a.go"}) {
		t.Fatalf("refs after RemovePath: %v", got)
	}
	if err := st.RemovePath("never-there.go"); err != nil {
		t.Fatal(err)
	}
}

func TestPutContentCancelled(t *testing.T) {
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := st.PutContent(ctx, "a.go", []byte("package a\nfunc X() {}\n"), Options{}); err == nil {
		t.Fatal("cancelled PutContent succeeded")
	}
	if _, ok := st.Header("a.go"); ok {
		t.Fatal("cancelled PutContent recorded the file")
	}
}

// PutContent alongside an Index run that skips the open paths: run with
// -race, this is what the language server does while indexing.
func TestPutContentDuringIndex(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 200 {
		files[fmt.Sprintf("p%d/f.go", i)] = fmt.Sprintf("package p%d\n\nfunc F%d() {}\n", i, i)
	}
	fixture.WriteTree(t, root, files)
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	skip := func(rel string) bool { return rel == "open.go" }
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := range 50 {
			src := fmt.Sprintf("package o\n\nfunc Open%d() {}\n", v)
			if err := st.PutContent(context.Background(), "open.go", []byte(src), Options{}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	if _, err := st.Index(context.Background(), root, Options{Skip: skip}); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if got := defPaths(t, st, "Open49"); !slices.Equal(got, []string{"open.go"}) {
		t.Fatalf("Open49 in %v", got)
	}
	if got := defPaths(t, st, "F199"); !slices.Equal(got, []string{"p199/f.go"}) {
		t.Fatalf("F199 in %v", got)
	}
	for v := range 49 {
		if got := defPaths(t, st, fmt.Sprintf("Open%d", v)); len(got) != 0 {
			t.Fatalf("stale Open%d still defined in %v", v, got)
		}
	}
}

func searchPaths(t *testing.T, st *Store, q string) []string {
	t.Helper()
	hits, err := st.SearchSymbols(q, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Symbol.Name+"@"+h.Path)
	}
	return out
}

// The resident name table follows every kind of write: buffer puts,
// removals, and index runs (which rebuild it when many files changed).
func TestSearchFollowsWrites(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.go": "package a\n\nfunc Alpha() {}\nfunc alphaLower() {}\n"})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	ctx := context.Background()
	if got := searchPaths(t, st, "alpha"); !slices.Equal(got, []string{"Alpha@a.go", "alphaLower@a.go"}) {
		t.Fatalf("initial: %v", got)
	}
	if err := st.PutContent(ctx, "a.go", []byte("package a\n\nfunc Beta() {}\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutContent(ctx, "b.go", []byte("package a\n\nfunc AlphaB() {}\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if got := searchPaths(t, st, "alpha"); !slices.Equal(got, []string{"AlphaB@b.go"}) {
		t.Fatalf("after puts: %v", got)
	}
	if err := st.RemovePath("b.go"); err != nil {
		t.Fatal(err)
	}
	if got := searchPaths(t, st, "alpha"); len(got) != 0 {
		t.Fatalf("after remove: %v", got)
	}
	files := map[string]string{}
	for i := range rebuildAbove + 10 {
		files[fmt.Sprintf("m/f%d.go", i)] = fmt.Sprintf("package m\n\nfunc Many%d() {}\n", i)
	}
	fixture.WriteTree(t, root, files)
	mustIndex(t, st, root)
	if got := searchPaths(t, st, "Many2009"); !slices.Equal(got, []string{"Many2009@m/f2009.go"}) {
		t.Fatalf("after a large run: %v", got)
	}
	if got := searchPaths(t, st, "Alpha"); !slices.Equal(got, []string{"Alpha@a.go", "alphaLower@a.go"}) {
		t.Fatalf("disk content after the run: %v", got)
	}
}
