package complete

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// edited returns the ring's newest edit after before became after.
func edited(t *testing.T, path, before, after string) RecentEdit {
	t.Helper()
	r := NewEditRing()
	r.Record(path, []byte(before), []byte(after))
	got := r.Recent()
	if len(got) != 1 {
		t.Fatalf("edits %+v", got)
	}
	return got[0]
}

// apply applies p's edits of path to text (edits of one line each).
func apply(text string, p Proposal, path string) string {
	lines := strings.SplitAfter(text, "\n")
	for i := len(p.Edits) - 1; i >= 0; i-- {
		e := p.Edits[i]
		if e.Path != path {
			continue
		}
		l := lines[e.Start.Line]
		lines[e.Start.Line] = l[:e.Start.Col] + e.NewText + l[e.End.Col:]
	}
	return strings.Join(lines, "")
}

func TestNextEditRenameParameter(t *testing.T) {
	st, root := shopStore(t)
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }
	before := "package store\n\n// Scale multiplies.\nfunc Scale(n int, by int) int {\n\tif n < 0 {\n\t\treturn -n * by\n\t}\n\treturn n * by\n}\n"
	after := strings.Replace(before, "func Scale(n int", "func Scale(count int", 1)
	src := NextEditSource{Store: st, Path: "store/scale.go", Text: []byte(after), Last: edited(t, "store/scale.go", before, after), Read: read}
	p, ok := NextEdit(src)
	if !ok {
		t.Fatal("no proposal after renaming a parameter")
	}
	if p.Why != "rename n to count: 3 more uses" {
		t.Errorf("why %q", p.Why)
	}
	want := "package store\n\n// Scale multiplies.\nfunc Scale(count int, by int) int {\n\tif count < 0 {\n\t\treturn -count * by\n\t}\n\treturn count * by\n}\n"
	if got := apply(after, p, "store/scale.go"); got != want {
		t.Errorf("applied:\n%s\nwant:\n%s", got, want)
	}
	// Undoing the rename by hand is an edit too; its proposal would
	// rename back what the user just renamed, never what they undid.
	back := edited(t, "store/scale.go", after, before)
	if p, ok := NextEdit(NextEditSource{Store: st, Path: "store/scale.go", Text: []byte(before), Last: back, Read: read}); ok && strings.Contains(p.Why, "count to n") && len(p.Edits) > 0 {
		for _, e := range p.Edits {
			if e.Start.Line == 3 {
				t.Errorf("a proposal edits the line the user just edited: %+v", e)
			}
		}
	}
}

func TestNextEditRevertNeverProposed(t *testing.T) {
	before := "a := x\n"
	after := "a := y\n"
	last := edited(t, "f.go", before, after)
	p := Proposal{Edits: []Edit{{Path: "f.go", Start: pos(0, 5), End: pos(0, 6), NewText: "x"}}}
	if !reverts(NextEditSource{Path: "f.go", Text: []byte(after), Last: last}, p) {
		t.Error("a proposal restoring the edited line is not a revert")
	}
	p.Edits[0].NewText = "z"
	if reverts(NextEditSource{Path: "f.go", Text: []byte(after), Last: last}, p) {
		t.Error("another change taken for a revert")
	}
}

func TestNextEditImport(t *testing.T) {
	st, root := shopStore(t)
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }
	raw, _ := os.ReadFile(filepath.Join(root, "app", "main.go"))
	before := string(raw)
	// The file imports no "fmt"... and uses pricing already; drop that
	// import, then type a use of pricing.
	before = strings.Replace(before, "\t\"example.com/shop/pricing\"\n", "", 1)
	before = strings.Replace(before, "\tif pricing.Discountable(\"apple\") {\n", "\tif true {\n", 1)
	after := strings.Replace(before, "\tif true {\n", "\tif pricing.Discountable(\"pear\") {\n", 1)
	p, ok := NextEdit(NextEditSource{Store: st, Path: "app/main.go", Text: []byte(after), Last: edited(t, "app/main.go", before, after), Read: read})
	if !ok {
		t.Fatal("no import proposed")
	}
	if p.Why != `import "example.com/shop/pricing" for pricing.Discountable` {
		t.Errorf("why %q", p.Why)
	}
	got := apply(after, p, "app/main.go")
	if !strings.Contains(got, "import (\n\t\"example.com/shop/pricing\"\n\t\"example.com/shop/store\"\n)") {
		t.Errorf("applied:\n%s", got)
	}
}

func pos(l, c uint32) extract.Pos { return extract.Pos{Line: l, Col: c} }

// TestNextEditRenameExported: renaming an exported function at its
// declaration, once the index holds the renamed buffer (the server writes
// every keystroke), proposes the rename at its uses in other files.
func TestNextEditRenameExported(t *testing.T) {
	st, root := shopStore(t)
	read := func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, p)) }
	raw, err := os.ReadFile(filepath.Join(root, "store", "store.go"))
	if err != nil {
		t.Fatal(err)
	}
	before := string(raw)
	after := strings.Replace(before, "func Open(path string)", "func OpenStore(path string)", 1)
	if err := st.PutContent(t.Context(), "store/store.go", []byte(after), index.Options{}); err != nil {
		t.Fatal(err)
	}
	p, ok := NextEdit(NextEditSource{Store: st, Path: "store/store.go", Text: []byte(after), Last: edited(t, "store/store.go", before, after), Read: read})
	if !ok {
		t.Fatal("no proposal after renaming an exported function")
	}
	if len(p.Edits) != 1 || p.Edits[0].Path != "app/main.go" || p.Edits[0].NewText != "OpenStore" || p.Why != "rename Open to OpenStore: 1 more use" {
		t.Fatalf("proposal %+v", p)
	}
	main, _ := read("app/main.go")
	if got := apply(string(main), p, "app/main.go"); !strings.Contains(got, `s, err := store.OpenStore("x")`) {
		t.Errorf("applied:\n%s", got)
	}
}
