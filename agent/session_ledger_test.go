package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
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

// A long session's ledger log stays bounded in the store (rewritten as
// one record per file) and reopens with its totals.
func TestSessionLedgerLogBounded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	st := openTestStore(t, dir)
	id := NewSession().ID
	l, err := st.OpenLedger(id)
	if err != nil {
		t.Fatal(err)
	}
	req := ledger.Request{Path: "/w/a.go", Shown: "a.go", Content: []byte("package a\n"), Start: 1, End: 1}
	for turn := 1; turn <= 600; turn++ {
		req.Turn = turn
		if err := l.Record(req, l.Read(req), ledger.Range{Start: 1, End: 1}, ledger.Tokens{Sent: 5, Baseline: 5}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	st = openTestStore(t, dir)
	defer st.Close()
	recs, err := st.Ledger(id).LoadLedger()
	if err != nil || len(recs) > 300 {
		t.Fatalf("%d records after 600 reads of one file, %v", len(recs), err)
	}
	l, err = st.OpenLedger(id)
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Stats().Total(); got.Reads != 600 || got.Sent != 3000 {
		t.Errorf("reopened totals %+v", got)
	}
	if a := l.Read(req); a.Kind != ledger.Unchanged {
		t.Errorf("re-read after reopening: %v, want unchanged", a.Kind)
	}
}

// The ledger accounts the agent's reads with the tokenizer the agent counts
// its prompts with (the model's: o200k for gpt-4o, cl100k for gpt-4), not a
// fixed one, so `parley stats --tokens` and the agent's own figures agree.
func TestLedgerCountsWithTheModelsTokenizer(t *testing.T) {
	dir := t.TempDir()
	content := strings.Repeat("こんにちは世界、ファイルを読む。\n", 40)
	if err := os.WriteFile(filepath.Join(dir, "ja.txt"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := workspace.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	var read tools.Tool
	for _, tl := range tools.FileTools() {
		if tl.Name() == "read_file" {
			read = tl
		}
	}
	for _, model := range []string{"gpt-4o", "gpt-4"} {
		p := newScripted(callTools(use("r1", "read_file", `{"path":"ja.txt"}`)), reply("read"))
		a, _ := newTestAgent(t, p, read)
		a.Model = model
		a.Env = &tools.Env{Roots: roots, Files: &tools.DiskView{}, Ledger: ledger.NewMemory()}
		s := NewSession()
		if _, err := a.Run(context.Background(), s, "read ja.txt"); err != nil {
			t.Fatal(err)
		}
		result := s.Messages[2].Blocks[0].Text
		got := a.Env.Ledger.Stats().Total().Sent
		if want := tokcount.For(model)(result); got != want {
			t.Errorf("%s: the ledger accounted %d tokens for the read, the agent's tokenizer counts %d", model, got, want)
		}
	}
}
