package lsp

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/internal/fixture"
)

// feeLine is line 3 (0-based) of cart/fee.go:
//
//	func Discount() int { s := "« héllo 😀 »"; _ = s; return Fee() - 1 }
//
// Fee starts at byte 62; in UTF-16 units 57 («, é, » are one unit and two
// bytes; 😀 is two units and four bytes).
const (
	feeLine     = 3
	feeColUTF8  = 62
	feeColUTF16 = 57
)

func locStrings(root string, locs []protocol.Location) []string {
	var out []string
	for _, l := range locs {
		rel, _ := filepath.Rel(root, l.URI.FsPath())
		out = append(out, rel+":"+itoa(int(l.Range.Start.Line))+":"+itoa(int(l.Range.Start.Character))+"-"+itoa(int(l.Range.End.Character)))
	}
	return out
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

func TestFeatures(t *testing.T) {
	for _, enc := range []struct {
		name string
		utf8 bool
		col  uint32
	}{{"utf-16", false, feeColUTF16}, {"utf-8", true, feeColUTF8}} {
		t.Run(enc.name, func(t *testing.T) {
			root := fixture.Workspace(t, "shop")
			e := startEditor(t, root, editorConfig{noInit: true})
			e.initialize(editorConfig{utf8: enc.utf8})
			e.waitIndexed(1)
			testDefinitionRanking(t, e, enc.col)
			testReferences(t, e, enc.col)
			testHighlight(t, e, enc.col)
			testSymbols(t, e)
			testHover(t, e, enc.col)
		})
	}
}

func definitions(t *testing.T, e *fakeEditor, rel string, p protocol.Position) []string {
	t.Helper()
	var locs []protocol.Location
	e.mustCall(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: e.tdpp(rel, p)}, &locs)
	return locStrings(e.root, locs)
}

// references is textDocument/references at rel:p, as locStrings.
func references(t *testing.T, e *fakeEditor, rel string, p protocol.Position, includeDecl bool) []string {
	t.Helper()
	var locs []protocol.Location
	e.mustCall(protocol.MethodTextDocumentReferences, &protocol.ReferenceParams{
		TextDocumentPositionParams: e.tdpp(rel, p),
		Context:                    protocol.ReferenceContext{IncludeDeclaration: includeDecl},
	}, &locs)
	return locStrings(e.root, locs)
}

// highlights returns where each documentHighlight at p of rel starts.
func highlights(t *testing.T, e *fakeEditor, rel string, p protocol.Position) []protocol.Position {
	t.Helper()
	var hs []protocol.DocumentHighlight
	e.mustCall(protocol.MethodTextDocumentDocumentHighlight, &protocol.DocumentHighlightParams{TextDocumentPositionParams: e.tdpp(rel, p)}, &hs)
	var starts []protocol.Position
	for _, h := range hs {
		starts = append(starts, h.Range.Start)
	}
	return starts
}

func testDefinitionRanking(t *testing.T, e *fakeEditor, col uint32) {
	// Fee() in cart/fee.go: defined in the same package (cart/cart.go)
	// before price and other.
	if got, want := definitions(t, e, "cart/fee.go", pos(feeLine, col+1)), []string{"cart/cart.go:19:5-8"}; !slices.Equal(got, want) {
		t.Errorf("Fee from cart/fee.go: %v, want %v", got, want)
	}
	// Fee() in other/other.go: the same file wins.
	if got, want := definitions(t, e, "other/other.go", pos(5, 24)), []string{"other/other.go:3:5-8"}; !slices.Equal(got, want) {
		t.Errorf("Fee from other/other.go: %v, want %v", got, want)
	}
	// price.Of from cart/cart.go: found through the import.
	if got, want := definitions(t, e, "cart/cart.go", pos(13, 16)), []string{"price/price.go:3:5-7"}; !slices.Equal(got, want) {
		t.Errorf("Of from cart/cart.go: %v, want %v", got, want)
	}
	// Whitespace: no identifier, empty answer.
	if got := definitions(t, e, "cart/cart.go", pos(1, 0)); len(got) != 0 {
		t.Errorf("definition on an empty line: %v", got)
	}
}

func testReferences(t *testing.T, e *fakeEditor, col uint32) {
	refs := func(decl bool) []string { return references(t, e, "cart/fee.go", pos(feeLine, col), decl) }
	feeRef := "cart/fee.go:3:" + itoa(int(col)) + "-" + itoa(int(col)+3)
	all := refs(true)
	// Fee() in cart resolves to cart's Fee: price.Fee and other.Fee, and
	// other's call of its own Fee, are not references to it.
	want := []string{"cart/cart.go:15:14-17", "cart/cart.go:19:5-8", feeRef}
	if !slices.Equal(all, want) {
		t.Errorf("references with declarations:\n got %v\nwant %v", all, want)
	}
	noDecl := refs(false)
	if want := []string{"cart/cart.go:15:14-17", feeRef}; !slices.Equal(noDecl, want) {
		t.Errorf("references without declarations:\n got %v\nwant %v", noDecl, want)
	}
}

func testHighlight(t *testing.T, e *fakeEditor, col uint32) {
	var hs []protocol.DocumentHighlight
	e.mustCall(protocol.MethodTextDocumentDocumentHighlight, &protocol.DocumentHighlightParams{TextDocumentPositionParams: e.tdpp("cart/fee.go", pos(feeLine, col))}, &hs)
	if len(hs) != 1 || hs[0].Range.Start.Character != col || hs[0].Range.End.Character != col+3 {
		t.Errorf("highlights of Fee in fee.go: %+v", hs)
	}
}

func testSymbols(t *testing.T, e *fakeEditor) {
	var ws []protocol.SymbolInformation
	e.mustCall(protocol.MethodWorkspaceSymbol, &protocol.WorkspaceSymbolParams{Query: "Fee"}, &ws)
	var got []string
	for _, s := range ws {
		rel, _ := filepath.Rel(e.root, s.Location.URI.FsPath())
		got = append(got, s.Name+"@"+rel)
	}
	if len(got) != 3 || !slices.Contains(got, "Fee@cart/cart.go") || !slices.Contains(got, "Fee@price/price.go") {
		t.Errorf("workspace/symbol Fee: %v", got)
	}
	var ds []protocol.DocumentSymbol
	e.mustCall(protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: e.uri("cart/cart.go")}}, &ds)
	var names []string
	for _, s := range ds {
		names = append(names, s.Name)
		for _, c := range s.Children {
			names = append(names, s.Name+"."+c.Name)
		}
	}
	if want := []string{"Cart", "Cart.Items", "Total", "Fee"}; !slices.Equal(names, want) {
		t.Errorf("document symbols of cart.go: %v, want %v", names, want)
	}
}

func testHover(t *testing.T, e *fakeEditor, col uint32) {
	var h protocol.Hover
	e.mustCall(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: e.tdpp("cart/fee.go", pos(feeLine, col+2))}, &h)
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok {
		t.Fatalf("hover contents %T", h.Contents)
	}
	for _, want := range []string{"func Fee() int", "Fee is the handling fee.", "cart/cart.go:20"} {
		if !strings.Contains(mc.Value, want) {
			t.Errorf("hover %q lacks %q", mc.Value, want)
		}
	}
}
