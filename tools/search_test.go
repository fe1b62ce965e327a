package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/workspace"
)

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		pattern, path string
		want          bool
	}{
		{"*.go", "a.go", true},
		{"*.go", "dir/a.go", false},
		{"**/*.go", "a.go", true},
		{"**/*.go", "x/y/a.go", true},
		{"**/*.go", "x/y/a.gox", false},
		{"internal/**/*_test.go", "internal/a_test.go", true},
		{"internal/**/*_test.go", "internal/x/y/a_test.go", true},
		{"internal/**/*_test.go", "cmd/internal/a_test.go", false},
		{"**", "a/b/c", true},
		{"a/**", "a/b/c", true},
		{"a/**", "b/c", false},
		{"*.{go,mod}", "go.mod", true},
		{"*.{go,mod}", "a.go", true},
		{"*.{go,mod}", "a.sum", false},
		{"{cmd,internal}/**/{a,b}.go", "internal/x/b.go", true},
		{"{cmd,internal}/**/{a,b}.go", "internal/x/c.go", false},
		{"?.txt", "a.txt", true},
		{"?.txt", "ab.txt", false},
		{"[a-c]*.go", "b1.go", true},
		{"[a-c]*.go", "d1.go", false},
		{"./src/*.c", "src/x.c", true},
		{"src/*", "src/x/y.c", false},
		{`\{x\}.go`, "{x}.go", true},
		{"[!a]*.go", "b.go", true},
		{"[!a]*.go", "a.go", false},
		{"[^a]*.go", "a.go", false},
		{"{cmd,internal/{x,y}}/*.go", "internal/y/a.go", true},
		{"**/x/**", "a/x/b/c.go", true},
		{strings.Repeat("**/", 16) + "x.go", strings.Repeat("a/", 40) + "b.go", false},
		{strings.Repeat("**/", 16) + "x.go", strings.Repeat("a/", 40) + "x.go", true},
	}
	for _, tt := range tests {
		g, err := compileGlob(tt.pattern)
		if err != nil {
			t.Fatalf("compile %q: %v", tt.pattern, err)
		}
		if got := g.Match(tt.path); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.path, got, tt.want)
		}
	}
	for _, bad := range []string{"", "/abs/*.go", "../*.go", "a/../b", "[", "{a,b", "a}", strings.Repeat("{a,b}", 10)} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q) accepted", bad)
		}
	}
}

// ftSearchTree is a workspace with ignore rules, a binary and nested dirs.
func ftSearchTree(t *testing.T) *ftWorkspace {
	t.Helper()
	w := ftNew(t, map[string]string{
		".gitignore":              "build/\n*.log\n",
		"sub/.parleyignore":       "secret.go\n",
		"main.go":                 "package main\n\nfunc main() {\n\tNeedle()\n}\n",
		"sub/a.go":                "package sub\n\n// Needle finds.\nfunc Needle() {}\n",
		"sub/secret.go":           "package sub // needle hidden\n",
		"sub/deep/b_test.go":      "package deep\n\nvar needle = 1\nvar NEEDLE = 2\n",
		"build/out.go":            "package out // needle in build output\n",
		"debug.log":               "needle in a log\n",
		"docs/readme.md":          "No match here.\n",
		".git/config":             "needle in git\n",
		"node_modules/x/index.js": "needle\n",
		"package.json":            "{}\n",
	})
	if err := os.WriteFile(w.path("sub/blob.bin"), []byte("needle\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestGlobTool(t *testing.T) {
	w := ftSearchTree(t)
	out := ftOK(t, globTool, w.env, map[string]any{"pattern": "**/*.go"})
	if out != "main.go\nsub/a.go\nsub/deep/b_test.go\n" {
		t.Errorf("**/*.go:\n%s", out)
	}
	out = ftOK(t, globTool, w.env, map[string]any{"pattern": "**/*.go", "all": true})
	ftContains(t, out, "build/out.go", "sub/secret.go")
	out = ftOK(t, globTool, w.env, map[string]any{"pattern": "*.go", "path": "sub"})
	if out != "sub/a.go\n" {
		t.Errorf("*.go under sub:\n%s", out)
	}
	out = ftOK(t, globTool, w.env, map[string]any{"pattern": "*.rs"})
	ftContains(t, out, `No files match "*.rs"`, `use "**/*.rs"`)
	ftFail(t, globTool, w.env, map[string]any{"pattern": "../*"}, `".." is not allowed`)
	ftFail(t, globTool, w.env, map[string]any{"pattern": "/etc/*"}, "is absolute")

	many := map[string]string{}
	for i := range globCap + 7 {
		many[fmt.Sprintf("f%04d.txt", i)] = ""
	}
	w2 := ftNew(t, many)
	out = ftOK(t, globTool, w2.env, map[string]any{"pattern": "*.txt"})
	ftContains(t, out, "f0000.txt\n", "[7 more files not shown (limit 500)")
	if strings.Count(out, "\n") != globCap+1 {
		t.Errorf("%d lines", strings.Count(out, "\n"))
	}
}

func TestGrepTool(t *testing.T) {
	w := ftSearchTree(t)
	out := ftOK(t, grepTool, w.env, map[string]any{"pattern": "needle"})
	if out != "sub/deep/b_test.go:3: var needle = 1\n[skipped 1 binary and 0 oversized files]\n" {
		t.Errorf("case-sensitive grep honouring ignore rules:\n%s", out)
	}
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "needle", "case_insensitive": true})
	want := "main.go:4: \tNeedle()\nsub/a.go:3: // Needle finds.\nsub/a.go:4: func Needle() {}\nsub/deep/b_test.go:3: var needle = 1\nsub/deep/b_test.go:4: var NEEDLE = 2\n[skipped 1 binary and 0 oversized files]\n"
	if out != want {
		t.Errorf("case-insensitive:\n%s\nwant:\n%s", out, want)
	}
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "(?i)needle", "glob": "*_test.go"})
	ftContains(t, out, "sub/deep/b_test.go:3:", "sub/deep/b_test.go:4:")
	if strings.Contains(out, "main.go") {
		t.Errorf("glob filter ignored:\n%s", out)
	}
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "Needle", "path": "sub", "glob": "deep/**"})
	ftContains(t, out, "No matches")
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "^func", "path": "sub/a.go", "context": 1})
	if out != "sub/a.go-3- // Needle finds.\nsub/a.go:4: func Needle() {}\n" {
		t.Errorf("context:\n%q", out)
	}
	// Naming an ignored file explicitly searches it.
	ftContains(t, ftOK(t, grepTool, w.env, map[string]any{"pattern": "needle", "path": "debug.log"}), "debug.log:1: needle in a log")
	ftFail(t, grepTool, w.env, map[string]any{"pattern": "("}, "invalid regular expression")
	ftFail(t, grepTool, w.env, map[string]any{"pattern": ""}, "pattern is empty")
	ftFail(t, grepTool, w.env, map[string]any{"pattern": "x", "context": 11}, "at most 10")
	// The filter is doublestar's: negated classes, nested braces.
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "(?i)needle", "glob": "[!m]*.go"})
	ftContains(t, out, "sub/a.go:3:", "sub/deep/b_test.go:3:")
	if strings.Contains(out, "main.go") {
		t.Errorf("negated class ignored:\n%s", out)
	}
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "(?i)needle", "glob": "sub/{x,deep/{b,c}_test}.go"})
	if out != "sub/deep/b_test.go:3: var needle = 1\nsub/deep/b_test.go:4: var NEEDLE = 2\n" {
		t.Errorf("nested braces:\n%s", out)
	}
	ftFail(t, grepTool, w.env, map[string]any{"pattern": "x", "glob": "a}"}, "glob: malformed pattern")
	ftFail(t, grepTool, w.env, map[string]any{"pattern": "x", "glob": strings.Repeat("{a,b}", 9)}, "more than 256 alternatives")
}

func TestGrepCapsAndContext(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "hit %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	w := ftNew(t, map[string]string{"a.txt": b.String(), "b.txt": "hit\n" + strings.Repeat("x", 1000) + "hit\n", "empty.txt": ""})
	out := ftOK(t, grepTool, w.env, map[string]any{"pattern": "^hit", "path": "a.txt", "max_results": 5})
	ftContains(t, out, "a.txt:10: hit 10\n", "a.txt:50: hit 50\n", "[25 more matching lines not shown (30 in 1 files in all)")
	if strings.Contains(out, "a.txt:60:") {
		t.Error("cap exceeded")
	}
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "hit (10|20)$", "path": "a.txt", "context": 2})
	want := "a.txt-8- line 8\na.txt-9- line 9\na.txt:10: hit 10\na.txt-11- line 11\na.txt-12- line 12\n--\n" +
		"a.txt-18- line 18\na.txt-19- line 19\na.txt:20: hit 20\na.txt-21- line 21\na.txt-22- line 22\n"
	if out != want {
		t.Errorf("context groups:\n%s", out)
	}
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "hit$", "path": "b.txt"})
	ftContains(t, out, "b.txt:1: hit\n", "b.txt:2: xxxx", "… [+603 bytes]")
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "^", "path": "empty.txt"})
	ftContains(t, out, "No matches")
	// Overlays: unsaved buffers are searched.
	abs := w.path("b.txt")
	w.env.Files = &DiskView{Overlay: func(p string) ([]byte, int32, bool) {
		return []byte("unsaved hit\n"), 3, p == abs
	}}
	ftContains(t, ftOK(t, grepTool, w.env, map[string]any{"pattern": "unsaved", "path": "b.txt"}), "b.txt:1: unsaved hit")
}

func TestListDir(t *testing.T) {
	w := ftSearchTree(t)
	if err := os.Symlink("main.go", w.path("link.go")); err != nil {
		t.Fatal(err)
	}
	out := ftOK(t, listDirTool, w.env, map[string]any{})
	for _, want := range []string{"dir           -  docs/\n", "file         13  .gitignore\n", "link          -  link.go -> main.go\n", "dir           -  sub/\n", "[4 entries hidden by ignore rules; set all=true to include]"} {
		ftContains(t, out, want)
	}
	for _, hidden := range []string{"build/", "debug.log", ".git/", "node_modules/", "sub/a.go"} {
		if strings.Contains(out, hidden) {
			t.Errorf("%s shown:\n%s", hidden, out)
		}
	}
	out = ftOK(t, listDirTool, w.env, map[string]any{"path": "sub", "depth": 3})
	ftContains(t, out, "sub/\n", "  deep/\n", "  deep/b_test.go\n", "  a.go\n", "[1 entry hidden")
	out = ftOK(t, listDirTool, w.env, map[string]any{"all": true})
	ftContains(t, out, "build/", "debug.log", ".git/", "node_modules/")
	ftFail(t, listDirTool, w.env, map[string]any{"path": "main.go"}, "not a directory")
	ftFail(t, listDirTool, w.env, map[string]any{"depth": 6}, "at most 5")

	many := map[string]string{}
	for i := range listDirCap + 3 {
		many[fmt.Sprintf("f%04d", i)] = ""
	}
	w2 := ftNew(t, many)
	ftContains(t, ftOK(t, listDirTool, w2.env, map[string]any{"path": "."}), "[3 more entries not shown (limit 500)")
}

func TestFileInfo(t *testing.T) {
	w := ftSearchTree(t)
	out := ftOK(t, fileInfoTool, w.env, map[string]any{"path": "main.go"})
	ftContains(t, out, "path:      main.go\n", "type:      file\n", "size:      40 bytes\n", "lines:     5\n", "binary:    no\n", "language:  go\n", "indexed:   unknown (no index in this session)")
	out = ftOK(t, fileInfoTool, w.env, map[string]any{"path": "sub"})
	ftContains(t, out, "type:      directory", "entries:   5")
	ftFail(t, fileInfoTool, w.env, map[string]any{"path": "nope"}, "nope does not exist")
}

func TestSecondRootPaths(t *testing.T) {
	w := ftNew(t, map[string]string{"a.go": "package a // marker\n"})
	other := t.TempDir()
	ftWrite(t, other, "b.go", "package b // marker\n")
	roots, err := workspace.NewRoots(w.root, other)
	if err != nil {
		t.Fatal(err)
	}
	w.env.Roots = roots
	otherReal := roots.Paths()[1]
	out := ftOK(t, globTool, w.env, map[string]any{"pattern": "*.go"})
	if out != "a.go\n"+filepath.Join(otherReal, "b.go")+"\n" {
		t.Errorf("glob over two roots:\n%s", out)
	}
	out = ftOK(t, grepTool, w.env, map[string]any{"pattern": "marker"})
	ftContains(t, out, "a.go:1: package a", filepath.Join(otherReal, "b.go")+":1: package b")
	// The absolute path printed for the second root reads back.
	ftContains(t, ftOK(t, readFileTool, w.env, map[string]any{"path": filepath.Join(otherReal, "b.go")}), "1\tpackage b")
	ftContains(t, ftOK(t, readFileTool, w.env, map[string]any{"path": "b.go"}), "1\tpackage b")
}
