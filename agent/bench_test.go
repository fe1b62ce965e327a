package agent

import (
	"context"
	"encoding/json"
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
