package index

import (
	"context"
	"slices"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// The scans behind the repo map's reference graph: each file's distinct
// referenced names, and each declaration with its file.
func TestScanNames(t *testing.T) {
	root := t.TempDir()
	fixture.WriteTree(t, root, map[string]string{
		"a.go": "package a\n\nfunc Alpha() int { return Beta() + Beta() }\n",
		"b.go": "package a\n\nfunc Beta() int { return 1 }\n",
	})
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Index(context.Background(), root, Options{}); err != nil {
		t.Fatal(err)
	}
	path := func(id uint32) string {
		p, _ := st.pathOf(id)
		return p
	}
	refs := map[string][]string{}
	if err := st.ScanReferenceNames(func(id uint32, names [][]byte) error {
		for _, n := range names {
			refs[path(id)] = append(refs[path(id)], string(n))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got := refs["a.go"]; len(slices.DeleteFunc(slices.Clone(got), func(n string) bool { return n != "Beta" })) != 1 {
		t.Errorf("a.go references %q, want Beta once", got)
	}
	decls := map[string]string{}
	if err := st.ScanDeclaredNames(func(name []byte, id uint32) error {
		decls[string(name)] = path(id)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if decls["Alpha"] != "a.go" || decls["Beta"] != "b.go" {
		t.Errorf("declarations %v", decls)
	}
}
