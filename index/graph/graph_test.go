package graph

import (
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"sync"
	"testing"

	"github.com/parleyhq/parley/index/extract"
)

// src is a test file: path, language, package and imports (line = index).
func src(path, lang, pkg string, imports ...string) File {
	f := File{Path: path, Lang: lang, Package: pkg}
	for i, p := range imports {
		f.Imports = append(f.Imports, extract.Import{Path: p, Line: uint32(i)})
	}
	return f
}

// build builds a graph over files plus one unparsed file per config entry,
// with readFile served from configs.
func build(files []File, configs map[string]string) *Graph {
	return buildEnv(files, configs, Env{})
}

// buildEnv is build with manifests outside the root.
func buildEnv(files []File, configs map[string]string, env Env) *Graph {
	all := append([]File(nil), files...)
	for p := range configs {
		all = append(all, File{Path: p})
	}
	return Build(all, func(rel string) ([]byte, error) {
		if s, ok := configs[rel]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}, env)
}

// rc is one resolution expectation: file from importing imp resolves to to
// (a directory unit when dir), or stays unresolved with External == ext.
type rc struct {
	from, imp, to string
	dir, ext      bool
}

func checkResolve(t *testing.T, g *Graph, cases []rc) {
	t.Helper()
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s:%s", c.from, c.imp), func(t *testing.T) {
			var got *Edge
			for _, e := range g.Deps(c.from) {
				if e.Import == c.imp {
					got = &e
					break
				}
			}
			if got == nil {
				t.Fatalf("no edge for %q in %+v", c.imp, g.Deps(c.from))
			}
			want := Edge{From: c.from, Import: c.imp, Line: got.Line, To: c.to,
				ToDir: c.dir, Resolved: c.to != "", External: c.ext}
			if *got != want {
				t.Errorf("got  %+v\nwant %+v", *got, want)
			}
		})
	}
}

func goFiles() []File {
	return []File{
		src("cmd/app/main.go", "go", "main", "fmt", "example.com/m/lib", "example.com/m/lib/sub"),
		src("lib/a.go", "go", "lib", "example.com/m/lib/sub", "strings"),
		src("lib/b.go", "go", "lib", "example.com/m/lib/sub"),
		src("lib/lib_test.go", "go", "lib_test", "example.com/m/lib", "testing"),
		src("lib/sub/s.go", "go", "sub"),
		src("lib/sub/s_test.go", "go", "sub", "example.com/m/lib/sub"),
	}
}

func TestDepsInLineOrder(t *testing.T) {
	f := File{Path: "a.py", Lang: "python", Imports: []extract.Import{
		{Path: "os", Line: 5}, {Path: "sys", Line: 1}, {Path: "re", Line: 3},
	}}
	g := build([]File{f}, nil)
	var got []string
	for _, e := range g.Deps("a.py") {
		got = append(got, e.Import)
	}
	if want := []string{"sys", "re", "os"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Deps order = %v, want %v", got, want)
	}
	if g.Deps("missing.py") != nil {
		t.Error("Deps of unknown file should be nil")
	}
}

func TestDependents(t *testing.T) {
	g := build(goFiles(), map[string]string{"go.mod": "module example.com/m\n"})
	froms := func(es []Edge) []string {
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%s:%d", e.From, e.Line))
		}
		return out
	}
	// A file's dependents are the edges to its package directory.
	want := []string{"cmd/app/main.go:2", "lib/a.go:0", "lib/b.go:0", "lib/sub/s_test.go:0"}
	if got := froms(g.Dependents("lib/sub/s.go")); !reflect.DeepEqual(got, want) {
		t.Errorf("Dependents(lib/sub/s.go) = %v, want %v", got, want)
	}
	if got := froms(g.Dependents("lib/sub")); !reflect.DeepEqual(got, want) {
		t.Errorf("Dependents(lib/sub) = %v, want %v", got, want)
	}
	want = []string{"cmd/app/main.go:1", "lib/lib_test.go:0"}
	if got := froms(g.Dependents("lib/b.go")); !reflect.DeepEqual(got, want) {
		t.Errorf("Dependents(lib/b.go) = %v, want %v", got, want)
	}
	if got := g.Dependents("cmd/app/main.go"); len(got) != 0 {
		t.Errorf("Dependents(main.go) = %v, want none", got)
	}
}

func TestDependentsUnitMembership(t *testing.T) {
	files := []File{
		src("App.java", "java", "app", "com.x.util.*"),
		src("com/x/util/Strings.java", "java", "com.x.util"),
		src("com/x/util/Other.java", "java", "com.x.other"),
		src("com/x/util/helper.c", "c", ""),
	}
	g := build(files, nil)
	if got := g.Dependents("com/x/util/Strings.java"); len(got) != 1 || got[0].From != "App.java" {
		t.Errorf("Dependents(Strings.java) = %+v", got)
	}
	for _, p := range []string{"com/x/util/Other.java", "com/x/util/helper.c"} {
		if got := g.Dependents(p); len(got) != 0 {
			t.Errorf("Dependents(%s) = %+v, want none (not in the unit)", p, got)
		}
	}
}

func TestHubs(t *testing.T) {
	files := append(goFiles(),
		src("tools/t.go", "go", "main", "example.com/m/lib/sub", "example.com/m/lib/sub"),
		src("web/a.ts", "typescript", "", "./util", "./util"),
		src("web/b.ts", "typescript", "", "./util"),
		src("web/util.ts", "typescript", "", "./util"),
	)
	g := build(files, map[string]string{"go.mod": "module example.com/m\n"})
	want := []Hub{
		// lib/sub: main.go, a.go, b.go, t.go (twice: once); s_test.go is
		// the package's own file and does not count.
		{Path: "lib/sub", Dir: true, Dependents: 4, Lang: "go"},
		{Path: "web/util.ts", Dependents: 2, Lang: "typescript"},
		{Path: "lib", Dir: true, Dependents: 1, Lang: "go"},
	}
	if got := g.Hubs(0); !reflect.DeepEqual(got, want) {
		t.Errorf("Hubs(0) =\n%+v\nwant\n%+v", got, want)
	}
	if got := g.Hubs(2); !reflect.DeepEqual(got, want[:2]) {
		t.Errorf("Hubs(2) = %+v", got)
	}
	// Results are copies.
	g.Hubs(1)[0].Path = "x"
	if g.Hubs(1)[0].Path != "lib/sub" {
		t.Error("Hubs returned shared storage")
	}
}

func TestHubsTieByPath(t *testing.T) {
	files := []File{
		src("a.py", "python", "", "z", "y"),
		src("z.py", "python", ""),
		src("y.py", "python", ""),
	}
	g := build(files, nil)
	got := g.Hubs(0)
	if len(got) != 2 || got[0].Path != "y.py" || got[1].Path != "z.py" {
		t.Errorf("Hubs = %+v, want y.py then z.py", got)
	}
}

func TestBuildEdgeCases(t *testing.T) {
	files := []File{
		src("./a/../b.py", "python", "", "", "c"),
		src("c.py", "", ""), // language from the extension
		src("../outside.py", "python", "", "c"),
		src("notes.txt", "other", "", "whatever"),
	}
	g := Build(files, nil, Env{})
	checkResolve(t, g, []rc{
		{from: "b.py", imp: "c", to: "c.py"},
		{from: "b.py", imp: ""},
		{from: "notes.txt", imp: "whatever"},
	})
	if g.Deps("../outside.py") != nil {
		t.Error("a path outside the workspace was indexed")
	}
	// readFile errors are tolerated.
	g = Build([]File{{Path: "go.mod"}, src("a.go", "go", "a", "fmt")},
		func(string) ([]byte, error) { return nil, errors.New("boom") }, Env{})
	checkResolve(t, g, []rc{{from: "a.go", imp: "fmt", ext: true}})
}

func TestConcurrentReads(t *testing.T) {
	g := build(goFiles(), map[string]string{"go.mod": "module example.com/m\n"})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				g.Deps("cmd/app/main.go")
				g.Dependents("lib/sub/s.go")
				g.Hubs(3)
			}
		})
	}
	wg.Wait()
}
