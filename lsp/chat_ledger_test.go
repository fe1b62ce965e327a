package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// In the editor the re-read ledger compares buffer versions: what the
// model read (the disk, for a closed file) against the unsaved text the
// user typed since, and the agent's own edit (applied to the buffer, not
// saved) is confirmed by a certificate.
func TestChatLedgerBuffers(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "acceptEdits"}`, false)
	var b strings.Builder
	b.WriteString("package chat\n")
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "\nfunc F%d() int { return %d }\n", i, i)
	}
	long := b.String()
	if err := os.WriteFile(filepath.Join(e.root, "long.go"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	read := calls("read_file", `{"path": "long.go"}`)
	m.script("look",
		read, reply("seen"),
		read, read,
		calls("edit_file", `{"path": "long.go", "old_string": "return 12 }", "new_string": "return 1200 }"}`),
		read, reply("done"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "look"}))
	e.openText("long.go", strings.Replace(long, "return 7 }", "return 700 }", 1))
	awaitChat(t, e.chatCall(context.Background(), ChatParams{Session: res.Session, Message: "again"}))

	r := toolResults(e.events(res.Session))["read_file"]
	if len(r) != 4 {
		t.Fatalf("read_file results %q", r)
	}
	for i, want := range []string{
		"41\tfunc F20() int { return 20 }",
		"-func F7() int { return 7 }\n+func F7() int { return 700 }\n",
		"[long.go unchanged since your read at turn 2 (lines 1–41)",
		"long.go is as your edit at turn 2 left it: 41 lines",
	} {
		if !strings.Contains(r[i], want) {
			t.Errorf("read %d: %q lacks %q", i+1, r[i], want)
		}
	}
	if got, _ := e.docText("long.go"); !strings.Contains(got, "return 1200 }") {
		t.Errorf("the edit is not in the buffer: %q", got)
	}
	if disk := mustRead(t, e, "long.go"); disk != long {
		t.Errorf("the disk changed: %q", disk)
	}
}
