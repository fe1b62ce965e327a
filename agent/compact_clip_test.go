package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

// numbered is lines numbered lines of about ten tokens each, like a
// read_file result.
func numbered(lines int) string {
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&b, "%6d\tfunc f%d() { return compute(%d) }\n", i, i, i)
	}
	return b.String()
}

func TestClipText(t *testing.T) {
	count := newTokenCounter("").count
	text := numbered(1000)
	total := count(text)
	for _, keep := range []int{300, 2000} {
		out := clipText(text, keep, total, count)
		if n := count(out); n > keep {
			t.Errorf("keep %d: cut to %d tokens", keep, n)
		}
		body, note, ok := strings.Cut(out, "\n"+clipNote)
		if !ok || !strings.Contains(note, fmt.Sprintf("%d tokens", total)) || !strings.Contains(note, "line range of read_file") {
			t.Fatalf("keep %d: no note saying what was cut and how to get the rest:\n%s", keep, out[max(len(out)-400, 0):])
		}
		if !strings.HasPrefix(text, body+"\n") || strings.Count(body, "\n") < keep/20 {
			t.Errorf("keep %d: kept %d whole lines", keep, strings.Count(body, "\n")+1)
		}
	}
	// One line longer than the budget keeps its start.
	long := strings.Repeat("x", 20000)
	if out := clipText(long, 300, count(long), count); !strings.HasPrefix(out, "xxxx") || count(out) > 300 {
		t.Errorf("a single long line cut to %d tokens: %.80q", count(out), out)
	}
}

// A tool result too big for the window on its own (the model refuses
// the next call) is cut to its first lines with a note, and the call is
// tried again: the turn goes on instead of failing.
func TestOverflowClipsTheLastResult(t *testing.T) {
	huge := numbered(600) // about 9,000 tokens, in a 4,000-token window
	big := &fakeTool{name: "read_file", readOnly: true, run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		return &tools.Result{Content: huge}, nil
	}}
	p := newScripted(noUsage(callTools(use("c1", "read_file", `{"path":"big.go"}`))), overflow(), reply("read the start"))
	a, events := newTestAgent(t, p, big)
	a.ContextWindow = 4000
	s := NewSession()
	res, err := a.Run(context.Background(), s, "read big.go")
	if err != nil || res.Text != "read the start" {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if len(s.Compactions) != 1 || s.Compactions[0].Clipped != 1 || s.Compactions[0].Reason != CompactOverflow {
		t.Fatalf("compactions %+v", s.Compactions)
	}
	if ev := events.of(EventCompaction); len(ev) != 1 || !strings.Contains(ev[0].Text, "1 tool result cut") {
		t.Errorf("compaction events %+v", ev)
	}
	reqs := p.requests()
	retry := reqs[len(reqs)-1].Messages
	got := retry[len(retry)-1].Blocks[0]
	if got.Kind != provider.BlockToolResult || !strings.HasPrefix(got.Text, "     1\tfunc f1()") || !strings.Contains(got.Text, clipNote) {
		t.Errorf("the retry's tool result is not the cut one: %.200q", got.Text)
	}
	if n := newTokenCounter("").count(got.Text); n > a.compactAt() {
		t.Errorf("the cut result is %d tokens, over the threshold %d", n, a.compactAt())
	}
	checkConsistent(t, s.Messages)
}

// Over HTTP, in each wire format: the fake model refuses the request that
// carries a result bigger than its window as the real APIs do, the agent
// cuts the result and retries once, and the turn ends normally.
func TestOverflowClipsOverHTTP(t *testing.T) {
	huge := numbered(600)
	big := &fakeTool{name: "read_file", readOnly: true, run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		return &tools.Result{Content: huge}, nil
	}}
	for _, name := range []string{provider.NameAnthropic, provider.NameOpenAICompatible} {
		t.Run(name, func(t *testing.T) {
			script := "window 3000\ntool read_file {\"path\":\"big.go\"}\n---\ntext read the start\n"
			a, srv := httpAgent(t, name, script, 3000, big)
			a.MaxTokens = 200
			s := NewSession()
			res, err := a.Run(context.Background(), s, "read big.go")
			if err != nil || res.Text != "read the start" {
				t.Fatalf("Run = %+v, %v", res, err)
			}
			if len(srv.Refused()) != 1 || len(s.Compactions) != 1 || s.Compactions[0].Clipped != 1 {
				t.Fatalf("refused %v, compactions %+v", srv.Refused(), s.Compactions)
			}
			last := s.Messages[2].Blocks[0]
			if !strings.Contains(last.Text, clipNote) {
				t.Errorf("the result kept in the session is not the cut one: %.200q", last.Text)
			}
			checkConsistent(t, s.Messages)
		})
	}
}
