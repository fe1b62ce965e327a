package nav

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/index/python"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestWarmSyntax: warming an edited buffer parses it and the modules its
// imports lead to into the tree cache, so that a resolution in it parses
// nothing; a cancelled store warms nothing, nor does a buffer the index
// holds (its requests are answered from descriptors).
func TestWarmSyntax(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "python", "testdata", "resolve_py.txtar"))
	st := navtest.IndexedStore(t, root, testDescribers)
	src, err := os.ReadFile(filepath.Join(root, "app", "main.py"))
	if err != nil {
		t.Fatal(err)
	}
	if got := WarmSyntax(st, "app/main.py", src, navtest.ReadUnder(root)); len(got) != 0 {
		t.Errorf("warmed the indexed content: %v", got)
	}
	src = append(src, "# edited\n"...)

	CancelResolutions(st)
	if got := WarmSyntax(st, "app/main.py", src, navtest.ReadUnder(root)); len(got) != 0 {
		t.Errorf("warmed while cancelled: %v", got)
	}
	ResumeResolutions(st)

	got := WarmSyntax(st, "app/main.py", src, navtest.ReadUnder(root))
	want := []string{"app/main.py", "pkg/models.py", "pkg/__init__.py", "pkg/util.py", "pkg/star.py", "app/sibling.py"}
	if !slices.Equal(got, want) {
		t.Errorf("warmed %v, want %v", got, want)
	}
	for _, rel := range want {
		if _, ok := syntax.CacheOf(st).Cached("python:" + rel); !ok {
			t.Errorf("%s not in the tree cache", rel)
		}
	}
	// Everything u.save (line 17) needs is cached: resolving it parses
	// nothing.
	before := len(syntax.CacheOf(st).Keys())
	tg, ok := python.Definitions(st, "app/main.py", src, navtest.LineOffset(src, 16)+6, navtest.ReadUnder(root))
	if after := len(syntax.CacheOf(st).Keys()); !ok || tg.Path != "pkg/models.py" || after != before {
		t.Errorf("u.save after warming: %v %v, %d trees cached, %d before; want pkg/models.py, none parsed", tg, ok, after, before)
	}
	if got := WarmSyntax(st, "notes.txt", []byte("x"), navtest.ReadUnder(root)); got != nil {
		t.Errorf("warmed a text file: %v", got)
	}
}

// TestPyReferencesCancelled: a references resolution cancelled before it
// starts judges no file, even those it would judge without parsing, so
// that a late one frees the store for the request that cancelled it.
func TestPyReferencesCancelled(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "python", "testdata", "resolve_py.txtar"))
	st := navtest.IndexedStore(t, root, testDescribers)
	src, err := os.ReadFile(filepath.Join(root, "pkg", "util.py"))
	if err != nil {
		t.Fatal(err)
	}
	tg, ok := python.Definitions(st, "pkg/util.py", src, navtest.LineOffset(src, 3)+5, navtest.ReadUnder(root))
	if !ok || tg.Name != "helper" {
		t.Fatalf("helper not resolved: %v %v", tg, ok)
	}
	gen := ResolveGen(st)
	CancelResolutions(st)
	refs, err := SyntaxReferences(st, tg, navtest.ReadUnder(root))
	ResumeResolutions(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 0 || !CancelledSince(st, gen) {
		t.Errorf("cancelled references judged %d occurrences: %v", len(refs), refs)
	}
	if refs, err := SyntaxReferences(st, tg, navtest.ReadUnder(root)); err != nil || len(refs) != 4 {
		t.Errorf("references once resumed: %v, %v; want 4", refs, err)
	}
}

// TestPyReferencesParseFits: a references query parses no other file,
// being answered from descriptors.
func TestPyReferencesParseFits(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "python", "testdata", "resolve_py.txtar"))
	st := navtest.IndexedStore(t, root, testDescribers)
	src, err := os.ReadFile(filepath.Join(root, "pkg", "util.py"))
	if err != nil {
		t.Fatal(err)
	}
	tg, ok := python.Definitions(st, "pkg/util.py", src, navtest.LineOffset(src, 3)+5, navtest.ReadUnder(root))
	if !ok || tg.Name != "helper" {
		t.Fatalf("helper not resolved: %v %v", tg, ok)
	}
	before := len(syntax.CacheOf(st).Keys())
	refs, err := SyntaxReferences(st, tg, navtest.ReadUnder(root))
	if err != nil {
		t.Fatal(err)
	}
	if len(syntax.CacheOf(st).Keys()) != before {
		t.Errorf("parsed %d files: %v", len(syntax.CacheOf(st).Keys())-before, syntax.CacheOf(st).Keys())
	}
	// app/main.py's import and call, unparsed; the parameter helper of
	// inner is one of them, as the unparsed judgement cannot tell.
	if len(refs) < 4 {
		t.Errorf("references judged unparsed: %v", refs)
	}
}

// TestPyReferencesWalled: resolving the occurrences parses no module the
// deadline has no time for (d.py, X's other base; with descriptors, none),
// and the occurrence still resolves to its declaration.
func TestPyReferencesWalled(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"a.py": "class Base:\n    def save(self): pass\n",
		"d.py": "class Mixin:\n    pass\n",
		"c.py": "from a import Base\nfrom d import Mixin\n\nclass X(Mixin, Base):\n    def f(self):\n        self.save()\n",
	})
	st := navtest.IndexedStore(t, root, testDescribers)
	read := navtest.ReadUnder(root)
	a, _ := read("a.py")
	tg, ok := python.Definitions(st, "a.py", a, navtest.LineOffset(a, 1)+8, read)
	if !ok || tg.Name != "save" {
		t.Fatalf("save not resolved: %v %v", tg, ok)
	}
	// X at its class line resolves within c.py: its tree is cached,
	// d.py's is not.
	c, _ := read("c.py")
	if x, ok := python.Definitions(st, "c.py", c, navtest.LineOffset(c, 3)+6, read); !ok || x.Path != "c.py" {
		t.Fatalf("X: %v %v", x, ok)
	}
	if _, ok := syntax.CacheOf(st).Cached("python:d.py"); ok {
		t.Fatal("d.py parsed before the query")
	}
	got := walledReferences(t, st, tg, read)
	want := []string{"a.py:2:8 uncertain=false", "c.py:6:13 uncertain=false"}
	if !slices.Equal(got, want) {
		t.Errorf("references of Base.save: %v, want %v", got, want)
	}
}

// walledReferences answers tg's references, checks that d.py was not
// parsed for them, and lists them
// as "path:line:col uncertain=…" (line 1-based, column 0-based bytes).
func walledReferences(t *testing.T, st *index.Store, tg syntax.Target, read syntax.SourceReader) []string {
	t.Helper()
	refs, err := SyntaxReferences(st, tg, read)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := syntax.CacheOf(st).Cached("python:d.py"); ok {
		t.Error("d.py parsed for references")
	}
	var got []string
	for _, h := range refs {
		got = append(got, fmt.Sprintf("%s:%d:%d uncertain=%v", h.Path, h.Pos.Line+1, h.Pos.Col, h.Uncertain))
	}
	return got
}

// TestPyReferencesWalledImport: an import that leads through a module
// the deadline leaves unparsed is kept, not dropped: `from d import helper
// as h2` with d re-exporting a.helper (its descriptor says so).
func TestPyReferencesWalledImport(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"a.py": "def helper(): pass\n",
		"d.py": "from a import helper\n",
		"c.py": "from a import helper\nfrom d import helper as h2\nhelper()\n",
	})
	st := navtest.IndexedStore(t, root, testDescribers)
	read := navtest.ReadUnder(root)
	c, _ := read("c.py")
	tg, ok := python.Definitions(st, "c.py", c, navtest.LineOffset(c, 2)+1, read)
	if !ok || tg.Path != "a.py" {
		t.Fatalf("helper not resolved: %v %v", tg, ok)
	}
	if _, ok := syntax.CacheOf(st).Cached("python:d.py"); ok {
		t.Fatal("d.py parsed before the query")
	}
	got := walledReferences(t, st, tg, read)
	want := []string{"a.py:1:4 uncertain=false", "c.py:1:14 uncertain=false", "c.py:2:14 uncertain=false", "c.py:3:0 uncertain=false", "d.py:1:14 uncertain=false"}
	if !slices.Equal(got, want) {
		t.Errorf("references of helper:\n got %v\nwant %v", got, want)
	}
}

// TestTSWarmSyntax: a TypeScript buffer whose content the index holds is
// not warmed (its requests read descriptors); an edited one is parsed,
// with the modules it imports.
func TestTSWarmSyntax(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "typescript", "testdata", "resolve_ts.txtar"))
	st := navtest.IndexedStore(t, root, testDescribers)
	src, err := os.ReadFile(filepath.Join(root, "src", "app.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if got := WarmSyntax(st, "src/app.ts", src, navtest.ReadUnder(root)); got != nil {
		t.Errorf("warmed the indexed content: %v", got)
	}
	src = append(src, "// edited\n"...)
	if got := WarmSyntax(st, "src/app.ts", src, navtest.ReadUnder(root)); len(got) == 0 || got[0] != "src/app.ts" {
		t.Errorf("warmed %v for an edited buffer, want src/app.ts first", got)
	}
}

// testDescribers are the describers the tests index with.
var testDescribers = Describers()
