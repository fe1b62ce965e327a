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

// instant is a model that answers instantly: a tool call on odd calls, a
// text answer on even ones, so each turn is call -> tool -> answer.
type instant struct {
	n     int
	call  provider.Response
	reply provider.Response
}

func (m *instant) Name() string { return "instant" }

func (m *instant) Stream(_ context.Context, _ *provider.Request, onDelta func(provider.Delta)) (*provider.Response, error) {
	m.n++
	if m.n%2 == 1 {
		r := m.call
		return &r, nil
	}
	onDelta(provider.Delta{Kind: provider.DeltaText, Text: "ok"})
	r := m.reply
	return &r, nil
}

// BenchmarkTurnOverhead measures the loop's own cost per turn (two model
// calls, one trivial tool call, events to a sink, no store) with a model
// and a tool that take no time.
func BenchmarkTurnOverhead(b *testing.B) {
	m := &instant{
		call: provider.Response{Message: provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{
			{Kind: provider.BlockToolUse, ToolCallID: "c", ToolName: "noop", Input: json.RawMessage(`{"path": "a.go"}`)},
		}}, StopReason: provider.StopToolUse, Usage: stepUsage},
		reply: provider.Response{Message: provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{
			{Kind: provider.BlockText, Text: "ok"},
		}}, StopReason: provider.StopEndTurn, Usage: stepUsage},
	}
	noop := &fakeTool{name: "noop", readOnly: true, run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		return &tools.Result{Content: "done"}, nil
	}}
	reg, err := tools.NewRegistry(noop)
	if err != nil {
		b.Fatal(err)
	}
	events := 0
	a := &Agent{Provider: m, Registry: reg, Env: &tools.Env{}, Policy: allowAll{}, Sink: func(Event) { events++ }}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		// A fresh session per turn keeps the history (and so the work)
		// the same size in every iteration.
		if _, err := a.Run(ctx, NewSession(), "go"); err != nil {
			b.Fatal(err)
		}
	}
}

// benchHistory is a session of n tool rounds whose results are source
// text of about 4 KB each.
func benchHistory(n int) []provider.Message {
	src := strings.Repeat("func (s *Server) handle(ctx context.Context, req *Request) error {\n\treturn nil\n}\n", 50)
	var msgs []provider.Message
	for i := range n {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{{Kind: provider.BlockText, Text: "look at the next file"}}},
			provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{use(id, "read_file", `{"path":"a.go"}`)}},
			provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{{Kind: provider.BlockToolResult, ToolCallID: id, Text: src}}},
			provider.Message{Role: provider.RoleAssistant, Blocks: []provider.Block{{Kind: provider.BlockText, Text: "noted"}}},
		)
	}
	return msgs
}

// BenchmarkTokenCountCold counts a 100-round history (about 400 KB) from
// scratch, as for the first call of a resumed session.
func BenchmarkTokenCountCold(b *testing.B) {
	msgs := benchHistory(100)
	b.ReportAllocs()
	for b.Loop() {
		newTokenCounter("claude-sonnet-4-5").raw("", nil, msgs)
	}
}

// BenchmarkTokenCountStep counts the same history before each model call
// of a running session: only the newest messages are new.
func BenchmarkTokenCountStep(b *testing.B) {
	msgs := benchHistory(101)
	c := newTokenCounter("claude-sonnet-4-5")
	c.raw("", nil, msgs[:400])
	b.ReportAllocs()
	for b.Loop() {
		c.msgs = c.msgs[:400]
		c.raw("", nil, msgs)
	}
}
