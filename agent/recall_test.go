package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools"
)

func TestAutoRecall(t *testing.T) {
	st, err := memory.Open(t.TempDir(), memory.Workspace)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Add(memory.Memory{Content: "Database migrations run with make migrate", Type: memory.ProjectContext}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		autoRecall bool
		message    string
		recalled   bool
	}{
		{"relevant", true, "how do I run the database migrations?", true},
		{"irrelevant", true, "fix the typo in the README", false},
		{"off", false, "how do I run the database migrations?", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newScripted(say("ok"))
			a, rec := newTestAgent(t, p)
			a.Env = &tools.Env{Memory: &memory.Set{Workspace: st}}
			a.AutoRecall = tc.autoRecall
			s := NewSession()
			if _, err := a.Run(context.Background(), s, tc.message); err != nil {
				t.Fatal(err)
			}
			blocks := p.requests()[0].Messages[0].Blocks
			if blocks[0].Text != tc.message || s.Title != Title(tc.message) {
				t.Errorf("the user's text is not first: %+v", blocks)
			}
			kinds := rec.kinds()
			if !tc.recalled {
				if len(blocks) != 1 || slices.Contains(kinds, EventMemory) {
					t.Errorf("recalled for %q: blocks %+v, events %v", tc.message, blocks, kinds)
				}
				return
			}
			if len(blocks) != 2 || !strings.Contains(blocks[1].Text, "[1] project_context (importance 5): Database migrations run with make migrate") {
				t.Fatalf("blocks %+v", blocks)
			}
			if kinds[0] != EventMemory {
				t.Fatalf("events %v: the memory event is not first", kinds)
			}
			e := rec.events[0]
			if e.Text != "recalled 1 memory: 1" || len(e.Memories) != 1 || e.Memories[0].ID != "1" || e.Memories[0].Type != "project_context" {
				t.Errorf("event %+v", e)
			}
		})
	}
}
