// package navtest holds what the tests of the name resolvers (index/python,
// index/typescript, index/locals, index/nav) share: stores indexed from
// the txtar fixtures of testdata/ with the describers a test names, the
// fixtures' "want" files and uses, and the golden check of descriptors.
// It is imported by tests only.
package navtest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/internal/fixture"
)

// Describers are a test's index-time describers (index.Config).
type Describers = map[string]extract.Annotator

// Open opens a store in dir with the describers d; the test must close
// it.
func Open(t testing.TB, dir string, d Describers) *index.Store {
	t.Helper()
	st, err := index.OpenConfig(dir, index.Config{Describers: d})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// MustIndex indexes root into st.
func MustIndex(t testing.TB, st *index.Store, root string) *index.Summary {
	t.Helper()
	sum, err := st.Index(context.Background(), root, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// IndexedStore opens a store of its own, closed with the test, and
// indexes root into it.
func IndexedStore(t testing.TB, root string, d Describers) *index.Store {
	t.Helper()
	st := Open(t, t.TempDir(), d)
	t.Cleanup(func() { st.Close() })
	MustIndex(t, st, root)
	return st
}

// FuzzFixtureStore indexes testdata/archive into a store closed with the
// fuzz test and seeds f with each of files at offset off.
func FuzzFixtureStore(f *testing.F, archive string, d Describers, off int, files ...string) (*index.Store, string) {
	root := fixture.Extract(f, filepath.Join("testdata", archive))
	st := IndexedStore(f, root, d)
	for _, name := range files {
		src, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, off)
	}
	return st, root
}

// ReadUnder reads root-relative files under root.
func ReadUnder(root string) func(string) ([]byte, error) {
	return func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))) }
}

// CheckDefinitionFixture indexes testdata/archive and checks each line of
// its "want" file, `path:line:col use -> answer`, against what resolve
// answers for that use ("-": nothing).
func CheckDefinitionFixture(t *testing.T, archive string, d Describers, resolve func(st *index.Store, file string, src []byte, off int, read func(string) ([]byte, error)) string) {
	t.Helper()
	archive = filepath.Join("testdata", archive)
	root := fixture.Extract(t, archive)
	st := Open(t, t.TempDir(), d)
	defer st.Close()
	MustIndex(t, st, root)
	for _, line := range FixtureWant(t, archive) {
		use, want, ok := strings.Cut(line, " -> ")
		if !ok {
			t.Fatalf("malformed want line %q", line)
		}
		loc, text, _ := strings.Cut(use, " ")
		file, src, off, err := FixtureUse(root, loc, text)
		if err != nil {
			t.Errorf("%s: %v", line, err)
			continue
		}
		if got := resolve(st, file, src, off, ReadUnder(root)); got != want {
			t.Errorf("%s %s: got %s, want %s", loc, text, got, want)
		}
	}
}

// FixtureWant returns the lines of the archive's "want" file.
func FixtureWant(t testing.TB, archive string) []string {
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

// FixtureUse reads the file of loc ("file:line", 1-based) and returns the
// byte offset of the last identifier of text on that line.
func FixtureUse(root, loc, text string) (file string, src []byte, off int, err error) {
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

// RefString lists refs as "path:line" (1-based), "?" marking Uncertain.
func RefString(refs []index.RefHit) string {
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

// LineOffset is the byte offset of 0-based line n of src.
func LineOffset(src []byte, n int) int {
	off := 0
	for ; n > 0; n-- {
		off += bytes.IndexByte(src[off:], '\n') + 1
	}
	return off
}
