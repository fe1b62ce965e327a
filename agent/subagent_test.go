package agent

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools"
)

func toolNamesOf(req provider.Request) []string {
	var out []string
	for _, s := range req.Tools {
		out = append(out, s.Name)
	}
	return out
}

func TestSubAgentThroughTaskTool(t *testing.T) {
	p := newScripted(
		// parent: delegate
		callTools(use("t1", "task", `{"description":"survey","prompt":"find the parsers"}`)),
		// sub-agent: one read, then its report
		callTools(use("s1", "look", `{"path":"p.go"}`)),
		say("two parsers: p.go:10, q.go:20"),
		// parent: final answer
		say("There are two parsers."),
	)
	a, rec := newTestAgent(t, p, echo("look", true), echo("write", false), taskTool(t))
	var sub recorder
	a.Env.SubAgent = a.SubAgent(SubAgentOptions{Sink: sub.sink})
	a.SystemPrompt = "parent prompt"
	s := NewSession()
	res, err := a.Run(context.Background(), s, "how many parsers?")
	if err != nil || res.Text != "There are two parsers." {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	reqs := p.requests()
	if got := toolNamesOf(reqs[1]); !slices.Equal(got, []string{"look"}) {
		t.Errorf("sub-agent tools %v, want only the read-only ones without task", got)
	}
	if len(reqs[1].Messages) != 1 || reqs[1].Messages[0].Blocks[0].Text != "find the parsers" {
		t.Errorf("sub-agent did not start fresh: %+v", reqs[1].Messages)
	}
	if !strings.HasPrefix(reqs[1].System, "parent prompt") || !strings.Contains(reqs[1].System, "sub-agent") {
		t.Errorf("sub-agent system prompt %q", reqs[1].System)
	}
	if got := results(s.Messages[2]); got[0].Text != "two parsers: p.go:10, q.go:20" || got[0].IsError {
		t.Errorf("task result %+v", got)
	}
	if len(s.Messages) != 4 {
		t.Errorf("the sub-agent's messages leaked into the parent session: %d messages", len(s.Messages))
	}
	// Four model calls, two of them the sub-agent's, all charged here.
	if want := (provider.Usage{InputTokens: 4 * stepUsage.InputTokens, OutputTokens: 4 * stepUsage.OutputTokens}); res.Usage != want || s.Usage != want {
		t.Errorf("usage: turn %+v, session %+v, want %+v", res.Usage, s.Usage, want)
	}
	if len(sub.of(EventToolCall)) != 1 || len(rec.of(EventToolCall)) != 1 {
		t.Errorf("events: sub %v, parent %v", sub.kinds(), rec.kinds())
	}
}

func TestSubAgentToolSelection(t *testing.T) {
	tests := []struct {
		name    string
		names   []string
		want    []string
		wantErr string
	}{
		{"default read-only", nil, []string{"look"}, ""},
		{"named tools", []string{"write", "look"}, []string{"look", "write"}, ""},
		{"never task", []string{"look", "task"}, nil, "not available to sub-agents"},
		{"unknown", []string{"fly"}, nil, "unknown tools"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newScripted(say("report"))
			a, _ := newTestAgent(t, p, echo("look", true), echo("write", false), taskTool(t))
			out, err := a.SubAgent(SubAgentOptions{})(context.Background(), "do", tt.names)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || out != "report" {
				t.Fatalf("= %q, %v", out, err)
			}
			if got := toolNamesOf(p.requests()[0]); !slices.Equal(got, tt.want) {
				t.Errorf("tools %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSubAgentIterationCap(t *testing.T) {
	var steps []step
	for i := range 3 {
		steps = append(steps, callTools(use("c", "look", `{"n":`+string(rune('0'+i))+`}`)))
	}
	p := newScripted(steps...)
	a, _ := newTestAgent(t, p, echo("look", true))
	out, err := a.SubAgent(SubAgentOptions{MaxIterations: 2})(context.Background(), "loop", nil)
	if err != nil || !strings.Contains(out, "stopped early: max_iterations") || len(p.requests()) != 2 {
		t.Errorf("= %q, %v after %d requests", out, err, len(p.requests()))
	}
}

// taskTool is the task tool of the interactive tool set.
func taskTool(t *testing.T) tools.Tool {
	t.Helper()
	reg, err := tools.NewRegistry(tools.AgentTools()...)
	if err != nil {
		t.Fatal(err)
	}
	task, ok := reg.Get(tools.TaskToolName)
	if !ok {
		t.Fatal("AgentTools has no task tool")
	}
	return task
}
