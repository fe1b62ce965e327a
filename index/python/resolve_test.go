package index

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestResolvePyFixture indexes testdata/resolve_py.txtar and resolves each
// use its "want" file lists with PyDefinitions.
func TestResolvePyFixture(t *testing.T) {
	checkDefinitionFixture(t, "resolve_py.txtar", func(st *Store, file string, src []byte, off int, read func(string) ([]byte, error)) string {
		tg, ok := st.PyDefinitions(file, src, off, read)
		switch {
		case !ok:
			return "-"
		case tg.Module:
			return tg.Path
		}
		return fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
	})
}

// checkDefinitionFixture indexes testdata/archive and checks each line of
// its "want" file, `path:line:col use -> answer`, against what resolve
// answers for that use ("-": nothing).
func checkDefinitionFixture(t *testing.T, archive string, resolve func(st *Store, file string, src []byte, off int, read func(string) ([]byte, error)) string) {
	t.Helper()
	archive = filepath.Join("testdata", archive)
	root := fixture.Extract(t, archive)
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	for _, line := range fixtureWant(t, archive) {
		use, want, ok := strings.Cut(line, " -> ")
		if !ok {
			t.Fatalf("malformed want line %q", line)
		}
		loc, text, _ := strings.Cut(use, " ")
		file, src, off, err := fixtureUse(root, loc, text)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if got := resolve(st, file, src, off, readUnder(root)); got != want {
			t.Errorf("%s %s: got %s, want %s", loc, text, got, want)
		}
	}
}

func readUnder(root string) func(string) ([]byte, error) {
	return func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))) }
}

// fixtureWant returns the lines of the archive's "want" file.
func fixtureWant(t testing.TB, archive string) []string {
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "want" {
			return strings.Split(strings.TrimSpace(string(f.Data)), "\n")
		}
	}
	t.Fatalf("%s has no want file", archive)
	return nil
}

// fixtureUse reads the file of loc ("file:line", 1-based) and returns the
// byte offset of the last identifier of text on that line.
func fixtureUse(root, loc, text string) (file string, src []byte, off int, err error) {
	file, lineStr, _ := strings.Cut(loc, ":")
	var line int
	fmt.Sscanf(lineStr, "%d", &line)
	src, err = os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return "", nil, 0, err
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	if line < 1 || line > len(lines) {
		return "", nil, 0, fmt.Errorf("no line %d", line)
	}
	col := bytes.Index(lines[line-1], []byte(text))
	if col < 0 {
		return "", nil, 0, fmt.Errorf("%q not on line %d: %q", text, line, lines[line-1])
	}
	return file, src, len(bytes.Join(lines[:line-1], nil)) + col + len(text) - 1, nil
}

// TestPyReferencesFixture checks PyReferences and PyFileReferences for
// declarations of testdata/resolve_py.txtar, named by a use ("?" marks
// Uncertain): shadowing parameters, unresolved bare names and other
// classes' members are not references; import lines and aliases' sources
// are.
func TestPyReferencesFixture(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_py.txtar"))
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	for _, c := range []struct{ loc, use, want string }{
		{"pkg/util.py:4", "helper", "app/main.py:4 app/main.py:14 pkg/__init__.py:1 pkg/util.py:4"},
		{"pkg/models.py:4", "save", "app/main.py:17 app/main.py:40 pkg/models.py:4 pkg/models.py:15"},
		{"app/main.py:35", "limit", "app/main.py:32 app/main.py:34 app/main.py:35 app/main.py:37"},
		{"pkg/models.py:8", "User", "app/main.py:5 app/main.py:12 app/main.py:16 app/main.py:39 pkg/models.py:8 pkg/util.py:1"},
		{"pkg/models.py:20", "cls.kind", "pkg/models.py:9 pkg/models.py:20"},
		// frob is x.frob of an unknown x: uncertain, and only there.
		{"app/main.py:22", "obj.frob", "-"},
	} {
		file, src, off, err := fixtureUse(root, c.loc, c.use)
		if err != nil {
			t.Fatal(err)
		}
		tg, ok := st.PyDefinitions(file, src, off, readUnder(root))
		got := "-"
		if ok {
			refs, err := st.PyReferences(tg, readUnder(root))
			if err != nil {
				t.Fatal(err)
			}
			got = refString(refs)
			inFile, err := st.PyFileReferences(tg, "app/main.py", readUnder(root))
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range strings.Fields(got) {
				if strings.HasPrefix(w, "app/main.py:") {
					want = append(want, w)
				}
			}
			if g := refString(inFile); g != strings.Join(want, " ") && !(g == "" && len(want) == 0) {
				t.Errorf("highlights of %s %s in app/main.py: got %s, want %v", c.loc, c.use, g, want)
			}
		}
		if got != c.want {
			t.Errorf("references of %s %s:\n got %s\nwant %s", c.loc, c.use, got, c.want)
		}
	}
}

func refString(refs []RefHit) string {
	var out []string
	for _, r := range refs {
		s := fmt.Sprintf("%s:%d", r.Path, r.Pos.Line+1)
		if r.Uncertain {
			s += "?"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// FuzzPyResolve feeds arbitrary buffers and cursor offsets to the Python
// resolution the language server runs on the buffer being edited
// (PyDefinitions, then PyFileReferences of what it finds) against the
// fixture's store: none may panic.
func FuzzPyResolve(f *testing.F) {
	st, root := fuzzFixtureStore(f, "resolve_py.txtar", 150, "app/main.py", "pkg/models.py", "pkg/util.py")
	f.Add([]byte("from . import (\nclass C(C):\n  def f(self): self.x.y"), 40)
	read := readUnder(root)
	f.Fuzz(func(t *testing.T, src []byte, off int) {
		if tg, ok := st.PyDefinitions("app/main.py", src, off, read); ok {
			st.PyFileReferences(tg, tg.Path, read)
		}
	})
}

// TestPyDefinitionsSeeEdits: the tree cache is keyed by content, so a
// changed buffer is parsed again rather than answered from the old tree.
func TestPyDefinitionsSeeEdits(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_py.txtar"))
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	for i, src := range []string{
		"from pkg.util import helper\nhelper()\n",
		"def helper(): pass\n\n\nhelper()\n",
		"from pkg.util import helper\nhelper()\n",
	} {
		tg, ok := st.PyDefinitions("app/main.py", []byte(src), len(src)-4, readUnder(root))
		got := fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
		want := []string{"pkg/util.py:4", "app/main.py:1", "pkg/util.py:4"}[i]
		if !ok || got != want {
			t.Errorf("buffer %d: got %s (%v), want %s", i, got, ok, want)
		}
	}
}

// TestPyReferencesUnparsed checks testdata/resolve_py_refs.txtar: the
// references PyReferences answers from descriptors, with no tree cached
// beforehand.
func TestPyReferencesUnparsed(t *testing.T) {
	archive := filepath.Join("testdata", "resolve_py_refs.txtar")
	root := fixture.Extract(t, archive)
	for _, u := range fixture.Uses(t, archive, root) {
		// A store per use: its tree cache must not hold the other
		// files from an earlier query.
		st := openTestStore(t, t.TempDir())
		mustIndex(t, st, root)
		src, err := os.ReadFile(filepath.Join(root, u.File))
		if err != nil {
			t.Fatal(err)
		}
		off, err := LineColOffset(src, u.Line, u.Col)
		if err != nil {
			t.Fatal(err)
		}
		tg, ok := st.PyDefinitions(u.File, src, off, readUnder(root))
		if !ok {
			t.Fatalf("%s: not resolved", u)
		}
		refs, err := st.PyReferences(tg, readUnder(root))
		if err != nil {
			t.Fatal(err)
		}
		if got := refString(refs); got != u.Want {
			t.Errorf("%s:\n got %s\nwant %s", u, got, u.Want)
		}
		st.Close()
	}
}
