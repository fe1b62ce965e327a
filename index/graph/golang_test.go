package graph

import "testing"

// A GOROOT/src-like layout: module std at the root with a vendor tree,
// module cmd below it with its own vendor tree.
func TestGoFakeGOROOT(t *testing.T) {
	files := []File{
		src("fmt/print.go", "go", "fmt", "errors", "internal/fmtsort", "unicode/utf8", "C"),
		src("fmt/fmt_test.go", "go", "fmt_test", "fmt", "testing"),
		src("errors/errors.go", "go", "errors"),
		src("internal/fmtsort/sort.go", "go", "fmtsort"),
		src("unicode/utf8/utf8.go", "go", "utf8"),
		src("testing/testing.go", "go", "testing", "golang.org/x/net/idna", "golang.org/x/missing"),
		src("vendor/golang.org/x/net/idna/idna.go", "go", "idna", "golang.org/x/text/unicode/norm"),
		src("vendor/golang.org/x/text/unicode/norm/norm.go", "go", "norm"),
		src("cmd/go/main.go", "go", "main", "fmt", "cmd/internal/obj", "golang.org/x/mod/module", "golang.org/x/net/idna", "github.com/other/thing"),
		src("cmd/internal/obj/obj.go", "go", "obj"),
		src("cmd/vendor/golang.org/x/mod/module/module.go", "go", "module", "errors"),
	}
	g := build(files, map[string]string{
		"go.mod":     "module std\n\ngo 1.26\n",
		"cmd/go.mod": "module cmd\n\ngo 1.26\n",
	})
	checkResolve(t, g, []rc{
		{from: "fmt/print.go", imp: "errors", to: "errors", dir: true},
		{from: "fmt/print.go", imp: "internal/fmtsort", to: "internal/fmtsort", dir: true},
		{from: "fmt/print.go", imp: "unicode/utf8", to: "unicode/utf8", dir: true},
		{from: "fmt/print.go", imp: "C", ext: true},
		{from: "fmt/fmt_test.go", imp: "fmt", to: "fmt", dir: true},
		{from: "fmt/fmt_test.go", imp: "testing", to: "testing", dir: true},
		{from: "testing/testing.go", imp: "golang.org/x/net/idna", to: "vendor/golang.org/x/net/idna", dir: true},
		{from: "testing/testing.go", imp: "golang.org/x/missing", ext: true},
		{from: "vendor/golang.org/x/net/idna/idna.go", imp: "golang.org/x/text/unicode/norm", to: "vendor/golang.org/x/text/unicode/norm", dir: true},
		{from: "cmd/go/main.go", imp: "fmt", to: "fmt", dir: true},
		{from: "cmd/go/main.go", imp: "cmd/internal/obj", to: "cmd/internal/obj", dir: true},
		{from: "cmd/go/main.go", imp: "golang.org/x/mod/module", to: "cmd/vendor/golang.org/x/mod/module", dir: true},
		// cmd has its own vendor tree; std's is not visible from it.
		{from: "cmd/go/main.go", imp: "golang.org/x/net/idna", ext: true},
		{from: "cmd/go/main.go", imp: "github.com/other/thing", ext: true},
		{from: "cmd/vendor/golang.org/x/mod/module/module.go", imp: "errors", to: "errors", dir: true},
	})
	hubs := g.Hubs(1)
	if len(hubs) != 1 || hubs[0].Path != "errors" || hubs[0].Dependents != 2 {
		t.Errorf("top hub = %+v, want errors with 2 dependents", hubs)
	}
}

func TestGoModules(t *testing.T) {
	files := []File{
		src("app/main.go", "go", "main", "example.com/app/internal/db", "example.com/app/tools/gen",
			"example.com/app/nope", "example.com/lib", "example.com/lib/util", "github.com/x/y", "os", "./local", "../outside"),
		src("app/local/l.go", "go", "local"),
		src("app/internal/db/db.go", "go", "db", "example.com/app/vendored/dep"),
		src("app/vendor/example.com/app/vendored/dep/d.go", "go", "dep"),
		src("app/tools/gen/gen.go", "go", "gen", "example.com/app/internal/db"),
		src("app/tools/go.sum", "", ""),
		src("lib/lib.go", "go", "lib"),
		src("lib/util/u.go", "go", "util", "example.com/lib"),
		src("lib/util/README.md", "", ""),
		src("other/x.go", "go", "x", "example.com/lib/util", "example.com/dup/p"),
		src("dup1/p/p.go", "go", "p"),
		src("other/dup/p/p.go", "go", "p"),
	}
	g := build(files, map[string]string{
		"app/go.mod":       "module example.com/app\n",
		"app/tools/go.mod": "module \"example.com/app/tools\" // nested module\n",
		"lib/go.mod":       "module example.com/lib\n",
		"dup1/go.mod":      "module example.com/dup\n",
		"other/go.mod":     "module example.com/other\n",
		"other/dup/go.mod": "module example.com/dup\n",
	})
	checkResolve(t, g, []rc{
		{from: "app/main.go", imp: "example.com/app/internal/db", to: "app/internal/db", dir: true},
		// The longest module path wins: example.com/app/tools is its own module.
		{from: "app/main.go", imp: "example.com/app/tools/gen", to: "app/tools/gen", dir: true},
		{from: "app/main.go", imp: "example.com/app/nope"}, // workspace module, missing dir: not external
		{from: "app/main.go", imp: "example.com/lib", to: "lib", dir: true},
		{from: "app/main.go", imp: "example.com/lib/util", to: "lib/util", dir: true},
		{from: "app/main.go", imp: "github.com/x/y", ext: true},
		{from: "app/main.go", imp: "os", ext: true},
		{from: "app/main.go", imp: "./local", to: "app/local", dir: true},
		{from: "app/main.go", imp: "../outside"},
		{from: "app/internal/db/db.go", imp: "example.com/app/vendored/dep", to: "app/vendor/example.com/app/vendored/dep", dir: true},
		{from: "app/tools/gen/gen.go", imp: "example.com/app/internal/db", to: "app/internal/db", dir: true},
		{from: "lib/util/u.go", imp: "example.com/lib", to: "lib", dir: true},
		// Two modules share a path: the one enclosing the importer wins.
		{from: "other/x.go", imp: "example.com/dup/p", to: "other/dup/p", dir: true},
	})
}

func TestGoRootModule(t *testing.T) {
	files := []File{
		src("main.go", "go", "main", "example.com/root/pkg", "example.com/root"),
		src("pkg/p.go", "go", "pkg", "example.com/root"),
	}
	g := build(files, map[string]string{"go.mod": "module example.com/root\n"})
	checkResolve(t, g, []rc{
		{from: "main.go", imp: "example.com/root/pkg", to: "pkg", dir: true},
		{from: "main.go", imp: "example.com/root", to: ".", dir: true},
		{from: "pkg/p.go", imp: "example.com/root", to: ".", dir: true},
	})
	if got := g.Dependents("main.go"); len(got) != 2 {
		t.Errorf("Dependents(main.go) = %+v, want the two edges to \".\"", got)
	}
	if h := g.Hubs(0); len(h) != 2 || h[0].Path != "." || h[0].Dependents != 1 {
		t.Errorf("Hubs = %+v, want \".\" with 1 dependent (main.go is its own unit)", h)
	}
}

// Without any go.mod (GOPATH layout rooted somewhere inside GOPATH/src):
// the root's import prefix is guessed from the imports that name workspace
// directories.
func TestGoNoModule(t *testing.T) {
	files := []File{
		src("cmd/main.go", "go", "main", "github.com/acme/proj/util", "github.com/acme/proj/cmd",
			"fmt", "github.com/x/errors", "util", "github.com/acme/proj"),
		src("doc.go", "go", "proj"),
		src("util/u.go", "go", "util", "github.com/acme/proj/util/inner"),
		src("util/inner/i.go", "go", "inner"),
		src("fmt/f.go", "go", "fmt"),
		src("errors/e.go", "go", "errors"),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "cmd/main.go", imp: "github.com/acme/proj/util", to: "util", dir: true},
		{from: "cmd/main.go", imp: "github.com/acme/proj/cmd", to: "cmd", dir: true},
		{from: "cmd/main.go", imp: "github.com/acme/proj", to: ".", dir: true},
		{from: "util/u.go", imp: "github.com/acme/proj/util/inner", to: "util/inner", dir: true},
		// Standard-library-looking paths never match a local directory.
		{from: "cmd/main.go", imp: "fmt", ext: true},
		{from: "cmd/main.go", imp: "util", ext: true},
		// Only the guessed prefix maps onto the workspace.
		{from: "cmd/main.go", imp: "github.com/x/errors", ext: true},
	})
}

// The root is a directory of a module whose go.mod is above it (parley
// --root agent inside this repository): imports of the module resolve
// against the root's own import path, what the module holds outside the
// root is external, and a nested module inside the root still wins for
// its own directory.
func TestGoRootInsideModule(t *testing.T) {
	files := []File{
		src("loop.go", "go", "agent", "fmt", "example.com/proj/agent/permission", "example.com/proj/tools",
			"example.com/proj/agent/missing", "example.com/proj/agent", "example.com/proj/agent/plugin/x",
			"shared/util", "shared", "other.org/x", "example.com/proj"),
		src("permission/policy.go", "go", "permission", "example.com/proj/agent/provider"),
		src("provider/p.go", "go", "provider"),
		src("vendor/other.org/x/x.go", "go", "x"),
		src("plugin/x/x.go", "go", "x", "example.com/plugin/y", "example.com/proj/agent/provider"),
		src("plugin/y/y.go", "go", "y"),
	}
	env := Env{GoModules: []GoModule{
		{Path: "example.com/proj", Encloses: true, Sub: "agent"},
		{Path: "shared"}, // used by a go.work, outside the root
	}}
	g := buildEnv(files, map[string]string{"plugin/go.mod": "module example.com/plugin\n"}, env)
	checkResolve(t, g, []rc{
		{from: "loop.go", imp: "fmt", ext: true},
		{from: "loop.go", imp: "example.com/proj/agent/permission", to: "permission", dir: true},
		{from: "loop.go", imp: "example.com/proj/agent", to: ".", dir: true},
		// In the module but outside the root.
		{from: "loop.go", imp: "example.com/proj/tools", ext: true},
		{from: "loop.go", imp: "example.com/proj", ext: true},
		// Under the root's import path, missing: not external.
		{from: "loop.go", imp: "example.com/proj/agent/missing"},
		// The nested module owns its directory; its path still maps here.
		{from: "loop.go", imp: "example.com/proj/agent/plugin/x", to: "plugin/x", dir: true},
		{from: "plugin/x/x.go", imp: "example.com/plugin/y", to: "plugin/y", dir: true},
		{from: "plugin/x/x.go", imp: "example.com/proj/agent/provider", to: "provider", dir: true},
		{from: "permission/policy.go", imp: "example.com/proj/agent/provider", to: "provider", dir: true},
		// A dotless module path of the go.work is external, not a
		// standard-library guess.
		{from: "loop.go", imp: "shared/util", ext: true},
		{from: "loop.go", imp: "shared", ext: true},
		// The enclosing module's vendor tree is at its own root, not here.
		{from: "loop.go", imp: "other.org/x", ext: true},
	})
}

// A root inside GOROOT/src (module std): standard-library paths under the
// root resolve, the others are external.
func TestGoRootInsideStd(t *testing.T) {
	files := []File{
		src("http/client.go", "go", "http", "net", "net/url", "fmt", "net/http/internal"),
		src("http/internal/i.go", "go", "internal"),
		src("url/url.go", "go", "url"),
		src("ip.go", "go", "net"),
	}
	g := buildEnv(files, nil, Env{GoModules: []GoModule{{Path: "std", Encloses: true, Sub: "net"}}})
	checkResolve(t, g, []rc{
		{from: "http/client.go", imp: "net", to: ".", dir: true},
		{from: "http/client.go", imp: "net/url", to: "url", dir: true},
		{from: "http/client.go", imp: "net/http/internal", to: "http/internal", dir: true},
		{from: "http/client.go", imp: "fmt", ext: true},
	})
}

// The root's own go.mod wins over an enclosing module (a stale Env, or a
// nested module that is the root).
func TestGoRootOwnModuleWins(t *testing.T) {
	files := []File{src("main.go", "go", "main", "example.com/own/pkg", "example.com/proj/agent/pkg"), src("pkg/p.go", "go", "pkg")}
	env := Env{GoModules: []GoModule{{Path: "example.com/proj", Encloses: true, Sub: "agent"}}}
	g := buildEnv(files, map[string]string{"go.mod": "module example.com/own\n"}, env)
	checkResolve(t, g, []rc{
		{from: "main.go", imp: "example.com/own/pkg", to: "pkg", dir: true},
		{from: "main.go", imp: "example.com/proj/agent/pkg", ext: true},
	})
}

// Without any go.mod, an import can only name the root directory itself
// from a subdirectory (a package does not import itself), and an import
// that maps onto a subdirectory is better evidence of the root's prefix
// than one that would map onto the root: a much-imported third-party
// package must not become the root's import path.
func TestGoNoModuleGuessIgnoresRootNoise(t *testing.T) {
	files := []File{
		src("a.go", "go", "proj", "github.com/pkg/errors", "github.com/acme/proj/util"),
		src("b.go", "go", "proj", "github.com/pkg/errors"),
		src("c.go", "go", "proj", "github.com/pkg/errors", "github.com/acme/proj/tools"),
		src("util/u.go", "go", "util", "github.com/pkg/errors", "github.com/acme/proj"),
	}
	g := build(files, nil)
	checkResolve(t, g, []rc{
		{from: "a.go", imp: "github.com/pkg/errors", ext: true},
		{from: "a.go", imp: "github.com/acme/proj/util", to: "util", dir: true},
		{from: "util/u.go", imp: "github.com/acme/proj", to: ".", dir: true},
		{from: "c.go", imp: "github.com/acme/proj/tools", ext: true},
	})
	// Only imports of the root from below it: the most common one wins.
	g = build([]File{
		src("main.go", "go", "main"),
		src("x/x.go", "go", "x", "example.com/root", "github.com/pkg/errors"),
		src("y/y.go", "go", "y", "example.com/root"),
	}, nil)
	checkResolve(t, g, []rc{
		{from: "x/x.go", imp: "example.com/root", to: ".", dir: true},
		{from: "x/x.go", imp: "github.com/pkg/errors", ext: true},
	})
}
