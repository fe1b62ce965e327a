package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/internal/fakellm"
)

// TestNextEditRename: renaming a parameter proposes renaming its uses, for
// the document version the rename produced and never for another.
func TestNextEditRename(t *testing.T) {
	e, _ := completionEditor(t, "", "")
	const file = "store/scale.go"
	e.open(file)
	e.typeLine(file, 2, 3, "func Scale(count int, by int) int {")
	ask := func(version int32) NextEditResult {
		var res NextEditResult
		e.mustCall(methodNextEdit, NextEditParams{
			TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: e.uri(file)}, Version: version},
			Position:     protocol.Position{Line: 3, Character: 16},
		}, &res)
		return res
	}
	res := ask(2)
	if res.Why != "rename n to count: 3 more uses" || len(res.Edits) != 3 || res.Command == nil || res.Command.Command != commandNextEditAccepted {
		t.Fatalf("proposal %+v", res)
	}
	var lines []string
	for _, ed := range res.Edits {
		if ed.TextDocument.URI != e.uri(file) || ed.TextDocument.Version == nil || *ed.TextDocument.Version != 2 || ed.NewText != "count" {
			t.Errorf("edit %+v", ed)
		}
		if ed.Range.End.Character-ed.Range.Start.Character != 1 || ed.Range.Start.Line == 3 {
			t.Errorf("edit range %+v", ed.Range)
		}
		lines = append(lines, string(rune('0'+ed.Range.Start.Line)))
	}
	if got := strings.Join(lines, ","); got != "4,5,7" {
		t.Errorf("edited lines %s, want 4,5,7", got)
	}
	if stale := ask(1); len(stale.Edits) != 0 || !strings.HasPrefix(stale.Reason, "stale") {
		t.Errorf("a proposal for an old version: %+v", stale)
	}
	e.mustCall(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: res.Command.Command, Arguments: res.Command.Arguments}, nil)
}

// TestNextEditModel: with completion.next_edit "model", an edit the index
// finds nothing after goes to the chat model (the agent's, here the fake
// API through the real provider), whose rewritten region becomes the
// proposal.
func TestNextEditModel(t *testing.T) {
	want := "package store\n\nfunc name(k int) string {\n\tswitch k {\n\tcase 1:\n\t\treturn strings.ToUpper(\"one\")\n\tcase 2:\n\t\treturn strings.ToUpper(\"two\")\n\t}\n\treturn \"\"\n}\n"
	script := "text <region>\\n" + strings.ReplaceAll(want, "\n", "\\n") + "</region>\n"
	url, fake := fakellm.Start(t, script)
	user := filepath.Join(t.TempDir(), "config.json")
	cfg := `{"provider": "openai-compatible", "api_url": "` + url + `/v1/chat/completions", "model": "fake-model", "completion": {"next_edit": "model"}}`
	if err := os.WriteFile(user, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	root := loadTxtar(t, "testdata/complete.txtar")
	e := startEditor(t, root, editorConfig{utf8: true, serverOpts: func(o *Options) {
		o.Agent.Config = config.Options{UserFile: user, Getenv: func(k string) string {
			if k == "PARLEY_API_KEY" {
				return "sk-fake"
			}
			return ""
		}}
	}})
	e.waitIndexed(1)
	const file = "store/name.go"
	e.open(file)
	e.typeLine(file, 2, 5, "\t\treturn strings.ToUpper(\"one\")")
	var res NextEditResult
	e.mustCall(methodNextEdit, NextEditParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: e.uri(file)}, Version: 2},
		Position:     protocol.Position{Line: 5, Character: 31},
	}, &res)
	if len(res.Edits) != 1 {
		t.Fatalf("proposal %+v", res)
	}
	ed := res.Edits[0]
	if ed.Range.Start.Line != 7 || ed.Range.End.Line != 8 || ed.Range.Start.Character != 0 || ed.NewText != "\t\treturn strings.ToUpper(\"two\")\n" {
		t.Errorf("edit %+v", ed)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0]), `+\t\treturn strings.ToUpper(\"one\")`) || !strings.Contains(string(reqs[0]), "<|cursor|>") {
		t.Errorf("the model's request: %d, %.600s", len(reqs), reqs)
	}
}
