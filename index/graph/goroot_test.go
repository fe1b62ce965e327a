package graph

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/index/extract"

	"github.com/parleyhq/parley/internal/testenv"
)

// loadGoTree lists the Go files and go.mod files under root, with imports
// parsed by go/parser in ImportsOnly mode.
func loadGoTree(t *testing.T, root string) []File {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if n := d.Name(); n == "go.mod" || filepath.Ext(n) == ".go" {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files := make([]File, len(paths))
	var wg sync.WaitGroup
	work := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range work {
				files[i] = parseGoFile(root, paths[i])
			}
		})
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	return files
}

func parseGoFile(root, p string) File {
	rel, _ := filepath.Rel(root, p)
	f := File{Path: filepath.ToSlash(rel)}
	if filepath.Base(p) == "go.mod" {
		return f
	}
	f.Lang = "go"
	fset := token.NewFileSet()
	af, _ := parser.ParseFile(fset, p, nil, parser.ImportsOnly|parser.SkipObjectResolution)
	if af == nil {
		return f
	}
	if af.Name != nil {
		f.Package = af.Name.Name
	}
	for _, is := range af.Imports {
		s, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		f.Imports = append(f.Imports, extract.Import{Path: s, Line: uint32(fset.Position(is.Path.Pos()).Line - 1)})
	}
	return f
}

func TestGOROOT(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		testenv.Need(t, "no GOROOT source: %v", err)
	}
	files := loadGoTree(t, root)
	nImports := 0
	for _, f := range files {
		nImports += len(f.Imports)
	}
	read := func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(rel))) }

	start := time.Now()
	g := Build(files, read, Env{})
	elapsed := time.Since(start)
	t.Logf("Build: %d files, %d imports in %v", len(files), nImports, elapsed)

	resolved, external, unresolved := 0, 0, map[string]int{}
	for _, f := range files {
		for _, e := range g.Deps(f.Path) {
			switch {
			case e.Resolved:
				resolved++
			case e.External:
				external++
			default:
				unresolved[e.Import]++
			}
		}
	}
	t.Logf("resolved %d, external %d, unresolved %d distinct paths", resolved, external, len(unresolved))
	// What stays unresolved is testdata importing fixtures by fake paths.
	if rate := float64(resolved) / float64(nImports); rate < 0.97 {
		t.Errorf("only %.1f%% of GOROOT imports resolved", 100*rate)
	}

	hubs := g.Hubs(10)
	for i, h := range hubs {
		t.Logf("hub %2d: %-20s dir=%v dependents=%d lang=%s", i+1, h.Path, h.Dir, h.Dependents, h.Lang)
	}
	if !slices.ContainsFunc(hubs, func(h Hub) bool { return h.Path == "fmt" && h.Dir }) {
		t.Errorf("fmt not among top hubs: %+v", hubs)
	}

	wantDep := func(from, imp, to string) {
		t.Helper()
		for _, e := range g.Deps(from) {
			if e.Import == imp {
				if e.To != to || !e.ToDir || !e.Resolved {
					t.Errorf("%s imports %q: got %+v, want dir %q", from, imp, e, to)
				}
				return
			}
		}
		t.Errorf("%s: no import %q in %+v", from, imp, g.Deps(from))
	}
	wantDep("net/http/server.go", "fmt", "fmt")
	wantDep("net/http/server.go", "golang.org/x/net/http/httpguts", "vendor/golang.org/x/net/http/httpguts")
	wantDep("cmd/go/main.go", "cmd/go/internal/base", "cmd/go/internal/base")
	wantDep("cmd/go/internal/modload/load.go", "golang.org/x/mod/module", "cmd/vendor/golang.org/x/mod/module")

	deps := g.Dependents("fmt/print.go")
	if !slices.ContainsFunc(deps, func(e Edge) bool { return e.From == "net/http/server.go" }) {
		t.Errorf("Dependents(fmt/print.go) lacks net/http/server.go (%d edges)", len(deps))
	}
	if elapsed > 2*time.Second {
		t.Errorf("Build took %v", elapsed)
	}
}

func BenchmarkBuildGOROOT(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		b.Skipf("no GOROOT source: %v", err)
	}
	t := &testing.T{}
	files := loadGoTree(t, root)
	cache := map[string][]byte{}
	for _, f := range files {
		if filepath.Base(f.Path) == "go.mod" {
			cache[f.Path], _ = os.ReadFile(filepath.Join(root, f.Path))
		}
	}
	read := func(rel string) ([]byte, error) { return cache[rel], nil }
	b.ResetTimer()
	for b.Loop() {
		Build(files, read, Env{})
	}
}
