package tools

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestFindAtSyntaxFixtures: find_definition with path, line and column
// answers Python and TypeScript uses as the language server does, from
// syntax: every use the golden fixtures (index/python/testdata/resolve_py.txtar,
// resolve_ts.txtar) settle leads to the declaration they give, import
// aliases and receivers (self, this, instances) included.
func TestFindAtSyntaxFixtures(t *testing.T) {
	for _, archive := range []string{"python/testdata/resolve_py.txtar", "typescript/testdata/resolve_ts.txtar"} {
		t.Run(path.Base(archive), func(t *testing.T) {
			archive = filepath.Join("..", "index", filepath.FromSlash(archive))
			w := ftIndex(t, ftOpen(t, fixture.Extract(t, archive)))
			for _, u := range fixture.Uses(t, archive, w.root) {
				if u.Want == "-" {
					continue // the name ranking answers, as in the server
				}
				out := ftOK(t, findDefinitionTool, w.env, map[string]any{"path": u.File, "line": u.Line, "column": u.Col})
				want := u.Want + ":"
				if !strings.Contains(u.Want, ":") {
					want = u.Want + ":1:" // a whole module
				}
				if !strings.HasPrefix(out, want) || strings.Count(out, "\n")-strings.Count(out, "\n    //") != 1 {
					t.Errorf("%s: got\n%swant one definition at %s", u, out, u.Want)
				}
			}
		})
	}
}

// TestFindReferencesAtPython: find_references at a position lists the
// references the syntax resolves to the declaration, as the language
// server does: the import of the alias h, util.helper, and the re-export
// in pkg/__init__.py,
// not the parameter of inner that shadows the imported helper
// (app/main.py:24-25), whatever the tool's path says.
func TestFindReferencesAtPython(t *testing.T) {
	archive := filepath.Join("..", "index", "python", "testdata", "resolve_py.txtar")
	w := ftIndex(t, ftOpen(t, fixture.Extract(t, archive)))
	for _, at := range []struct {
		path         string
		line, column int
	}{{"pkg/util.py", 4, 5}, {"app/main.py", 13, 5}, {"app/main.py", 14, 11}} {
		out := ftOK(t, findReferencesTool, w.env, map[string]any{"path": at.path, "line": at.line, "column": at.column})
		var got []string
		for l := range strings.Lines(out) {
			loc, _, _ := strings.Cut(l, ": ")
			got = append(got, loc)
		}
		want := "app/main.py:4:22 app/main.py:14:10 pkg/__init__.py:1:19 pkg/util.py:4:5"
		if g := strings.Join(got, " "); g != want {
			t.Errorf("references at %s:%d:%d:\n got %s\nwant %s\n%s", at.path, at.line, at.column, g, want, out)
		}
	}
	// A use the syntax does not settle lists the occurrences of the name.
	out := ftOK(t, findReferencesTool, w.env, map[string]any{"path": "app/main.py", "line": 22, "column": 10})
	if !strings.HasPrefix(out, fmt.Sprintf("app/main.py:22:9: %s", "obj.frob()")) {
		t.Errorf("references at obj.frob:\n%s", out)
	}
}

// TestFindReferencesAtGoBuffer: at a Go position the tool answers as the
// language server does: a local's references are its function's uses (not
// another function's x), and a predeclared name or a keyword is refused
// the way gopls refuses it, instead of listing every occurrence.
func TestFindReferencesAtGoBuffer(t *testing.T) {
	w := ftIndex(t, ftNew(t, map[string]string{
		"go.mod": "module example.com/m\n",
		"a/a.go": "package a\n\nfunc F() int {\n\tx := 1\n\ty := x + len(\"s\")\n\treturn x + y\n}\n\nfunc G() int { x := 2; return x }\n",
	}))
	out := ftOK(t, findReferencesTool, w.env, map[string]any{"path": "a/a.go", "line": 5, "column": 7})
	if g, want := refLocations(out), "a/a.go:4:2 a/a.go:5:7 a/a.go:6:9"; g != want {
		t.Errorf("references of the local x:\n got %s\nwant %s\n%s", g, want, out)
	}
	ftFail(t, findReferencesTool, w.env, map[string]any{"path": "a/a.go", "line": 5, "column": 11}, "len is predeclared")
	ftFail(t, findReferencesTool, w.env, map[string]any{"path": "a/a.go", "line": 3, "column": 1}, "keyword")
}

// refLocations is the "path:line:col" of each line of a find_references
// result, space-separated.
func refLocations(out string) string {
	var locs []string
	for l := range strings.Lines(out) {
		loc, _, _ := strings.Cut(l, ": ")
		locs = append(locs, loc)
	}
	return strings.Join(locs, " ")
}
