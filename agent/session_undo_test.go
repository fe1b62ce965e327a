package agent

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parleyhq/parley/tools"
)

// A session's undo stack survives closing the store, loads oldest first,
// and goes with the session when it is deleted; other sessions keep theirs.
func TestSessionUndoRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st := openTestStore(t, dir)
	s := NewSession()
	s.addUserText("edit things")
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	other := NewSession()
	entry := func(seq uint64) tools.UndoEntry {
		return tools.UndoEntry{Seq: seq, Label: "edit a.go", Dirs: []string{"/w/new"}, Files: []tools.UndoFile{
			{Path: "/w/a.go", Existed: true, Before: []byte("package a\n\x00binary too"), Mode: 0o644, Left: true, LeftSHA256: "ab12"},
			{Path: "/w/new/b.go", Left: true, LeftSHA256: "cd34"},
		}}
	}
	u := st.Undo(s.ID)
	// 256 sorts after 3 only with big-endian keys.
	for _, seq := range []uint64{3, 256, 4} {
		e := entry(seq)
		if err := u.SaveUndo(&e, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := u.SaveUndo(nil, []uint64{4}); err != nil {
		t.Fatal(err)
	}
	e5 := entry(5)
	if err := st.Undo(other.ID).SaveUndo(&e5, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st = openTestStore(t, dir)
	defer st.Close()
	got, err := st.Undo(s.ID).LoadUndo()
	if err != nil {
		t.Fatal(err)
	}
	if want := []tools.UndoEntry{entry(3), entry(256)}; !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v\nwant %+v", got, want)
	}
	// Listing sessions is not confused by undo records.
	if list, err := st.List(); err != nil || len(list) != 1 || list[0].ID != s.ID {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if err := st.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Undo(s.ID).LoadUndo(); err != nil || len(got) != 0 {
		t.Errorf("undo stack of a deleted session: %+v, %v", got, err)
	}
	if got, err := st.Undo(other.ID).LoadUndo(); err != nil || len(got) != 1 || got[0].Seq != 5 {
		t.Errorf("the other session's stack: %+v, %v", got, err)
	}
}
