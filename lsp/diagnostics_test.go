package lsp

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/testenv"
)

// In the editor the agent's diagnostics are the editor's own: after an
// edit of an open document the server asks with the version the edit
// produced, and the model sees what the editor answered; the next edit
// reports only what changed.
func TestChatDiagnosticsFromEditor(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "acceptEdits"}`, false)
	e.openText("a.go", mustRead(t, e, "a.go"))
	aURI := string(uri.File(filepath.Join(e.root, "a.go")))
	e.agent.mu.Lock()
	e.agent.diagnostics = map[string]string{aURI: `[{"range":{"start":{"line":3,"character":32},"end":{"line":3,"character":39}},
		"severity":1,"source":"compiler","code":"IncompatibleAssign","message":"cannot use 1 (untyped int constant) as string value in return statement"}]`}
	e.agent.mu.Unlock()
	m.script("break it",
		calls("edit_file", `{"path": "a.go", "old_string": "return \"hello\"", "new_string": "return 1"}`),
		calls("get_diagnostics", `{}`),
		reply("Broken."),
	)
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "break it"}))
	results := toolResults(e.events(res.Session))
	edit := results["edit_file"]
	if len(edit) != 1 || !strings.Contains(edit[0], "Diagnostics after this edit:\na.go: 1 new problem (the editor)\n  a.go:4:33 error [compiler] cannot use 1") {
		t.Fatalf("edit_file result %q", edit)
	}
	if got := results["get_diagnostics"]; len(got) != 1 || !strings.Contains(got[0], "a.go: 1 problem (the editor)") {
		t.Errorf("get_diagnostics result %q", got)
	}
	e.agent.mu.Lock()
	reqs := e.agent.diagRequests
	e.agent.mu.Unlock()
	// The baseline (no version), the edit's (its version), get_diagnostics'.
	if len(reqs) != 3 || reqs[0].Version != nil || reqs[1].Version == nil || *reqs[1].Version != 2 ||
		reqs[1].TimeoutMS != 2000 || reqs[1].URIs[0] != aURI || reqs[2].Version != nil {
		t.Errorf("requests %+v", reqs)
	}
}

// A client without parley/diagnostics gets parley's own language servers,
// as the terminal does: gopls is told the agent's text.
func TestChatDiagnosticsFallback(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		testenv.Need(t, "gopls is not on PATH (go install golang.org/x/tools/gopls)")
	}
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "acceptEdits", "lsp_timeout_ms": 30000}`, false)
	e.agent.mu.Lock()
	e.agent.noDiagnostics = true
	e.agent.mu.Unlock()
	e.openText("a.go", mustRead(t, e, "a.go"))
	m.script("break it",
		calls("edit_file", `{"path": "a.go", "old_string": "return \"hello\"", "new_string": "return 1"}`),
		calls("edit_file", `{"path": "a.go", "old_string": "return 1", "new_string": "return \"hi\""}`),
		reply("Done."),
	)
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "break it"}))
	edits := toolResults(e.events(res.Session))["edit_file"]
	if len(edits) != 2 || !strings.Contains(edits[0], "a.go: 1 new problem (gopls)") || !strings.Contains(edits[0], "a.go:4:") {
		t.Fatalf("first edit %q", edits)
	}
	if !strings.Contains(edits[1], "a.go: 1 problem fixed, none new (gopls)") {
		t.Errorf("second edit %q", edits[1])
	}
}
