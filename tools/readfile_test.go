package tools

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
)

// ftHostile adds the files path-safety tests need: symlinks out of the
// root, a binary file and a sparse file above the size limit.
func ftHostile(t *testing.T, w *ftWorkspace) {
	t.Helper()
	for link, target := range map[string]string{"etc": "/etc", "passwd": "/etc/passwd"} {
		if err := os.Symlink(target, w.path(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(w.path("bin.dat"), []byte("ELF\x00\x01\x02binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(w.path("big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestRefusedPaths(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "hello\n"})
	ftHostile(t, w)
	paths := []struct{ path, want string }{
		{"../x", "escapes the workspace root"},
		{"a/../../x", "escapes the workspace root"},
		{"/etc/passwd", "outside workspace roots"},
		{"passwd", "symlink"},
		{"etc/hosts", "symlink"},
		{"a\x00b", "NUL"},
	}
	tools := []struct {
		tool  Tool
		input func(p string) map[string]any
	}{
		{readFileTool, func(p string) map[string]any { return map[string]any{"path": p} }},
		{writeFileTool, func(p string) map[string]any { return map[string]any{"path": p, "content": "x"} }},
		{editFileTool, func(p string) map[string]any { return map[string]any{"path": p, "old_string": "a", "new_string": "b"} }},
		{multiEditTool, func(p string) map[string]any {
			return map[string]any{"path": p, "edits": []map[string]any{{"old_string": "a", "new_string": "b"}}}
		}},
		{fileDeltaTool, func(p string) map[string]any {
			return map[string]any{"path": p, "operations": []map[string]any{{"op": "delete", "line": 1}}}
		}},
		{listDirTool, func(p string) map[string]any { return map[string]any{"path": p} }},
		{fileInfoTool, func(p string) map[string]any { return map[string]any{"path": p} }},
		{globTool, func(p string) map[string]any { return map[string]any{"path": p, "pattern": "*"} }},
		{grepTool, func(p string) map[string]any { return map[string]any{"path": p, "pattern": "root"} }},
	}
	for _, tt := range tools {
		for _, pc := range paths {
			t.Run(fmt.Sprintf("%s/%q", tt.tool.Name(), pc.path), func(t *testing.T) {
				in := tt.input(pc.path)
				ftFail(t, tt.tool, w.env, in, pc.want)
				if _, err := accessOf(tt.tool, w.env, ftInput(t, in)); err == nil || !strings.Contains(err.Error(), pc.want) {
					t.Errorf("Access: %v", err)
				}
			})
		}
	}
	if got := w.read(t, "a.txt"); got != "hello\n" {
		t.Errorf("a.txt changed: %q", got)
	}
}

func TestRefusedContent(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "hello\n"})
	ftHostile(t, w)
	for _, tt := range []struct {
		tool  Tool
		input func(p string) map[string]any
	}{
		{readFileTool, func(p string) map[string]any { return map[string]any{"path": p} }},
		{editFileTool, func(p string) map[string]any { return map[string]any{"path": p, "old_string": "E", "new_string": "b"} }},
		{multiEditTool, func(p string) map[string]any {
			return map[string]any{"path": p, "edits": []map[string]any{{"old_string": "E", "new_string": "b"}}}
		}},
		{fileDeltaTool, func(p string) map[string]any {
			return map[string]any{"path": p, "operations": []map[string]any{{"op": "delete", "line": 1}}}
		}},
	} {
		ftFail(t, tt.tool, w.env, tt.input("bin.dat"), "binary file")
		ftFail(t, tt.tool, w.env, tt.input("big.txt"), "10 MiB")
		ftFail(t, tt.tool, w.env, tt.input("missing.txt"), "does not exist")
		ftFail(t, tt.tool, w.env, tt.input("."), "is a directory")
	}
	ftFail(t, writeFileTool, w.env, map[string]any{"path": "x.txt", "content": strings.Repeat("x", MaxFileSize+1)}, "above the 10 MiB limit")
	info := ftOK(t, fileInfoTool, w.env, map[string]any{"path": "bin.dat"})
	ftContains(t, info, "binary:    yes")
	info = ftOK(t, fileInfoTool, w.env, map[string]any{"path": "big.txt"})
	ftContains(t, info, "not read (above the 10 MiB limit)", fmt.Sprintf("%d bytes", MaxFileSize+1))
}

func TestReadFile(t *testing.T) {
	var lines []string
	for i := 1; i <= 30; i++ {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	w := ftNew(t, map[string]string{
		"a.txt":     strings.Join(lines, "\n") + "\n",
		"crlf.txt":  "one\r\ntwo\r\n",
		"empty.txt": "",
		"sub/b.go":  "package b",
	})
	out := ftOK(t, readFileTool, w.env, map[string]any{"path": "a.txt"})
	if !strings.HasPrefix(out, " 1\tline 1\n 2\tline 2\n") || !strings.HasSuffix(out, "30\tline 30\n") {
		t.Errorf("whole file:\n%s", out)
	}
	out = ftOK(t, readFileTool, w.env, map[string]any{"path": "a.txt", "start_line": 10, "end_line": 12})
	if out != "10\tline 10\n11\tline 11\n12\tline 12\n[showed lines 10-12 of 30]\n" {
		t.Errorf("range:\n%q", out)
	}
	out = ftOK(t, readFileTool, w.env, map[string]any{"path": "a.txt", "start_line": 29, "end_line": 100})
	ftContains(t, out, "29\tline 29\n30\tline 30\n")
	ftFail(t, readFileTool, w.env, map[string]any{"path": "a.txt", "start_line": 31}, "past the end of a.txt (30 lines)")
	ftFail(t, readFileTool, w.env, map[string]any{"path": "a.txt", "start_line": 5, "end_line": 4}, "after end_line")
	ftFail(t, readFileTool, w.env, map[string]any{"path": "a.txt", "start_line": 0}, "at least 1")
	ftFail(t, readFileTool, w.env, map[string]any{"path": "a.txt", "start_line": "3"}, `field "start_line" must be an integer, got a string`)
	if out := ftOK(t, readFileTool, w.env, map[string]any{"path": "crlf.txt"}); out != "1\tone\n2\ttwo\n" {
		t.Errorf("crlf: %q", out)
	}
	ftContains(t, ftOK(t, readFileTool, w.env, map[string]any{"path": "empty.txt"}), "empty")
	ftContains(t, ftOK(t, readFileTool, w.env, map[string]any{"path": w.path("sub/b.go")}), "1\tpackage b")
	a, err := accessOf(readFileTool, w.env, ftInput(t, map[string]any{"path": "sub/b.go"}))
	if err != nil || a.Kind != access.Read || len(a.Paths) != 1 || a.Paths[0] != "sub/b.go" {
		t.Errorf("access %+v %v", a, err)
	}
}

func TestReadFileTokenBudget(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&b, "func f%d() { return compute(%d, \"some text here\") }\n", i, i)
	}
	w := ftNew(t, map[string]string{"big.go": b.String(), "long.txt": strings.Repeat("word ", 5000) + "\n"})
	out := ftOK(t, readFileTool, w.env, map[string]any{"path": "big.go", "max_tokens": 500})
	ftContains(t, out, "[truncated to stay within max_tokens=500 (counted with cl100k_base)", "continue with start_line=")
	body := out[:strings.LastIndex(out, "[truncated")]
	n, err := countTokens(body)
	if err != nil {
		t.Fatal(err)
	}
	if n > 500 || n < 400 {
		t.Errorf("body is %d tokens, want at most 500 and close to it", n)
	}
	if !strings.HasSuffix(body, "\n") {
		t.Error("truncation is not at a line boundary")
	}
	// Continue where it said.
	var next int
	fmt.Sscanf(out[strings.Index(out, "start_line=")+len("start_line="):], "%d", &next)
	out2 := ftOK(t, readFileTool, w.env, map[string]any{"path": "big.go", "start_line": next, "max_tokens": 500})
	if !strings.HasPrefix(strings.TrimLeft(out2, " "), fmt.Sprintf("%d\tfunc f%d()", next, next)) {
		t.Errorf("continuation starts with %q", out2[:40])
	}
	// A single line over the budget is cut, and says so.
	out = ftOK(t, readFileTool, w.env, map[string]any{"path": "long.txt", "max_tokens": 100})
	ftContains(t, out, "line 1 alone is over max_tokens=100")
	if n, _ := countTokens(out[:strings.Index(out, "[line 1")]); n > 101 {
		t.Errorf("cut line is %d tokens", n)
	}
}

func TestDiskViewOverlay(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "disk\n"})
	abs := w.path("a.txt")
	w.env.Files = &DiskView{Overlay: func(p string) ([]byte, int32, bool) {
		if p == abs {
			return []byte("buffer\n"), 7, true
		}
		return nil, 0, false
	}}
	if out := ftOK(t, readFileTool, w.env, map[string]any{"path": "a.txt"}); out != "1\tbuffer\n" {
		t.Errorf("read_file ignores the overlay: %q", out)
	}
	content, version, err := w.env.Files.Read(abs)
	if err != nil || string(content) != "buffer\n" || version != 7 {
		t.Errorf("Read = %q %d %v", content, version, err)
	}
	ftContains(t, ftOK(t, fileInfoTool, w.env, map[string]any{"path": "a.txt"}), "unsaved changes (version 7")
	ftWrite(t, w.root, "b.txt", "b\n")
	if _, version, _ := w.env.Files.Read(w.path("b.txt")); version != DiskVersion {
		t.Errorf("disk version %d", version)
	}
}
