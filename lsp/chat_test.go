package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/provider"
)

// chatEditor starts a fake editor with agent capabilities serving model m
// under the configuration layer.
func chatEditor(t *testing.T, m provider.Provider, layer string, annotate bool) *fakeEditor {
	t.Helper()
	root := loadTxtar(t, "testdata/chat.txtar")
	e := startEditor(t, root, editorConfig{progress: true, agent: true, annotate: annotate, serverOpts: agentOpts(m, layer)})
	e.waitIndexed(1)
	return e
}

func awaitChat(t *testing.T, c <-chan chatOutcome) ChatResult {
	t.Helper()
	select {
	case out := <-c:
		if out.err != nil {
			t.Fatalf("parley/chat: %v", out.err)
		}
		return out.res
	case <-time.After(waitTimeout):
		t.Fatal("parley/chat did not answer")
	}
	return ChatResult{}
}

// One turn does what a real one does: reads a file with unsaved changes,
// edits an open and a closed file, runs an approved command, has an edit
// rejected and a command denied, and finishes.
func TestChatTurn(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "default"}`, true)
	unsaved := strings.Replace(mustRead(t, e, "a.go"), `"hello"`, `"hello, UNSAVED"`, 1)
	e.openText("a.go", unsaved)
	e.agent.answers = []string{approveOnce, approveDeny}
	edits := 0
	e.agent.reject = func(wireApply) string {
		// Each edit is one applyEdit: step 4's is the third.
		if edits++; edits == 3 {
			return "the user discarded it"
		}
		return ""
	}
	m.script("work please",
		calls("read_file", `{"path": "a.go"}`),
		calls("edit_file", `{"path": "a.go", "old_string": "UNSAVED", "new_string": "EDITED"}`,
			"edit_file", `{"path": "b.go", "old_string": "bye", "new_string": "so long"}`),
		calls("shell", `{"command": "echo approved-output"}`),
		calls("edit_file", `{"path": "a.go", "old_string": "EDITED", "new_string": "REJECTED"}`),
		calls("shell", `{"command": "touch denied.txt"}`),
		calls("read_file", `{"path": "b.go"}`),
		reply("All done."),
	)
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "work please"}))
	if res.StopReason != "end_turn" || res.Text != "All done." || res.Turn != 1 || res.Session == "" {
		t.Fatalf("result %+v", res)
	}
	evs := e.events(res.Session)
	results := toolResults(evs)
	if r := results["read_file"]; len(r) != 2 || !strings.Contains(r[0], "UNSAVED") || !strings.Contains(r[1], "so long") {
		t.Errorf("read_file saw %q; want the unsaved buffer, then the edit to the closed file", r)
	}
	if r := results["shell"]; len(r) != 2 || !strings.Contains(r[0], "approved-output") || !strings.Contains(r[1], "denied") {
		t.Errorf("shell results %q", r)
	}
	if r := results["edit_file"]; len(r) != 3 || !strings.Contains(r[2], "the user discarded it") {
		t.Errorf("edit_file results %q; the third must carry the rejection", r)
	}
	if got, v := e.docText("a.go"); !strings.Contains(got, "EDITED") || v != 2 {
		t.Errorf("a.go in the editor (v%d): %q", v, got)
	}
	if got, _ := e.bufferText("b.go"); !strings.Contains(got, "so long") {
		t.Errorf("b.go buffer %q", got)
	}
	if disk := mustRead(t, e, "b.go"); strings.Contains(disk, "so long") {
		t.Error("the closed file was written to disk behind the editor")
	}
	if _, err := os.Stat(filepath.Join(e.root, "denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
	if len(e.agent.asked) != 2 || !strings.Contains(e.agent.asked[0], "echo approved-output") {
		t.Errorf("questions %q; edits are confirmed by the editor, commands asked", e.agent.asked)
	}
	first := e.agent.applied[0]
	if a, ok := first.Edit.ChangeAnnotations["parley.edit"]; !ok || !a.NeedsConfirmation {
		t.Errorf("edit without a confirmation annotation: %+v", first.Edit.ChangeAnnotations)
	}
	k := kinds(evs)
	for _, want := range []string{"toolCall", "toolResult", "edit", "usage", "text", "done"} {
		if !slices.Contains(k, want) {
			t.Errorf("no %s event in %v", want, k)
		}
	}
	if k[len(k)-1] != "done" {
		t.Errorf("last event %s", k[len(k)-1])
	}
	if n := len(e.events("")); n != len(evs) {
		t.Errorf("events of other sessions: %d of %d", n-len(evs), n)
	}
}

func mustRead(t *testing.T, e *fakeEditor, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(e.root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
