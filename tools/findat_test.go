package tools

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestFindAtSyntaxFixtures: find_definition with path, line and column
// answers Python and TypeScript uses as the language server does, from
// syntax: every use the golden fixtures (index/testdata/resolve_py.txtar,
// resolve_ts.txtar) settle leads to the declaration they give, import
// aliases and receivers (self, this, instances) included.
func TestFindAtSyntaxFixtures(t *testing.T) {
	for _, archive := range []string{"resolve_py.txtar", "resolve_ts.txtar"} {
		t.Run(archive, func(t *testing.T) {
			archive = filepath.Join("..", "index", "testdata", archive)
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
	archive := filepath.Join("..", "index", "testdata", "resolve_py.txtar")
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
