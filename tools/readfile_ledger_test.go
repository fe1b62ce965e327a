package tools

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/parleyhq/parley/tools/ledger"
)

func ledgerFile(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// read_file through a session's ledger: a stub for an unchanged re-read, a
// diff for an outside change, a certificate after the agent's own edit,
// the text again with full: true; each line-range read is its own.
func TestReadFileLedger(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": ledgerFile(60)})
	w.env.Ledger = ledger.NewMemory()
	ctx := ledger.WithTurn(context.Background(), 1)
	read := func(in map[string]any) string {
		t.Helper()
		res, err := runTool(ctx, readFileTool, w.env, ftInput(t, in))
		if err != nil || res.IsError {
			t.Fatalf("read_file %v: %v %+v", in, err, res)
		}
		return res.Content
	}
	a := map[string]any{"path": "a.txt"}
	ftContains(t, read(a), "1\tline 1\n", "60\tline 60\n")
	if got := read(a); got != "[a.txt unchanged since your read at turn 1 (lines 1–60); full: true shows it]\n" {
		t.Errorf("unchanged re-read = %q", got)
	}
	ftContains(t, read(map[string]any{"path": "a.txt", "full": true}), "60\tline 60\n")

	ctx = ledger.WithTurn(context.Background(), 2)
	ftWrite(t, w.root, "a.txt", strings.Replace(ledgerFile(60), "line 30\n", "thirty\n", 1))
	ftContains(t, read(a), "[a.txt changed since your read at turn 1;", "-line 30\n+thirty\n")

	ctx = ledger.WithTurn(context.Background(), 3)
	if _, err := runTool(ctx, editFileTool, w.env, ftInput(t, map[string]any{"path": "a.txt", "old_string": "line 40\n", "new_string": "forty\n"})); err != nil {
		t.Fatal(err)
	}
	ftContains(t, read(a), "[a.txt is as your edit at turn 3 left it: 60 lines", "changed: line 40", "40\tforty\n")
	ftContains(t, read(a), "unchanged since your edit at turn 3")

	b := map[string]any{"path": "a.txt", "start_line": 5, "end_line": 9}
	ftContains(t, read(b), "lines 5–9 unchanged since your edit at turn 3")
	if err := os.Remove(w.path("a.txt")); err != nil {
		t.Fatal(err)
	}
	ftWrite(t, w.root, "a.txt", "new\n")
	if got := read(a); got != "1\tnew\n" {
		t.Errorf("read of a rewritten file = %q", got)
	}
}

// bufferView is an editor's FileView: buffers that differ from the disk.
type bufferView struct {
	bufs map[string]string
	ver  int32
}

func (v *bufferView) Read(abs string) ([]byte, int32, error) {
	if s, ok := v.bufs[abs]; ok {
		return []byte(s), v.ver, nil
	}
	return (&DiskView{}).Read(abs)
}

// In the editor, what the model saw and what is there now are buffer
// versions: an unsaved change shows up as a diff though the disk is the
// same, and a saved buffer equal to what was read is unchanged.
func TestReadFileLedgerBuffers(t *testing.T) {
	w := ftNew(t, map[string]string{"a.txt": ledgerFile(40)})
	view := &bufferView{bufs: map[string]string{}, ver: 1}
	w.env.Files, w.env.Ledger = view, ledger.NewMemory()
	a := ftInput(t, map[string]any{"path": "a.txt"})
	ctx := ledger.WithTurn(context.Background(), 1)
	read := func() string {
		t.Helper()
		res, err := runTool(ctx, readFileTool, w.env, a)
		if err != nil || res.IsError {
			t.Fatalf("read_file: %v %+v", err, res)
		}
		return res.Content
	}
	read()
	view.bufs[w.path("a.txt")], view.ver = strings.Replace(ledgerFile(40), "line 7\n", "seven\n", 1), 2
	ftContains(t, read(), "-line 7\n+seven\n")
	// The user saves: the disk now has what the model saw.
	ftWrite(t, w.root, "a.txt", view.bufs[w.path("a.txt")])
	delete(view.bufs, w.path("a.txt"))
	ftContains(t, read(), "unchanged since your read at turn 1")
}

// goFile is a Go file of n functions, each with a five-line body.
func goFile(n int) string {
	var b strings.Builder
	b.WriteString("// Package big is large.\npackage big\n\nimport \"fmt\"\n\n// T is a type.\ntype T struct {\n\tA int\n}\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\n// F%d does %d.\nfunc F%d(x int) int {\n\ty := x + %d\n\tfmt.Println(y)\n\ty *= 2\n\ty -= %d\n\treturn y\n}\n", i, i, i, i, i)
	}
	return b.String()
}

// The first read of a large file is its outline; an edit inside an
// elided body is refused until the model reads it (read_file or
// get_symbol); an edit elsewhere goes ahead and is certified.
func TestReadFileOutline(t *testing.T) {
	src := goFile(30)
	w := ftNew(t, map[string]string{"big.go": src})
	w.env.Ledger = ledger.NewMemory()
	ctx := ledger.WithTurn(context.Background(), 1)
	run := func(tool Tool, in map[string]any) *Result {
		t.Helper()
		res, err := runTool(ctx, tool, w.env, ftInput(t, in))
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	out := run(readFileTool, map[string]any{"path": "big.go"}).Content
	ftContains(t, out, "[outline of big.go (", "\n4\timport \"fmt\"\n", "\n7\ttype T struct {\n", "\n8\t\tA int\n",
		"// F17 does 17.\n", "func F17(x int) int {\n…\n")
	if strings.Contains(out, "y *= 2") {
		t.Errorf("the outline shows a body:\n%s", out)
	}
	ftContains(t, run(readFileTool, map[string]any{"path": "big.go"}).Content, "your outline read")

	res := run(editFileTool, map[string]any{"path": "big.go", "old_string": "\ty := x + 3\n", "new_string": "\ty := x + 33\n"})
	if !res.IsError || !strings.Contains(res.Content, "inside lines 31–37, which the outline you read elided; read them first (read_file start_line=31 end_line=37)") {
		t.Fatalf("edit in an elided body: %+v", res)
	}
	res = run(multiEditTool, map[string]any{"path": "big.go", "edits": []map[string]any{{"old_string": "F1(x", "new_string": "G1(x"}, {"old_string": "\ty := x + 3\n", "new_string": "\ty := x + 33\n"}}})
	if !res.IsError || !strings.Contains(res.Content, "(edit 2 of 2). No edits were applied.") {
		t.Fatalf("multi_edit in an elided body: %+v", res)
	}
	ftContains(t, run(readFileTool, map[string]any{"path": "big.go", "start_line": 31, "end_line": 35}).Content, "33\t\ty *= 2\n")
	if res := run(editFileTool, map[string]any{"path": "big.go", "old_string": "\ty := x + 3\n", "new_string": "\ty := x + 33\n"}); res.IsError {
		t.Fatalf("edit of a body read since: %s", res.Content)
	}
	// A signature the outline showed may be edited without reading more.
	if res := run(editFileTool, map[string]any{"path": "big.go", "old_string": "func F20(x int) int {", "new_string": "func F20(x, z int) int {"}); res.IsError {
		t.Fatalf("edit of a shown signature: %s", res.Content)
	}
	ftContains(t, run(readFileTool, map[string]any{"path": "big.go"}).Content, "is as your edit at turn 1 left it", "changed: line 183")
	ftContains(t, run(readFileTool, map[string]any{"path": "big.go", "full": true}).Content, "y *= 2")
}

// get_symbol shows a body an outline elided, and the edit refused before
// goes ahead after it.
func TestGetSymbolExpandsOutline(t *testing.T) {
	w := ftIndexed(t)
	w.env.Ledger = ledger.NewMemory()
	abs := w.path("main.go")
	content := []byte(w.read(t, "main.go"))
	lines := splitLines(string(content))
	ov := ledger.RenderOutline("main.go", lines, []ledger.Range{{Start: 16, End: 24}})
	r := ledger.Request{Path: abs, Shown: "main.go", Content: content, Start: 1, End: len(lines), Turn: 1, Outline: &ov}
	if err := w.env.Ledger.Record(r, w.env.Ledger.Read(r), ledger.Range{}, ledger.Tokens{}); err != nil {
		t.Fatal(err)
	}
	edit := map[string]any{"path": "main.go", "old_string": "return fmt.Errorf(\"empty\")", "new_string": "return fmt.Errorf(\"no request\")"}
	ftFail(t, editFileTool, w.env, edit, "inside lines 16–24, which the outline you read elided")
	ftOK(t, getSymbolTool, w.env, map[string]any{"name": "Server.Serve"})
	ftOK(t, editFileTool, w.env, edit)
}
