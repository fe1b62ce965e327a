package python

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestResolvePyFixture indexes testdata/resolve_py.txtar and resolves each
// use its "want" file lists with Definitions.
func TestResolvePyFixture(t *testing.T) {
	navtest.CheckDefinitionFixture(t, "resolve_py.txtar", testDescribers, func(st *index.Store, file string, src []byte, off int, read func(string) ([]byte, error)) string {
		tg, ok := Definitions(st, file, src, off, read)
		switch {
		case !ok:
			return "-"
		case tg.Module:
			return tg.Path
		}
		return fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
	})
}

// TestPyReferencesFixture checks nav.SyntaxReferences and nav.SyntaxFileReferences for
// declarations of testdata/resolve_py.txtar, named by a use ("?" marks
// Uncertain): shadowing parameters, unresolved bare names and other
// classes' members are not references; import lines and aliases' sources
// are.
func TestPyReferencesFixture(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_py.txtar"))
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	for _, c := range []struct{ loc, use, want string }{
		{"pkg/util.py:4", "helper", "app/main.py:4 app/main.py:14 pkg/__init__.py:1 pkg/util.py:4"},
		{"pkg/models.py:4", "save", "app/main.py:17 app/main.py:40 pkg/models.py:4 pkg/models.py:15"},
		{"app/main.py:35", "limit", "app/main.py:32 app/main.py:34 app/main.py:35 app/main.py:37"},
		{"pkg/models.py:8", "User", "app/main.py:5 app/main.py:12 app/main.py:16 app/main.py:39 pkg/models.py:8 pkg/util.py:1"},
		{"pkg/models.py:20", "cls.kind", "pkg/models.py:9 pkg/models.py:20"},
		// frob is x.frob of an unknown x: uncertain, and only there.
		{"app/main.py:22", "obj.frob", "-"},
	} {
		file, src, off, err := navtest.FixtureUse(root, c.loc, c.use)
		if err != nil {
			t.Fatal(err)
		}
		tg, ok := Definitions(st, file, src, off, navtest.ReadUnder(root))
		got := "-"
		if ok {
			refs, err := syntax.References(st, RefsLang, tg, navtest.ReadUnder(root))
			if err != nil {
				t.Fatal(err)
			}
			got = navtest.RefString(refs)
			inFile, err := syntax.FileReferences(st, RefsLang, tg, "app/main.py", navtest.ReadUnder(root))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range strings.Fields(got) {
				if strings.HasPrefix(w, "app/main.py:") {
					want = append(want, w)
				}
			}
			if g := navtest.RefString(inFile); g != strings.Join(want, " ") && !(g == "" && len(want) == 0) {
				t.Errorf("highlights of %s %s in app/main.py: got %s, want %v", c.loc, c.use, g, want)
			}
		}
		if got != c.want {
			t.Errorf("references of %s %s:\n got %s\nwant %s", c.loc, c.use, got, c.want)
		}
	}
}

// FuzzPyResolve feeds arbitrary buffers and cursor offsets to the Python
// resolution the language server runs on the buffer being edited
// (Definitions, then nav.SyntaxFileReferences of what it finds) against the
// fixture's store: none may panic.
func FuzzPyResolve(f *testing.F) {
	st, root := navtest.FuzzFixtureStore(f, "resolve_py.txtar", testDescribers, 150, "app/main.py", "pkg/models.py", "pkg/util.py")
	f.Add([]byte("from . import (\nclass C(C):\n  def f(self): self.x.y"), 40)
	read := navtest.ReadUnder(root)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		if tg, ok := Definitions(st, "app/main.py", src, off, read); ok {
			syntax.FileReferences(st, RefsLang, tg, tg.Path, read)
		}
	})
}

// TestPyDefinitionsSeeEdits: the tree cache is keyed by content, so a
// changed buffer is parsed again rather than answered from the old tree.
func TestPyDefinitionsSeeEdits(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_py.txtar"))
	st := navtest.Open(t, t.TempDir(), testDescribers)
	defer st.Close()
	navtest.MustIndex(t, st, root)
	for i, src := range []string{
		"from pkg.util import helper\nhelper()\n",
		"def helper(): pass\n\n\nhelper()\n",
		"from pkg.util import helper\nhelper()\n",
	} {
		tg, ok := Definitions(st, "app/main.py", []byte(src), len(src)-4, navtest.ReadUnder(root))
		got := fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
		want := []string{"pkg/util.py:4", "app/main.py:1", "pkg/util.py:4"}[i]
		if !ok || got != want {
			t.Errorf("buffer %d: got %s (%v), want %s", i, got, ok, want)
		}
	}
}

// TestPyReferencesUnparsed checks testdata/resolve_py_refs.txtar: the
// references nav.SyntaxReferences answers from descriptors, with no tree cached
// beforehand.
func TestPyReferencesUnparsed(t *testing.T) {
	archive := filepath.Join("testdata", "resolve_py_refs.txtar")
	root := fixture.Extract(t, archive)
	for _, u := range fixture.Uses(t, archive, root) {
		// A store per use: its tree cache must not hold the other
		// files from an earlier query.
		st := navtest.Open(t, t.TempDir(), testDescribers)
		navtest.MustIndex(t, st, root)
		src, err := os.ReadFile(filepath.Join(root, u.File))
		if err != nil {
			t.Fatal(err)
		}
		off, err := index.LineColOffset(src, u.Line, u.Col)
		if err != nil {
			t.Fatal(err)
		}
		tg, ok := Definitions(st, u.File, src, off, navtest.ReadUnder(root))
		if !ok {
			t.Fatalf("%s: not resolved", u)
		}
		refs, err := syntax.References(st, RefsLang, tg, navtest.ReadUnder(root))
		if err != nil {
			t.Fatal(err)
		}
		if got := navtest.RefString(refs); got != u.Want {
			t.Errorf("%s:\n got %s\nwant %s", u, got, u.Want)
		}
		st.Close()
	}
}
