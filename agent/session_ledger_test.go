package agent

import (
	"path/filepath"
	"testing"

	"github.com/parleyhq/parley/tools/ledger"
)

// A session's ledger survives closing the store (a stub after reopening),
// is kept apart from other sessions' and goes with the session on Delete.
func TestSessionLedgerRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st := openTestStore(t, dir)
	s := NewSession()
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	content := []byte("package a\n\nfunc A() {}\n")
	req := ledger.Request{Path: "/w/a.go", Shown: "a.go", Content: content, Start: 1, End: 3, Turn: 1}
	l, err := st.OpenLedger(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Record(req, l.Read(req), ledger.Range{Start: 1, End: 3}, ledger.Tokens{Sent: 9, Baseline: 9}); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st = openTestStore(t, dir)
	defer st.Close()
	l, err = st.OpenLedger(s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if a := l.Read(req); a.Kind != ledger.Unchanged {
		t.Fatalf("re-read after reopening: %v, want unchanged", a.Kind)
	}
	other, err := st.OpenLedger(NewSession().ID)
	if err != nil {
		t.Fatal(err)
	}
	if a := other.Read(req); a.Kind != ledger.Fresh {
		t.Fatalf("another session's read: %v, want full", a.Kind)
	}
	if err := st.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	if recs, err := st.Ledger(s.ID).LoadLedger(); err != nil || len(recs) != 0 {
		t.Fatalf("after Delete: %d records, %v", len(recs), err)
	}
}
