package lsp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/provider"
)

// summaryStep answers the summary request of a compaction.
func summaryStep(text string) modelStep {
	return func(_ context.Context, req *provider.Request) (*provider.Response, error) {
		if len(req.Tools) != 0 {
			return nil, errAny("a summary request offers no tools")
		}
		return reply(text)(context.Background(), req)
	}
}

type errAny string

func (e errAny) Error() string { return string(e) }

// parley/compact summarises a session but for its last exchange, sends the
// compaction event first, and the session goes on from the summary.
func TestCompactRequest(t *testing.T) {
	m := newScriptModel()
	e := chatEditor(t, m, `{"permission_mode": "default"}`, false)
	m.script("first question", reply("one"), reply("two"))
	m.script("<transcript>", summaryStep("## Task\nfirst question, then a second"))
	res := awaitChat(t, e.chatCall(context.Background(), ChatParams{Message: "first question"}))
	awaitChat(t, e.chatCall(context.Background(), ChatParams{Session: res.Session, Message: "second"}))

	var out CompactResult
	e.mustCall(methodCompact, CompactParams{Session: res.Session, Focus: "the second"}, &out)
	c := out.Compaction
	if out.Session != res.Session || c == nil || c.Reason != agent.CompactManual || c.Summarised != 3 || c.Focus != "the second" {
		t.Fatalf("result %+v (compaction %+v)", out, c)
	}
	var ev *ChatEvent
	for deadline := time.Now().Add(waitTimeout); ev == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, x := range e.events(res.Session) {
			if x.Kind == "compaction" {
				ev = &x
			}
		}
	}
	if ev == nil || ev.Compaction == nil || *ev.Compaction != *c || !strings.HasPrefix(ev.Text, "compacted the conversation (manual)") {
		t.Fatalf("compaction event %+v", ev)
	}
	var s agent.Session
	e.mustCall(methodSession, map[string]string{"session": res.Session}, &s)
	if len(s.Messages) != 2 || !strings.Contains(s.Messages[0].Blocks[0].Text, "first question, then a second") ||
		len(s.Compactions) != 1 || s.Messages[1].Blocks[0].Text != "two" {
		t.Errorf("session after compaction: %+v", s)
	}
	// The next turn starts from the summary.
	first, _, _ := strings.Cut(s.Messages[0].Blocks[0].Text, "\n")
	m.script(first, reply("three"))
	if got := awaitChat(t, e.chatCall(context.Background(), ChatParams{Session: res.Session, Message: "third"})); got.Text != "three" {
		t.Errorf("turn after compaction: %+v", got)
	}

	for _, tt := range []struct {
		name   string
		params any
		want   string
	}{
		{"no session", map[string]string{}, "params must be"},
		{"unknown session", CompactParams{Session: "20250101-000000.000-aaaaaa"}, "session"},
	} {
		if err := e.call(methodCompact, tt.params, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}
