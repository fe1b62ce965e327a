package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
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
