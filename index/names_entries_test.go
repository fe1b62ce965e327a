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
