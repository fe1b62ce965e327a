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
	if got := read(a); got != "[a.txt unchanged since your read at turn 1 (lines 1–60); pass full: true to see it again]\n" {
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
