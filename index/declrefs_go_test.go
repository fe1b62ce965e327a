package index

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fixture"
)

// TestDeclReferencesFollowWrites checks that what a references query
// keeps across queries (evaluated operand types, decoded symbols, name
// candidates, operand tables) does not outlive a write that changes it.
func TestDeclReferencesFollowWrites(t *testing.T) {
	root := t.TempDir()
	store := "package store\n\nfunc Open() *DB { return nil }\n\ntype DB struct{}\n\nfunc (d *DB) Close() {}\n\ntype Tx struct{}\n\nfunc (t *Tx) Close() {}\n"
	fixture.WriteTree(t, root, map[string]string{
		"go.mod":         "module example.com/m\n",
		"store/store.go": store,
		"use/use.go":     "package use\n\nimport \"example.com/m/store\"\n\nfunc f() {\n\tx := store.Open()\n\tx.Close()\n}\n",
	})
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	mustIndex(t, st, root)
	refs := func(container string) string {
		t.Helper()
		decls, err := st.QualifiedDeclarations(container, "Close")
		if err != nil || len(decls) != 1 {
			t.Fatalf("%s.Close: %v %v", container, decls, err)
		}
		hits, err := st.DeclReferences(decls[0], 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range hits {
			out = append(out, fmt.Sprintf("%s:%d", h.Path, h.Pos.Line+1))
		}
		return strings.Join(out, " ")
	}
	if got, want := refs("DB"), "store/store.go:7 use/use.go:7"; got != want {
		t.Fatalf("DB.Close before the write: %s, want %s", got, want)
	}
	// Open now returns a *Tx: x.Close is Tx's.
	changed := strings.Replace(store, "func Open() *DB", "func Open() *Tx", 1)
	if err := st.PutContent(context.Background(), "store/store.go", []byte(changed), Options{}); err != nil {
		t.Fatal(err)
	}
	if got, want := refs("DB"), "store/store.go:7"; got != want {
		t.Errorf("DB.Close after the write: %s, want %s", got, want)
	}
	if got, want := refs("Tx"), "store/store.go:11 use/use.go:7"; got != want {
		t.Errorf("Tx.Close after the write: %s, want %s", got, want)
	}
}
