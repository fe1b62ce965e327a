package agent

import (
	"context"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools/ledger"
)

// A compaction forgets what the ledger says the model has seen: the read
// results its stubs would point at may be masked or summarised away.
func TestCompactionForgetsTheLedger(t *testing.T) {
	p := newScripted(summary("## Task\nhi"))
	a, _ := compactAgent(t, p)
	a.Env.Ledger = ledger.NewMemory()
	content := []byte("package a\n")
	r := ledger.Request{Path: "/w/a.go", Shown: "a.go", Content: content, Start: 1, End: 1, Turn: 1}
	if err := a.Env.Ledger.Record(r, a.Env.Ledger.Read(r), ledger.Range{Start: 1, End: 1}, ledger.Tokens{}); err != nil {
		t.Fatal(err)
	}
	if got := a.Env.Ledger.Read(r).Kind; got != ledger.Unchanged {
		t.Fatalf("before compaction: %v", got)
	}
	s := NewSession()
	s.Messages = []provider.Message{text(provider.RoleUser, "hi"), text(provider.RoleAssistant, "hello"),
		text(provider.RoleUser, "more"), text(provider.RoleAssistant, "sure")}
	if _, err := a.Compact(context.Background(), s, ""); err != nil {
		t.Fatal(err)
	}
	if got := a.Env.Ledger.Read(r).Kind; got != ledger.Fresh {
		t.Errorf("after compaction a re-read is %v, want the full text", got)
	}
}
