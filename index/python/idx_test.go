package python

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/internal/navtest"
	"github.com/parleyhq/parley/index/syntax"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestPyNavigationParsesNothing: on buffers whose content the index holds,
// definitions (across modules, through imports, self and instances) and
// references are answered from the stored descriptors: the tree cache
// stays empty, as no file is parsed, and the answers are the resolver's.
func TestPyNavigationParsesNothing(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_py.txtar"))
	st := navtest.IndexedStore(t, root, testDescribers)
	read := navtest.ReadUnder(root)
	main, err := os.ReadFile(filepath.Join(root, "app", "main.py"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		line int // 0-based
		col  int
		want string
	}{
		{16, 6, "pkg/models.py:4"}, // u.save: an instance of an imported class
		{45, 4, "pkg/star.py:1"},   // star_fn: through `from pkg.star import *`
		{11, 6, "pkg/models.py:8"}, // m.User: a module alias's member
	} {
		tg, ok := Definitions(st, "app/main.py", main, navtest.LineOffset(main, c.line)+c.col, read)
		got := "-"
		if ok {
			got = fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
		}
		if got != c.want {
			t.Errorf("line %d col %d: got %s, want %s", c.line+1, c.col, got, c.want)
			continue
		}
		if _, err := syntax.References(st, RefsLang, tg, read); err != nil {
			t.Fatal(err)
		}
	}
	// obj in len(obj) (line 21) is run's parameter: a local, which only
	// its own file can refer to.
	if tg, ok := Definitions(st, "app/main.py", main, navtest.LineOffset(main, 20)+8, read); !ok || tg.Selection.Start.Line != 10 || !tg.Local {
		t.Errorf("obj: %+v %v, want a local of line 11", tg, ok)
	}
	if n := len(syntax.CacheOf(st).Keys()); n != 0 {
		t.Errorf("parsed %d files: %v", n, syntax.CacheOf(st).Keys())
	}
}

// FuzzPyDescriptors indexes arbitrary Python buffers (writing their
// descriptors, describe.go) and answers definitions and references
// from them at a few offsets (idx.go): none may panic or
// fail to index.
func FuzzPyDescriptors(f *testing.F) {
	st, root := navtest.FuzzFixtureStore(f, "resolve_py.txtar", testDescribers, 0, "app/main.py", "pkg/models.py", "pkg/util.py")
	f.Add([]byte("from . import *\n__all__ = ['x', \"y\"]\nclass C(C().x):\n  def f(self): self.x.y = global z\n"), 0)
	read := navtest.ReadUnder(root)
	f.Fuzz(func(t *testing.T, src []byte, _ int) {
		if err := st.PutContent(context.Background(), "app/fuzz.py", src, index.Options{}); err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(src); off += 1 + len(src)/8 {
			if tg, ok := Definitions(st, "app/fuzz.py", src, off, read); ok {
				if _, err := syntax.References(st, RefsLang, tg, read); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
