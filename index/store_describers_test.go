package index

import (
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/internal/fixture"
)

// TestStoreDescriberSetRebuilds: a store indexed without a language's
// describers lacks that language's descriptors, so a store opened with
// another set of describers is rebuilt rather than answered from; the
// same set, or a schema record from before the set was kept (every
// describer ran then), is kept.
func TestStoreDescriberSetRebuilds(t *testing.T) {
	withPy := Config{Describers: map[string]extract.Annotator{"python": nil}}
	root, data := t.TempDir(), t.TempDir()
	fixture.WriteTree(t, root, map[string]string{"a.go": "package a\nfunc A() {}\n"})
	open := func(cfg Config) *Store {
		t.Helper()
		st, err := OpenConfig(data, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}

	st := open(Config{})
	mustIndex(t, st, root)
	st.Close()

	st = open(withPy)
	if !strings.Contains(st.Rebuilt, "describers") || len(st.Files()) != 0 {
		t.Fatalf("opened with other describers: Rebuilt = %q, files = %d; want a fresh store", st.Rebuilt, len(st.Files()))
	}
	mustIndex(t, st, root)
	st.Close()

	st = open(withPy)
	if st.Rebuilt != "" || len(st.Files()) != 1 {
		t.Fatalf("opened with the same describers: Rebuilt = %q, files = %d; want the store kept", st.Rebuilt, len(st.Files()))
	}
	var e encoder
	e.uvarint(schemaVersion) // the record of a build before the set was kept
	if err := st.db.Set(schemaKey, e.b, pebble.NoSync); err != nil {
		t.Fatal(err)
	}
	st.Close()

	st = open(withPy)
	defer st.Close()
	if st.Rebuilt != "" || len(st.Files()) != 1 {
		t.Fatalf("record without a describer set: Rebuilt = %q, files = %d; want the store kept", st.Rebuilt, len(st.Files()))
	}
}
