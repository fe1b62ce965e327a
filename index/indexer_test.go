package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/internal/fixture"
)

// bumpMtime moves a file's mtime forward so the change check cannot miss a
// rewrite within the file system's timestamp granularity.
func bumpMtime(t *testing.T, path string) {
	t.Helper()
	future := time.Now().Add(time.Duration(1+len(path)%7) * time.Second)
	if err := os.Chtimes(path, future, future); err != nil {
		t.Fatal(err)
	}
}

func openTestStore(t *testing.T, dir string) *Store {
	t.Helper()
	st, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func mustIndex(t *testing.T, st *Store, root string) *Summary {
	t.Helper()
	sum, err := st.Index(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

const mainGo = `package main

import "fmt"

// Greeter says hello.
type Greeter struct {
	Name string
}

// Greet prints a greeting.
func (g *Greeter) Greet() {
	fmt.Println("hello", g.Name) // TODO: localise
}

func main() {
	g := &Greeter{Name: "x"}
	g.Greet()
}
`

func refPaths(t *testing.T, st *Store, name string) []string {
	t.Helper()
	hits, err := st.References(name, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return slices.Compact(out)
}

func defPaths(t *testing.T, st *Store, name string) []string {
	t.Helper()
	hits, err := st.Definitions(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return out
}

func TestIndexIncremental(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"main.go":      mainGo,
		"util/util.go": "package util\n\n// Helper helps.\nfunc Helper() int { return 1 }\n",
		"README.md":    "# demo\n",
		"data.bin":     "\x00\x01\x02binary",
		".gitignore":   "ignored/\n",
		"ignored/x.go": "package ignored\nfunc Hidden() {}\n",
	})
	st := openTestStore(t, data)
	sum := mustIndex(t, st, root)
	if sum.Files != 5 || sum.Changed != 5 || sum.Unchanged != 0 {
		t.Fatalf("first run: %+v", sum)
	}
	if len(sum.Skipped) != 1 || sum.Skipped[0].Path != "data.bin" || sum.Skipped[0].Reason != "binary" {
		t.Errorf("skipped = %+v", sum.Skipped)
	}
	if got := defPaths(t, st, "Hidden"); len(got) != 0 {
		t.Errorf("ignored file indexed: %v", got)
	}
	if got := defPaths(t, st, "Greet"); !slices.Equal(got, []string{"main.go"}) {
		t.Errorf("defs Greet = %v", got)
	}

	// Unchanged second run.
	if sum = mustIndex(t, st, root); sum.Changed != 0 || sum.Unchanged != 5 {
		t.Fatalf("warm run: %+v", sum)
	}

	// Modify: Helper becomes Assist; the old name must vanish from both
	// the symbol index and the reference index.
	p := filepath.Join(root, "util", "util.go")
	fixture.WriteTree(t, root, map[string]string{"util/util.go": "package util\n\nfunc Assist() int { return 2 }\n"})
	bumpMtime(t, p)
	if sum = mustIndex(t, st, root); sum.Changed != 1 {
		t.Fatalf("after modify: %+v", sum)
	}
	if got := defPaths(t, st, "Helper"); len(got) != 0 {
		t.Errorf("stale definition: %v", got)
	}
	if got := refPaths(t, st, "Helper"); len(got) != 0 {
		t.Errorf("stale references: %v", got)
	}
	if got := defPaths(t, st, "Assist"); !slices.Equal(got, []string{"util/util.go"}) {
		t.Errorf("defs Assist = %v", got)
	}

	// Touch without change: header only, records kept.
	bumpMtime(t, filepath.Join(root, "main.go"))
	if sum = mustIndex(t, st, root); sum.Changed != 1 {
		t.Fatalf("after touch: %+v", sum)
	}
	if got := defPaths(t, st, "Greeter"); !slices.Equal(got, []string{"main.go"}) {
		t.Errorf("defs after touch = %v", got)
	}

	// Rename and delete.
	if err := os.Rename(p, filepath.Join(root, "util", "assist.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "README.md")); err != nil {
		t.Fatal(err)
	}
	if sum = mustIndex(t, st, root); sum.Removed != 2 || sum.Changed != 1 || sum.Files != 4 {
		t.Fatalf("after rename+delete: %+v", sum)
	}
	if got := defPaths(t, st, "Assist"); !slices.Equal(got, []string{"util/assist.go"}) {
		t.Errorf("defs after rename = %v", got)
	}
	if _, ok := st.Header("util/util.go"); ok {
		t.Error("old path still indexed")
	}

	// Reopen from disk: everything persists, nothing needs work.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openTestStore(t, data)
	defer st.Close()
	if sum = mustIndex(t, st, root); sum.Changed != 0 || sum.Files != 4 {
		t.Fatalf("after reopen: %+v", sum)
	}
	if got := refPaths(t, st, "Greet"); !slices.Equal(got, []string{"main.go"}) {
		t.Errorf("refs after reopen = %v", got)
	}
	d, err := st.Detail("main.go")
	if err != nil || len(d.Todos) != 1 || d.Todos[0].Text != "localise" || len(d.Imports) != 1 {
		t.Errorf("detail = %+v, %v", d, err)
	}
}

func TestIndexSkipsLargeFiles(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"big.go":   "package big\n// " + strings.Repeat("x", 9000) + "\nfunc Big() {}\n",
		"small.go": "package big\nfunc Small() {}\n",
		// Go files get goSizeFactor times the limit (go/parser is fast,
		// and generated Go tables matter); other languages do not.
		"gen.go": "package big\n// " + strings.Repeat("x", 2000) + "\nfunc Gen() {}\n",
		"big.py": "# " + strings.Repeat("x", 2000) + "\ndef big_py(): pass\n",
	})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	sum, err := st.Index(context.Background(), root, Options{MaxFileSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Skipped) != 2 || sum.Skipped[0].Path != "big.go" || !strings.HasPrefix(sum.Skipped[0].Reason, "too large") ||
		sum.Skipped[1].Path != "big.py" {
		t.Fatalf("skipped = %+v", sum.Skipped)
	}
	if got := defPaths(t, st, "Gen"); len(got) != 1 {
		t.Errorf("gen.go (2 KB, a Go file under 8x the limit) not parsed: %v", got)
	}
	if h, _ := st.Header("big.go"); h.Size < 9000 || h.Status != StatusSkipped || h.Lang != "go" {
		t.Errorf("big.go header = %+v", h)
	}
	if got := defPaths(t, st, "Big"); len(got) != 0 {
		t.Errorf("large file parsed: %v", got)
	}
}

func TestIndexPartialFile(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"bad.go": "package bad\nfunc Good() {}\nfunc (\n"})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	sum := mustIndex(t, st, root)
	if len(sum.Partial) != 1 || !strings.Contains(sum.Partial[0].Reason, "syntax") {
		t.Fatalf("partial = %+v", sum.Partial)
	}
	if got := defPaths(t, st, "Good"); len(got) != 1 {
		t.Errorf("records of a partial file were dropped: %v", got)
	}
}

func TestStoreLocked(t *testing.T) {
	dir := t.TempDir()
	st := openTestStore(t, dir)
	defer st.Close()
	if _, err := Open(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: err = %v, want ErrLocked", err)
	}
}

func TestStoreSchemaMismatchRebuilds(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.go": "package a\nfunc A() {}\n"})
	st := openTestStore(t, data)
	mustIndex(t, st, root)
	var e encoder
	e.uvarint(schemaVersion + 1)
	if err := st.db.Set(schemaKey, e.b, pebble.NoSync); err != nil {
		t.Fatal(err)
	}
	st.Close()

	st = openTestStore(t, data)
	defer st.Close()
	if st.Rebuilt == "" || len(st.Files()) != 0 {
		t.Fatalf("Rebuilt = %q, files = %d; want a fresh store", st.Rebuilt, len(st.Files()))
	}
	if sum := mustIndex(t, st, root); sum.Files != 1 || sum.Rebuilt == "" {
		t.Fatalf("reindex: %+v", sum)
	}
}

func TestIndexCancelKeepsStoreUsable(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for i := range 200 {
		files[filepath.ToSlash(filepath.Join("p", string(rune('a'+i%26)), "f"+itoa(i)+".go"))] = "package p\nfunc F" + itoa(i) + "() {}\n"
	}
	fixture.WriteTree(t, root, files)
	st := openTestStore(t, data)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := st.Index(ctx, root, Options{Workers: 1, Progress: func(p Progress) {
		if p.Done == 50 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := len(st.Files()); n < 50 || n >= 200 {
		t.Fatalf("after cancel: %d files committed", n)
	}
	st.Close()
	st = openTestStore(t, data)
	defer st.Close()
	if sum := mustIndex(t, st, root); sum.Files != 200 || sum.Unchanged < 50 {
		t.Fatalf("resume: %+v", sum)
	}
}

func itoa(i int) string {
	return strings.TrimLeft(string([]byte{byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)}), "0") + "_"
}

// TestManyReopensDoNotStall guards the manual compaction policy: every
// short-lived process flushes a small table on Close, and without
// compaction those would pile up until Pebble stalled writes forever.
func TestManyReopensDoNotStall(t *testing.T) {
	root, data := t.TempDir(), t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.go": "package a\nfunc A() {}\n"})
	for i := range 3 * maxReadAmp {
		st := openTestStore(t, data)
		p := filepath.Join(root, "a.go")
		fixture.WriteTree(t, root, map[string]string{"a.go": "package a\nfunc A" + itoa(i) + "() {}\n"})
		bumpMtime(t, p)
		mustIndex(t, st, root)
		if ra := st.db.Metrics().ReadAmp(); ra > maxReadAmp+1 {
			t.Fatalf("run %d: read amplification %d", i, ra)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBulkChunks indexes through many small bulk-load chunks, which are
// ingested as overlapping tables, and checks every file is queryable.
func TestBulkChunks(t *testing.T) {
	defer func(n int) { bulkChunkBytes = n }(bulkChunkBytes)
	bulkChunkBytes = 1 << 10
	root, data := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for i := range 120 {
		files["d/f"+itoa(i)+".go"] = "package d\n\n// Fn" + itoa(i) + " calls Shared.\nfunc Fn" + itoa(i) + "() { Shared() }\n"
	}
	fixture.WriteTree(t, root, files)
	st := openTestStore(t, data)
	if sum := mustIndex(t, st, root); sum.Files != 120 || sum.Symbols != 120 {
		t.Fatalf("summary: %+v", sum)
	}
	st.Close()
	st = openTestStore(t, data)
	defer st.Close()
	for _, i := range []int{0, 57, 119} {
		if got := defPaths(t, st, "Fn"+itoa(i)); len(got) != 1 {
			t.Errorf("defs Fn%s = %v", itoa(i), got)
		}
	}
	if got := refPaths(t, st, "Shared"); len(got) != 120 {
		t.Errorf("refs Shared in %d files, want 120", len(got))
	}
	if ra := st.db.Metrics().ReadAmp(); ra > maxReadAmp {
		t.Errorf("read amplification %d after bulk load", ra)
	}
}

// TestOptInLanguage checks that Swift files are listed as skipped until the
// language is enabled, and are extracted on the next run once it is, even
// though the file did not change.
func TestOptInLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("loading the Swift grammar takes seconds")
	}
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.swift": "func greet() { print(\"hi\") }\n"})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	sum := mustIndex(t, st, root)
	if len(sum.Skipped) != 1 || !strings.Contains(sum.Skipped[0].Reason, "--enable-lang swift") {
		t.Fatalf("skipped = %+v", sum.Skipped)
	}
	// The first Swift parse can take longer than the default 250 ms budget
	// on a loaded machine; the budget is not what this test is about.
	sum, err := st.Index(context.Background(), root, Options{EnableLanguages: []string{"swift"}, Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Changed != 1 || len(sum.Skipped) != 0 || sum.Symbols != 1 {
		t.Fatalf("after enabling: %+v", sum)
	}
	if sum = mustIndex(t, st, root); sum.Changed != 1 || len(sum.Skipped) != 1 {
		t.Fatalf("after disabling again: %+v", sum)
	}
}

// TestWriterPut drives the single-file write path: replace a file's
// records twice within one batch, then delete it.
func TestWriterPut(t *testing.T) {
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	update := func(fn string) *FileUpdate {
		return &FileUpdate{
			Header: FileHeader{Path: "x.go", Lang: "go", Size: 10},
			Result: &extract.Result{
				Symbols: []extract.Symbol{{Name: fn, Kind: extract.KindFunction, Parent: -1}},
				Refs:    []extract.Ref{{Name: fn}, {Name: "shared", Pos: extract.Pos{Line: 1}}},
			},
		}
	}
	w := st.NewWriter()
	if err := w.Put(update("First")); err != nil {
		t.Fatal(err)
	}
	if err := w.Put(update("Second")); err != nil { // same path, same batch
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := defPaths(t, st, "First"); len(got) != 0 {
		t.Errorf("replaced symbol still found: %v", got)
	}
	if got := refPaths(t, st, "First"); len(got) != 0 {
		t.Errorf("replaced reference still found: %v", got)
	}
	if got := defPaths(t, st, "Second"); !slices.Equal(got, []string{"x.go"}) {
		t.Errorf("defs Second = %v", got)
	}
	if occ, err := st.FileReferences("x.go", "shared"); err != nil || len(occ) != 1 || occ[0].Pos.Line != 1 {
		t.Errorf("FileReferences = %v, %v", occ, err)
	}
	w = st.NewWriter()
	if err := w.Delete("x.go"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := refPaths(t, st, "shared"); len(got) != 0 || len(st.Files()) != 0 {
		t.Errorf("after delete: refs %v, %d files", got, len(st.Files()))
	}
}

// TestExtractCancelledIsNotRecorded: a file whose extraction is cut short
// by cancellation must not be stored as partial, or the next run would
// skip it as unchanged and keep the cancellation as its state.
func TestExtractCancelledIsNotRecorded(t *testing.T) {
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	u := &FileUpdate{Header: FileHeader{Path: "a.go"}}
	if st.extractInto(ctx, u, []byte("package a\nfunc A() {}\n"), Options{}) {
		t.Fatalf("cancelled extraction reported as done: %+v", u)
	}
}

func TestIsASCII(t *testing.T) {
	long := strings.Repeat("abcdefgh", 5)
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"", true},
		{"package x\n", true},
		{long, true},
		{long + "é", false},                // in the tail
		{"é" + long, false},                // in the first word
		{long[:13] + "\x80" + long, false}, // inside a later word
		{"\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", true},
	} {
		if got := isASCII([]byte(tc.in)); got != tc.want {
			t.Errorf("isASCII(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
