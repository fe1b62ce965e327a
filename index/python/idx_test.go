package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestPyNavigationParsesNothing: on buffers whose content the index holds,
// definitions (across modules, through imports, self and instances) and
// references are answered from the stored descriptors: the tree cache
// stays empty, as no file is parsed, and the answers are the resolver's.
func TestPyNavigationParsesNothing(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("testdata", "resolve_py.txtar"))
	st := indexedStore(t, root)
	read := readUnder(root)
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
		tg, ok := st.PyDefinitions("app/main.py", main, lineOffset(main, c.line)+c.col, read)
		got := "-"
		if ok {
			got = fmt.Sprintf("%s:%d", tg.Path, tg.Selection.Start.Line+1)
		}
		if got != c.want {
			t.Errorf("line %d col %d: got %s, want %s", c.line+1, c.col, got, c.want)
			continue
		}
		if _, err := st.PyReferences(tg, read); err != nil {
			t.Fatal(err)
		}
	}
	// obj in len(obj) (line 21) is run's parameter: a local, which only
	// its own file can refer to.
	if tg, ok := st.PyDefinitions("app/main.py", main, lineOffset(main, 20)+8, read); !ok || tg.Selection.Start.Line != 10 || !tg.Local {
		t.Errorf("obj: %+v %v, want a local of line 11", tg, ok)
	}
	if n := len(st.py.files); n != 0 {
		t.Errorf("parsed %d files: %v", n, st.py.order)
	}
}

// FuzzPyDescriptors indexes arbitrary Python buffers (writing their
// descriptors, resolve_pydesc.go) and answers definitions and references
// from them at a few offsets (resolve_pyidx.go): none may panic or
// fail to index.
func FuzzPyDescriptors(f *testing.F) {
	st, root := fuzzFixtureStore(f, "resolve_py.txtar", 0, "app/main.py", "pkg/models.py", "pkg/util.py")
	f.Add([]byte("from . import *\n__all__ = ['x', \"y\"]\nclass C(C().x):\n  def f(self): self.x.y = global z\n"), 0)
	read := readUnder(root)
	f.Fuzz(func(t *testing.T, src []byte, _ int) {
		if err := st.PutContent(context.Background(), "app/fuzz.py", src, Options{}); err != nil {
			t.Fatal(err)
		}
		for off := 0; off < len(src); off += 1 + len(src)/8 {
			if tg, ok := st.PyDefinitions("app/fuzz.py", src, off, read); ok {
				if _, err := st.PyReferences(tg, read); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
