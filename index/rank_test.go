package index

import (
	"errors"
	"slices"
	"testing"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/internal/fixture"
)

func imports(paths ...string) []extract.Import {
	out := make([]extract.Import, len(paths))
	for i, p := range paths {
		out[i] = extract.Import{Path: p, Line: uint32(i)}
	}
	return out
}

func TestDefinitionRank(t *testing.T) {
	for _, c := range []struct {
		name    string
		from    string
		imports []string
		target  string
		want    DefinitionRank
	}{
		{"same file", "pkg/a.go", nil, "pkg/a.go", RankSameFile},
		{"same directory", "pkg/a.go", nil, "pkg/b.go", RankSameDir},
		{"root directory", "main.go", nil, "util.go", RankSameDir},
		{"subdirectory is elsewhere", "pkg/a.go", nil, "pkg/sub/b.go", RankElsewhere},
		{"import path naming the directory", "cmd/main.go", []string{"lib/util"}, "lib/util/u.go", RankImported},
		{"import of another directory", "cmd/main.go", []string{"lib/util"}, "lib/other/u.go", RankElsewhere},
		{"import, partial element", "cmd/main.go", []string{"util"}, "lib/myutil/u.go", RankElsewhere},
		{"relative js import", "web/src/app.ts", []string{"./lib/fmt"}, "web/src/lib/fmt.ts", RankImported},
		{"relative js parent import", "web/src/app.ts", []string{"../shared"}, "web/shared/index.ts", RankImported},
		// These were RankElsewhere: the import was only matched as a
		// suffix of the target, never the target's directory as a suffix
		// of the import (Go module paths) nor the file with its extension.
		{"go module import path", "cmd/main.go", []string{"example.com/m/lib/util"}, "lib/util/u.go", RankImported},
		{"go module import of the parent", "cmd/main.go", []string{"example.com/m/lib"}, "lib/util/u.go", RankElsewhere},
		{"go module import, partial element", "cmd/main.go", []string{"example.com/m/myutil"}, "lib/util/u.go", RankElsewhere},
		{"go import cannot name a root file by suffix", "cmd/main.go", []string{"example.com/m"}, "root.go", RankElsewhere},
		{"quoted c include", "src/main.c", []string{`"util/str.h"`}, "include/util/str.h", RankImported},
		{"relative import with extension", "web/src/app.js", []string{"../lib/lib.js"}, "web/lib/lib.js", RankImported},
		{"relative import does not match by directory suffix", "web/src/app.js", []string{"./lib"}, "lib/x.js", RankElsewhere},
		{"c include without extension match", "src/main.c", []string{"<util/str>"}, "include/util/str.h", RankImported},
		{"python dotted module", "app/main.py", []string{"pkg.helpers"}, "pkg/helpers.py", RankImported},
		{"java class", "src/Main.java", []string{"com.acme.Widget"}, "src/com/acme/Widget.java", RankImported},
		{"rust crate path", "src/main.rs", []string{"crate::net::conn"}, "src/net/conn.rs", RankImported},
		{"empty import", "a.go", []string{""}, "b/c.go", RankElsewhere},
		{"no starting file", "", []string{"x"}, "x/y.go", RankElsewhere},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := NewDefinitionContext(c.from, imports(c.imports...))
			if got := ctx.Rank(c.target); got != c.want {
				t.Errorf("Rank(%s) from %s importing %q = %d, want %d", c.target, c.from, c.imports, got, c.want)
			}
		})
	}
}

func TestSortDefinitions(t *testing.T) {
	ctx := NewDefinitionContext("app/main.go", imports("lib"))
	for _, c := range []struct {
		name     string
		ctx      DefinitionContext
		in, want []string
		best     int
	}{
		{"by rank, then the given order", ctx,
			[]string{"a/x.go", "app/helper.go", "app/main.go", "lib/l.go", "lib/m.go", "z/x.go"},
			[]string{"app/main.go", "app/helper.go", "lib/l.go", "lib/m.go", "a/x.go", "z/x.go"}, 1},
		{"best class of two", ctx,
			[]string{"b.go", "lib/a.go", "lib/b.go"},
			[]string{"lib/a.go", "lib/b.go", "b.go"}, 2},
		{"no starting file keeps the order", DefinitionContext{},
			[]string{"b.go", "a.go", "app/main.go"},
			[]string{"b.go", "a.go", "app/main.go"}, 3},
		{"empty", ctx, nil, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := slices.Clone(c.in)
			best := SortDefinitions(got, c.ctx.Rank)
			if !slices.Equal(got, c.want) || best != c.best {
				t.Errorf("SortDefinitions(%q) = %q, best %d; want %q, best %d", c.in, got, best, c.want, c.best)
			}
		})
	}
}

// DefinitionContext reads the file's imports from the store; a file the
// store does not know still ranks by path.
func TestStoreDefinitionContext(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"app/main.py": "import lib.util\n\nlib.util.run()\n",
		"lib/util.py": "def run():\n    pass\n",
	})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	ctx, err := st.DefinitionContext("app/main.py")
	if err != nil {
		t.Fatal(err)
	}
	if r := ctx.Rank("lib/util.py"); r != RankImported {
		t.Errorf("lib/util.py from app/main.py: rank %d, want RankImported", r)
	}
	ctx, err = st.DefinitionContext("app/new.py")
	if !errors.Is(err, ErrNotIndexed) {
		t.Errorf("unindexed file: err = %v, want ErrNotIndexed", err)
	}
	if r := ctx.Rank("app/main.py"); r != RankSameDir {
		t.Errorf("app/main.py from unindexed app/new.py: rank %d, want RankSameDir", r)
	}
}
