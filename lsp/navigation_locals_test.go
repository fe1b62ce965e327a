package lsp

import (
	"path/filepath"
	"slices"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestLocalNavigation: on a Java local (index/locals/testdata/locals_java.txtar)
// definition, references and highlights answer its binding and its
// occurrences, not the field named like it nor the other methods' x;
// this.x still goes to the field.
func TestLocalNavigation(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "locals", "testdata", "locals_java.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	const file = "demo/Shapes.java"
	// `return x;` in area: the local declared on line 8.
	if got, want := definitions(t, e, file, pos(20, 15)), []string{file + ":7:12-13"}; !slices.Equal(got, want) {
		t.Errorf("definition of the local x: %v, want %v", got, want)
	}
	// this.x: the field.
	if got, want := definitions(t, e, file, pos(19, 13)), []string{file + ":4:8-9"}; !slices.Equal(got, want) {
		t.Errorf("definition of this.x: %v, want %v", got, want)
	}
	refs := references(t, e, file, pos(20, 15), false)
	want := []string{file + ":9:12-13", file + ":12:20-21", file + ":13:12-13", file + ":17:36-37", file + ":19:17-18", file + ":20:15-16"}
	if got := refs; !slices.Equal(got, want) {
		t.Errorf("references of the local x:\n got %v\nwant %v", got, want)
	}
	// The parameter w: its declaration, w * h and the lambda's use.
	if got, want := highlights(t, e, file, pos(6, 17)), []protocol.Position{pos(6, 17), pos(7, 16), pos(16, 21)}; !slices.Equal(got, want) {
		t.Errorf("highlights of the parameter w: %v, want %v", got, want)
	}
}

// TestLocalNavigationImplicit: Kotlin's implicit `it` and a C# out
// variable (index/locals/testdata/locals_csharp_kotlin.txtar) over LSP. The `it`
// of the outer lambda, used inside a nested lambda with a named
// parameter: definition is the outer lambda's opening brace; references
// and highlights are its two `it`s, never the brace (an edit of every
// reference must not replace it). The out variable declared in an if's
// condition is the local after the if, not the field named like it.
func TestLocalNavigationImplicit(t *testing.T) {
	root := fixture.Extract(t, filepath.Join("..", "index", "locals", "testdata", "locals_csharp_kotlin.txtar"))
	e := startEditor(t, root, editorConfig{noInit: true})
	e.initialize(editorConfig{utf8: true})
	e.waitIndexed(1)
	const kt = "src/lambdas.kt" // line 3: xs.filter { it > 0 && xs.any { y -> y == it } }
	if got, want := definitions(t, e, kt, pos(2, 45)), []string{kt + ":2:14-15"}; !slices.Equal(got, want) {
		t.Errorf("definition of it: %v, want %v", got, want)
	}
	want := []string{kt + ":2:16-18", kt + ":2:45-47"}
	if got := references(t, e, kt, pos(2, 16), true); !slices.Equal(got, want) {
		t.Errorf("references of it: %v, want %v", got, want)
	}
	if got, want := highlights(t, e, kt, pos(2, 45)), []protocol.Position{pos(2, 16), pos(2, 45)}; !slices.Equal(got, want) {
		t.Errorf("highlights of it: %v, want %v", got, want)
	}
	const cs = "src/Patterns.cs" // line 6: Use(n); after if (!int.TryParse(s, out var n)) return 0;
	if got, want := definitions(t, e, cs, pos(5, 12)), []string{cs + ":4:37-38"}; !slices.Equal(got, want) {
		t.Errorf("definition of the out variable n: %v, want %v", got, want)
	}
}
