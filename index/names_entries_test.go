package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestNameEntriesResident: once a search has loaded the resident name
// table, NameEntries answers from it exactly what the scan of the name
// index answers, in the same order, and follows a buffer written with
// PutContent (a name added, a name gone).
func TestNameEntriesResident(t *testing.T) {
	root := t.TempDir()
	for name, src := range map[string]string{
		"a.go": "package a\n\ntype Thing struct{}\n\nfunc (Thing) Run() {}\n\nfunc Run() {}\n",
		"b.go": "package a\n\nfunc helper() {}\n\ntype thing int\n\nfunc (thing) Run() {}\n",
		"c.go": "package a\n\nvar Run = 1\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	scan := func(name string) string {
		exact, _, err := st.definitionRefs(name)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(exact)
	}
	entries := func(name string) string {
		es, err := st.NameEntries(name)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(es)
	}
	check := func(when string) {
		t.Helper()
		for _, name := range []string{"Run", "Thing", "thing", "helper", "Fresh", "missing"} {
			exact, ok, err := st.residentEntries(name)
			if err != nil || !ok {
				t.Fatalf("%s: residentEntries(%q): %v %v", when, name, ok, err)
			}
			if got, want := fmt.Sprint(exact), scan(name); got != want {
				t.Errorf("%s: resident entries of %q\n got %s\nwant %s", when, name, got, want)
			}
		}
	}
	before := entries("Run")
	if _, ok, _ := st.residentEntries("Run"); ok {
		t.Fatal("the resident table answered before any search loaded it")
	}
	if _, err := st.SearchNames("", 1); err != nil {
		t.Fatal(err)
	}
	if got := entries("Run"); got != before {
		t.Errorf("NameEntries(Run) from the table %s, from the scan %s", got, before)
	}
	check("loaded")
	if err := st.PutContent(context.Background(), "b.go", []byte("package a\n\nfunc Fresh() {}\n\nfunc Run() {}\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	check("after PutContent")
}

// TestNameTableRepeatedName: a file declaring one name twice with another
// between (methods of two types) lists that name's entry twice once its
// postings were refreshed; the next refresh must free the entry once. Freed twice, the entry went to two
// new names at once, and a lookup of the first answered the second's
// symbol (go-to-definition of NewCallExpr in the editor decoded
// ShouldCheckPtr after cmd/compile/internal/ir/expr.go was opened).
func TestNameTableRepeatedName(t *testing.T) {
	root := t.TempDir()
	src := "package a\n\ntype A struct{}\n\nfunc (A) Only() {}\n\nfunc Between() {}\n\ntype B struct{}\n\nfunc (B) Only() {}\n"
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	if _, err := st.SearchNames("", 1); err != nil {
		t.Fatal(err)
	}
	// The first write refreshes the file's postings in symbol order
	// (Only, Between, Only); the second empties Only's entry, and new
	// names then take free entries, in this file and another.
	next := "package a\n\nfunc First() {}\n\nfunc Second() {}\n\nfunc Between() {}\n"
	for _, w := range []struct{ path, text string }{{"a.go", src}, {"a.go", next}, {"b.go", "package a\n\nfunc Other() {}\n\nfunc More() {}\n"}} {
		if err := st.PutContent(context.Background(), w.path, []byte(w.text), Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.NameEntries("Only"); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"First", "Second", "Between", "Only", "Other", "More"} {
		es, err := st.NameEntries(name)
		if err != nil {
			t.Fatal(err)
		}
		hits, err := st.SymbolsOf(es)
		if err != nil {
			t.Fatal(err)
		}
		want := 1
		if name == "Only" {
			want = 0
		}
		if len(hits) != want {
			t.Errorf("%s: %d hits, want %d", name, len(hits), want)
		}
		for _, h := range hits {
			if h.Symbol.Name != name {
				t.Errorf("NameEntries(%q) decoded %q", name, h.Symbol.Name)
			}
		}
	}
}
