package tools

import (
	"context"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
)

func TestWriteFile(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": "old\n"})
	out := ftOK(t, writeFileTool, w.env, map[string]any{"path": "new/dir/b.txt", "content": "one\ntwo\n"})
	ftContains(t, out, "Created new/dir/b.txt (2 lines")
	if got := w.read(t, "new/dir/b.txt"); got != "one\ntwo\n" {
		t.Errorf("created %q", got)
	}
	res := ftRun(t, writeFileTool, w.env, map[string]any{"path": "a.txt", "content": "new\n"})
	if res.IsError || len(res.Changes) != 1 || res.Changes[0].Op != OpModify || string(res.Changes[0].Old) != "old\n" || res.Changes[0].Version != DiskVersion {
		t.Fatalf("overwrite: %+v", res)
	}
	if got := w.read(t, "a.txt"); got != "new\n" {
		t.Errorf("overwritten %q", got)
	}
	ftContains(t, ftOK(t, writeFileTool, w.env, map[string]any{"path": "a.txt", "content": "new\n"}), "nothing changed")
	if w.editor.UndoDepth() != 2 {
		t.Errorf("undo depth %d", w.editor.UndoDepth())
	}
	a, err := accessOf(writeFileTool, w.env, ftInput(t, map[string]any{"path": "x/y.txt", "content": ""}))
	if err != nil || a.Kind != access.Edit || a.Paths[0] != "x/y.txt" {
		t.Errorf("access %+v %v", a, err)
	}
	w.env.Editor = nil
	ftFail(t, writeFileTool, w.env, map[string]any{"path": "a.txt", "content": "z"}, "editing is unavailable")
}

// ftRejecter is an Editor whose user says no.
type ftRejecter struct{}

func (ftRejecter) Apply(context.Context, string, []FileChange) (ApplyResult, error) {
	return ApplyResult{Applied: false, Reason: "the user rejected the edit"}, nil
}

func TestEditFile(t *testing.T) {
	src := "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	w := ftNew(t, map[string]string{"a.go": src, "crlf.txt": "x\r\ny\r\nz\r\n"})
	edit := func(old, new string, all bool) map[string]any {
		return map[string]any{"path": "a.go", "old_string": old, "new_string": new, "replace_all": all}
	}
	ftFail(t, editFileTool, w.env, edit("return 2", "x", false), "old_string not found; read the file again")
	ftFail(t, editFileTool, w.env, edit("func a() {\n    return 1", "x", false), "it does match if whitespace is ignored")
	ftFail(t, editFileTool, w.env, edit("return 1", "return 2", false), "old_string matches 2 times (at lines 2, 6)")
	ftFail(t, editFileTool, w.env, edit("return 1", "return 1", false), "identical")
	ftFail(t, editFileTool, w.env, edit("", "x", false), "old_string is empty")
	if got := w.read(t, "a.go"); got != src {
		t.Fatalf("failed edits changed the file: %q", got)
	}
	out := ftOK(t, editFileTool, w.env, edit("func b() {\n\treturn 1", "func b() {\n\treturn 2", false))
	ftContains(t, out, "Edited a.go: replaced 1 occurrence starting at line 5.", "6\t\treturn 2")
	out = ftOK(t, editFileTool, w.env, edit("return", "yield", true))
	ftContains(t, out, "replaced 2 occurrences starting at line 2")
	if got := w.read(t, "a.go"); got != "func a() {\n\tyield 1\n}\n\nfunc b() {\n\tyield 2\n}\n" {
		t.Errorf("after edits: %q", got)
	}
	// The model sends LF; the file has CRLF.
	ftOK(t, editFileTool, w.env, map[string]any{"path": "crlf.txt", "old_string": "x\ny", "new_string": "X\nY"})
	if got := w.read(t, "crlf.txt"); got != "X\r\nY\r\nz\r\n" {
		t.Errorf("crlf edit: %q", got)
	}
	w.env.Editor = ftRejecter{}
	ftFail(t, editFileTool, w.env, edit("yield 1", "yield 3", false), "not applied: the user rejected the edit")
}

func TestMultiEdit(t *testing.T) {
	src := "alpha\nbeta\ngamma\n"
	w := ftNew(t, map[string]string{"a.txt": src})
	in := func(edits ...map[string]any) map[string]any { return map[string]any{"path": "a.txt", "edits": edits} }
	e := func(old, new string) map[string]any { return map[string]any{"old_string": old, "new_string": new} }
	// The third edit fails: nothing of the first two is written.
	msg := ftFail(t, multiEditTool, w.env, in(e("alpha", "ALPHA"), e("beta", "BETA"), e("delta", "DELTA")), "edit 3 of 3 (after applying edits 1-2): old_string not found")
	ftContains(t, msg, "No edits were applied")
	if got := w.read(t, "a.txt"); got != src {
		t.Fatalf("rollback failed: %q", got)
	}
	ftFail(t, multiEditTool, w.env, in(e("a", "b")), "edit 1 of 1: old_string matches")
	ftFail(t, multiEditTool, w.env, map[string]any{"path": "a.txt", "edits": []any{}}, "edits is empty")
	ftFail(t, multiEditTool, w.env, in(), `missing required field "edits"`)
	ftFail(t, multiEditTool, w.env, map[string]any{"path": "a.txt", "edits": []map[string]any{{"old_string": "a"}}}, `missing required field "edits[0].new_string"`)
	// Later edits see earlier results.
	out := ftOK(t, multiEditTool, w.env, in(e("alpha", "ALPHA"), e("ALPHA\nbeta", "ALPHA\nBETA"), map[string]any{"old_string": "A", "new_string": "a", "replace_all": true}))
	ftContains(t, out, "Edited a.txt with 3 edits")
	if got := w.read(t, "a.txt"); got != "aLPHa\nBETa\ngamma\n" {
		t.Errorf("result %q", got)
	}
	if w.editor.UndoDepth() != 1 {
		t.Errorf("multi_edit must be one undo step, depth %d", w.editor.UndoDepth())
	}
}

func TestFileDelta(t *testing.T) {
	src := "1\n2\n3\n4\n5\n"
	op := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	tests := []struct {
		name string
		src  string
		ops  []map[string]any
		want string // result, or the error when it starts with "!"
	}{
		{"insert at top", src, []map[string]any{op("op", "insert", "line", 1, "content", "0")}, "0\n1\n2\n3\n4\n5\n"},
		{"append", src, []map[string]any{op("op", "insert", "line", 6, "content", "6\n7\n")}, "1\n2\n3\n4\n5\n6\n7\n"},
		{"delete range", src, []map[string]any{op("op", "delete", "line", 2, "end_line", 4)}, "1\n5\n"},
		{"replace one", src, []map[string]any{op("op", "replace", "line", 3, "content", "three")}, "1\n2\nthree\n4\n5\n"},
		{"original numbering, any order", src, []map[string]any{
			op("op", "replace", "line", 5, "content", "five"),
			op("op", "delete", "line", 1),
			op("op", "insert", "line", 3, "content", "2.5a\n2.5b"),
			op("op", "insert", "line", 3, "content", "2.5c"),
		}, "2\n2.5a\n2.5b\n2.5c\n3\n4\nfive\n"},
		{"insert before replaced range", src, []map[string]any{
			op("op", "replace", "line", 2, "end_line", 3, "content", "x"),
			op("op", "insert", "line", 2, "content", "before"),
			op("op", "insert", "line", 4, "content", "after"),
		}, "1\nbefore\nx\nafter\n4\n5\n"},
		{"empty content is one empty line", src, []map[string]any{op("op", "replace", "line", 1, "content", "")}, "\n2\n3\n4\n5\n"},
		{"crlf kept", "a\r\nb\r\n", []map[string]any{op("op", "insert", "line", 2, "content", "x\n")}, "a\r\nx\r\nb\r\n"},
		{"no final newline kept", "a\nb", []map[string]any{op("op", "replace", "line", 2, "content", "c")}, "a\nc"},
		{"empty file", "", []map[string]any{op("op", "insert", "line", 1, "content", "first")}, "first\n"},
		{"delete everything", src, []map[string]any{op("op", "delete", "line", 1, "end_line", 5)}, ""},
		{"overlap", src, []map[string]any{op("op", "delete", "line", 2, "end_line", 4), op("op", "replace", "line", 4, "content", "x")}, "!operations 1 and 2 overlap (lines 2-4 and line 4)"},
		{"insert inside range", src, []map[string]any{op("op", "delete", "line", 2, "end_line", 4), op("op", "insert", "line", 3, "content", "x")}, "!operations 1 and 2 overlap (lines 2-4 and insert before line 3)"},
		{"line past end", src, []map[string]any{op("op", "delete", "line", 6)}, "!operation 1 (delete at line 6): line is past the end of the file (5 lines)"},
		{"insert past end", src, []map[string]any{op("op", "insert", "line", 7, "content", "x")}, "!line must be between 1 and 6"},
		{"end before line", src, []map[string]any{op("op", "replace", "line", 3, "end_line", 2, "content", "x")}, "!end_line must be between 3 and 5"},
		{"end past end", src, []map[string]any{op("op", "delete", "line", 3, "end_line", 9)}, "!end_line must be between 3 and 5"},
		{"missing content", src, []map[string]any{op("op", "replace", "line", 1)}, "!content is required"},
		{"content on delete", src, []map[string]any{op("op", "delete", "line", 1, "content", "x")}, "!content does not apply to delete"},
		{"end_line on insert", src, []map[string]any{op("op", "insert", "line", 1, "end_line", 2, "content", "x")}, "!end_line does not apply to insert"},
		{"bad op", src, []map[string]any{op("op", "move", "line", 1)}, `!field "operations[0].op" must be one of insert, delete, replace`},
		{"line zero", src, []map[string]any{op("op", "delete", "line", 0)}, `!field "operations[0].line" must be at least 1`},
		{"no ops", src, []map[string]any{}, "!operations is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := ftNew(t, map[string]string{"f.txt": tt.src})
			in := map[string]any{"path": "f.txt", "operations": tt.ops}
			if msg, ok := strings.CutPrefix(tt.want, "!"); ok {
				ftFail(t, fileDeltaTool, w.env, in, msg)
				if got := w.read(t, "f.txt"); got != tt.src {
					t.Errorf("file changed on error: %q", got)
				}
				return
			}
			ftOK(t, fileDeltaTool, w.env, in)
			if got := w.read(t, "f.txt"); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
