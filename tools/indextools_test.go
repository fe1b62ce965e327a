package tools

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

// ftIndexSet serves one store for one root.
type ftIndexSet struct {
	root  string
	store *index.Store
}

func (s ftIndexSet) StoreFor(abs string) (*index.Store, string, bool) {
	rel, err := filepath.Rel(s.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil, "", false
	}
	return s.store, filepath.ToSlash(rel), true
}

func (s ftIndexSet) Stores() []RootStore { return []RootStore{{Root: s.root, Store: s.store}} }

var ftGoFixture = map[string]string{
	"go.mod": "module example.com/demo\n\ngo 1.22\n",
	"main.go": `package main

import (
	"fmt"

	"example.com/demo/util"
)

// Server handles requests.
type Server struct {
	Addr string
}

// Serve handles one request.
func (s *Server) Serve(req string) error {
	if req == "" {
		return fmt.Errorf("empty")
	}
	for i := 0; i < 3; i++ {
		if i > 1 && req != "x" {
			break
		}
	}
	return nil
}

func main() {
	s := &Server{}
	_ = s.Serve("x") // TODO: read flags
	fmt.Println(util.Double(2))
}
`,
	"util/util.go": `package util

// Double doubles x.
func Double(x int) int {
	return x * 2 // FIXME: overflow
}

// Serve is a second Serve.
func Serve() {}
`,
}

// ftIndexed builds a real index over the Go fixture.
func ftIndexed(t *testing.T) *ftWorkspace {
	t.Helper()
	return ftIndex(t, ftNew(t, ftGoFixture))
}

// ftIndex indexes w's files into a new store the tools see.
func ftIndex(t *testing.T, w *ftWorkspace) *ftWorkspace {
	t.Helper()
	store, err := nav.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if _, err := store.Index(context.Background(), w.root, index.Options{}); err != nil {
		t.Fatal(err)
	}
	w.env.Index = ftIndexSet{root: w.root, store: store}
	return w
}

func TestIndexToolsUnavailable(t *testing.T) {
	w := ftNew(t, ftGoFixture)
	for _, tc := range []struct {
		tool  Tool
		input map[string]any
	}{
		{outlineTool, map[string]any{"path": "main.go"}},
		{getSymbolTool, map[string]any{"name": "Serve"}},
		{findDefinitionTool, map[string]any{"name": "Serve"}},
		{findReferencesTool, map[string]any{"name": "Serve"}},
		{getDependenciesTool, map[string]any{"path": "main.go"}},
		{getDependentsTool, map[string]any{}},
		{getComplexityTool, map[string]any{}},
		{getTodosTool, map[string]any{}},
	} {
		ftFail(t, tc.tool, w.env, tc.input, "index unavailable")
	}
}

func TestOutline(t *testing.T) {
	w := ftIndexed(t)
	out := ftOK(t, outlineTool, w.env, map[string]any{"path": "main.go"})
	ftContains(t, out, "main.go\n", "  struct Server [L10-12]: type Server struct\n", "    field Addr [L11-11]", "  method Serve [L15-25]: func (s *Server) Serve(req string) error (complexity 5)\n", "  function main [L27-31]")
	ftFail(t, outlineTool, w.env, map[string]any{"path": "util"}, "is a directory")
	ftFail(t, outlineTool, w.env, map[string]any{"path": "nope.go"}, "not in the index")
	ftFail(t, outlineTool, w.env, map[string]any{"path": "../x.go"}, "escapes")
}

func TestGetSymbol(t *testing.T) {
	w := ftIndexed(t)
	msg := ftFail(t, getSymbolTool, w.env, map[string]any{"name": "Serve"}, "2 symbols are named Serve")
	ftContains(t, msg, "main.go:15: method Server.Serve", "util/util.go:9: function Serve")
	out := ftOK(t, getSymbolTool, w.env, map[string]any{"name": "Server.Serve"})
	ftContains(t, out, "main.go:15: method Server.Serve\n", "14\t// Serve handles one request.\n", "15\tfunc (s *Server) Serve(req string) error {\n", "25\t}\n")
	if strings.Contains(out, "26\t") || strings.Contains(out, "warning") {
		t.Errorf("body:\n%s", out)
	}
	out = ftOK(t, getSymbolTool, w.env, map[string]any{"name": "Serve", "path": "util"})
	ftContains(t, out, "util/util.go:9: function Serve", "8\t// Serve is a second Serve.\n9\tfunc Serve() {}\n")
	out = ftOK(t, getSymbolTool, w.env, map[string]any{"name": "Serve", "kind": "function"})
	ftContains(t, out, "9\tfunc Serve() {}")
	msg = ftFail(t, getSymbolTool, w.env, map[string]any{"name": "Doubl"}, "no symbol named Doubl")
	ftContains(t, msg, "similar: function Double (util/util.go:4)")
	ftFail(t, getSymbolTool, w.env, map[string]any{"name": "Serve", "kind": "gadget"}, `unknown kind "gadget"`)
	// The source comes through the file view: unsaved edits are seen, and
	// a file that moved on since indexing is flagged.
	abs := w.path("util/util.go")
	w.env.Files = &DiskView{Overlay: func(p string) ([]byte, int32, bool) {
		return []byte("package util\n\n// Double doubles x.\nfunc Triple(x int) int {\n\treturn x * 3\n}\n"), 2, p == abs
	}}
	out = ftOK(t, getSymbolTool, w.env, map[string]any{"name": "Double"})
	ftContains(t, out, "warning: the file changed since it was indexed", "x * 3")
}

func TestFindDefinitionAndReferences(t *testing.T) {
	w := ftIndexed(t)
	out := ftOK(t, findDefinitionTool, w.env, map[string]any{"name": "Double"})
	if out != "util/util.go:4: function Double — func Double(x int) int\n    // Double doubles x.\n" {
		t.Errorf("definition:\n%q", out)
	}
	out = ftOK(t, findDefinitionTool, w.env, map[string]any{"name": "double"})
	ftContains(t, out, "util/util.go:4: function Double")
	out = ftOK(t, findDefinitionTool, w.env, map[string]any{"name": "Dubble"})
	ftContains(t, out, "no symbol named Dubble")

	out = ftOK(t, findReferencesTool, w.env, map[string]any{"name": "Serve"})
	ftContains(t, out, "main.go:15:18: func (s *Server) Serve(req string) error { [definition]\n", "main.go:29:8: _ = s.Serve(\"x\") // TODO: read flags\n", "util/util.go:9:6: func Serve() {} [definition]\n")
	out = ftOK(t, findReferencesTool, w.env, map[string]any{"name": "Server.Serve", "path": "main.go", "max_results": 1})
	ftContains(t, out, "main.go:15:18:", "[1 more references not shown (2 in 1 files in all)")
	if strings.Contains(out, "util.go") {
		t.Errorf("path filter ignored:\n%s", out)
	}
	ftContains(t, ftOK(t, findReferencesTool, w.env, map[string]any{"name": "Nothing"}), "No references to Nothing")
	// A qualified name naming one declaration: the method's references
	// only (its call is confirmed: s := &Server{}), not util.Serve.
	out = ftOK(t, findReferencesTool, w.env, map[string]any{"name": "Server.Serve"})
	ftContains(t, out, "main.go:15:18: func (s *Server) Serve(req string) error { [definition]\n", "main.go:29:8: _ = s.Serve(\"x\") // TODO: read flags\n")
	if strings.Contains(out, "[uncertain]") {
		t.Errorf("s.Serve with s := &Server{} is uncertain:\n%s", out)
	}
	if strings.Contains(out, "util.go") {
		t.Errorf("Server.Serve lists util.Serve:\n%s", out)
	}
	// A position answers as the editor does: the call s.Serve on line 29
	// means Server.Serve, whose references are the same as above.
	byName := out
	out = ftOK(t, findReferencesTool, w.env, map[string]any{"path": "main.go", "line": 29, "column": 8})
	if out != byName {
		t.Errorf("references at main.go:29:8:\n%s\nwant (as Server.Serve):\n%s", out, byName)
	}
	out = ftOK(t, findDefinitionTool, w.env, map[string]any{"path": "main.go", "line": 29, "column": 8})
	ftContains(t, out, "main.go:15: method Server.Serve")
	if strings.Contains(out, "util.go") {
		t.Errorf("definition at main.go:29:8 lists util.Serve:\n%s", out)
	}
	ftFail(t, findReferencesTool, w.env, map[string]any{"name": "Double", "path": "main.go", "line": 29, "column": 8}, "is on Serve, not Double")
	ftFail(t, findDefinitionTool, w.env, map[string]any{"path": "main.go", "line": 999, "column": 1}, "past the end")
	out = ftOK(t, findReferencesTool, w.env, map[string]any{"name": "util.Serve"})
	if out != "util/util.go:9:6: func Serve() {} [definition]\n" {
		t.Errorf("util.Serve:\n%s", out)
	}
}

func TestDependencies(t *testing.T) {
	w := ftIndexed(t)
	out := ftOK(t, getDependenciesTool, w.env, map[string]any{"path": "main.go"})
	ftContains(t, out, "main.go:\n", `line 4: "fmt" -> external`, `line 6: "example.com/demo/util" -> util/ (package directory)`)
	ftWrite(t, w.root, "new.go", "package main\n")
	ftFail(t, getDependenciesTool, w.env, map[string]any{"path": "new.go"}, "not in the index")
	ftContains(t, ftOK(t, getDependenciesTool, w.env, map[string]any{"path": "."}), "main.go:\n")
	out = ftOK(t, getDependentsTool, w.env, map[string]any{"path": "util/util.go"})
	ftContains(t, out, "util/util.go is imported by:\n", `main.go:6: "example.com/demo/util"`)
	out = ftOK(t, getDependentsTool, w.env, map[string]any{"path": "util"})
	ftContains(t, out, `main.go:6: "example.com/demo/util"`)
	ftContains(t, ftOK(t, getDependentsTool, w.env, map[string]any{"path": "main.go"}), "Nothing in the workspace imports main.go")
	out = ftOK(t, getDependentsTool, w.env, map[string]any{})
	ftContains(t, out, "Most imported files and packages:\n", "   1 importers  util/ (go)")
}

func TestComplexityAndTodos(t *testing.T) {
	w := ftIndexed(t)
	out := ftOK(t, getComplexityTool, w.env, map[string]any{})
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 || !strings.Contains(lines[1], "main.go:15: method Server.Serve") || !strings.HasPrefix(strings.TrimSpace(lines[1]), "5 ") {
		t.Errorf("complexity ranking:\n%s", out)
	}
	out = ftOK(t, getComplexityTool, w.env, map[string]any{"path": "util/util.go", "limit": 1})
	ftContains(t, out, "util/util.go:", "[1 more functions not shown]")
	out = ftOK(t, getTodosTool, w.env, map[string]any{})
	if out != "main.go:29: TODO read flags\nutil/util.go:5: FIXME overflow\n" {
		t.Errorf("todos:\n%q", out)
	}
	ftContains(t, ftOK(t, getTodosTool, w.env, map[string]any{"tag": "FIXME"}), "util/util.go:5: FIXME overflow")
	ftContains(t, ftOK(t, getTodosTool, w.env, map[string]any{"path": "util"}), "util/util.go:5: FIXME")
	ftContains(t, ftOK(t, getTodosTool, w.env, map[string]any{"max_results": 1}), "[1 more markers not shown (2 in all)")
	ftFail(t, getTodosTool, w.env, map[string]any{"tag": "NOTE"}, "must be one of TODO, FIXME, HACK, XXX")
}

func TestFileInfoIndexed(t *testing.T) {
	w := ftIndexed(t)
	ftContains(t, ftOK(t, fileInfoTool, w.env, map[string]any{"path": "main.go"}), "indexed:   yes (indexed, 4 symbols")
	ftContains(t, ftOK(t, fileInfoTool, w.env, map[string]any{"path": "go.mod"}), "indexed:   yes (text")
	ftWrite(t, w.root, "util/util.go", "package util\n")
	ftContains(t, ftOK(t, fileInfoTool, w.env, map[string]any{"path": "util/util.go"}), "stale")
	ftWrite(t, w.root, "new.go", "package main\n")
	ftContains(t, ftOK(t, fileInfoTool, w.env, map[string]any{"path": "new.go"}), "indexed:   no\n")
}
