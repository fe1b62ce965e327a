package lsp

import (
	"path/filepath"
	"slices"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestPythonNavigation: the server answers Python definition, references
// and highlights from syntax (index/testdata/resolve_py.txtar): an import
// alias leads to the declaration, a parameter shadowing the imported name
// is not one of its references.
func TestPythonNavigation(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_py.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	// h() on line 13 (0-based 12): `from pkg.util import helper as h`.
	if got, want := definitions(t, e, "app/main.py", pos(12, 4)), []string{"pkg/util.py:3:4-10"}; !slices.Equal(got, want) {
		t.Errorf("definition of h: %v, want %v", got, want)
	}
	// u.save() on line 18: Base.save, through User's base class.
	if got, want := definitions(t, e, "app/main.py", pos(16, 6)), []string{"pkg/models.py:3:8-12"}; !slices.Equal(got, want) {
		t.Errorf("definition of u.save: %v, want %v", got, want)
	}
	var locs []protocol.Location
	e.mustCall(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: e.tdpp("pkg/util.py", pos(3, 5)),
		Context:                    protocol.ReferenceContext{IncludeDeclaration: true},
	}, &locs)
	want := []string{"app/main.py:3:21-27", "app/main.py:13:9-15", "pkg/__init__.py:0:18-24", "pkg/util.py:3:4-10"}
	if got := locStrings(root, locs); !slices.Equal(got, want) {
		t.Errorf("references of helper:\n got %v\nwant %v", got, want)
	}
	var hs []protocol.DocumentHighlight
	e.mustCall(protocol.MethodTextDocumentDocumentHighlight, &protocol.DocumentHighlightParams{TextDocumentPositionParams: e.tdpp("app/main.py", pos(24, 9))}, &hs)
	var lines []uint32
	for _, h := range hs {
		lines = append(lines, h.Range.Start.Line)
	}
	// inner's parameter helper (line 25) and its call, not the import.
	if !slices.Equal(lines, []uint32{23, 24}) {
		t.Errorf("highlights of the parameter helper: lines %v, want [23 24]", lines)
	}
}

// TestTypeScriptNavigation: the same for TypeScript
// (index/testdata/resolve_ts.txtar): a re-exported alias leads to the
// declaration; a parameter and a block constant named like it are not its
// references.
func TestTypeScriptNavigation(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "testdata", "resolve_ts.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	// assist(helper) on line 13: `export { helper as assist }` in index.ts.
	if got, want := definitions(t, e, "src/app.ts", pos(12, 3)), []string{"src/util/help.ts:0:16-22"}; !slices.Equal(got, want) {
		t.Errorf("definition of assist: %v, want %v", got, want)
	}
	var locs []protocol.Location
	e.mustCall(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: e.tdpp("src/util/help.ts", pos(0, 17)),
		Context:                    protocol.ReferenceContext{IncludeDeclaration: true},
	}, &locs)
	want := []string{"src/index.ts:1:9-15", "src/util/help.ts:0:16-22"}
	if got := locStrings(root, locs); !slices.Equal(got, want) {
		t.Errorf("references of helper:\n got %v\nwant %v", got, want)
	}
}
