package tools

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
)

func TestTaskTool(t *testing.T) {
	type got struct {
		prompt string
		tools  []string
	}
	tests := []struct {
		name     string
		input    string
		sub      func(*got) SubAgentFunc // nil: no SubAgent in the Env
		wantErr  bool                    // IsError result
		contains string
		want     got
	}{
		{
			name:  "runs the sub-agent with prompt and tools",
			input: `{"description":"find parsers","prompt":"list the parsers","tools":["read_file","grep"]}`,
			sub: func(g *got) SubAgentFunc {
				return func(_ context.Context, prompt string, tools []string) (string, error) {
					g.prompt, g.tools = prompt, tools
					return "found 2 parsers", nil
				}
			},
			contains: "found 2 parsers",
			want:     got{prompt: "list the parsers", tools: []string{"read_file", "grep"}},
		},
		{
			name:     "no sub-agent configured",
			input:    `{"description":"x","prompt":"do it"}`,
			wantErr:  true,
			contains: "unavailable",
		},
		{
			name:  "sub-agent failure is a result for the model",
			input: `{"description":"x","prompt":"do it","tools":["task"]}`,
			sub: func(*got) SubAgentFunc {
				return func(context.Context, string, []string) (string, error) {
					return "", errors.New("the task tool is not available to sub-agents")
				}
			},
			wantErr:  true,
			contains: "not available to sub-agents",
		},
		{name: "empty prompt", input: `{"description":"x","prompt":"  "}`, wantErr: true, contains: "prompt must not be empty"},
		{name: "missing prompt", input: `{"description":"x"}`, wantErr: true, contains: `"prompt"`},
		{name: "unknown field", input: `{"description":"x","prompt":"p","model":"m"}`, wantErr: true, contains: "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var g got
			env := &Env{}
			if tt.sub != nil {
				env.SubAgent = tt.sub(&g)
			}
			res, err := runTool(context.Background(), taskTool, env, json.RawMessage(tt.input))
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.IsError != tt.wantErr || !strings.Contains(res.Content, tt.contains) {
				t.Fatalf("result %+v, want isError=%v containing %q", res, tt.wantErr, tt.contains)
			}
			if g.prompt != tt.want.prompt || !slices.Equal(g.tools, tt.want.tools) {
				t.Errorf("sub-agent got %+v, want %+v", g, tt.want)
			}
		})
	}
}

func TestTaskToolAccessAndCancel(t *testing.T) {
	a, err := accessOf(taskTool, &Env{}, json.RawMessage(`{"description":"survey","prompt":"p"}`))
	if err != nil || a.Kind != access.Read || !strings.Contains(a.Summary, "survey") {
		t.Fatalf("Access = %+v, %v", a, err)
	}
	if _, err := accessOf(taskTool, &Env{}, json.RawMessage(`{"description":"x"}`)); err == nil {
		t.Error("Access accepted a call without a prompt")
	}
	if !(taskTool).ReadOnly() {
		t.Error("task tool must be read-only so parallel tasks and plan mode work")
	}
	ctx, cancel := context.WithCancel(context.Background())
	env := &Env{SubAgent: func(ctx context.Context, _ string, _ []string) (string, error) {
		cancel()
		<-ctx.Done()
		return "", ctx.Err()
	}}
	if _, err := runTool(ctx, taskTool, env, json.RawMessage(`{"description":"x","prompt":"p"}`)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled sub-agent: err = %v, want context.Canceled", err)
	}
	var schema map[string]any
	if err := json.Unmarshal(taskTool.Schema(), &schema); err != nil || schema["type"] != "object" {
		t.Errorf("schema %s: %v", taskTool.Schema(), err)
	}
}
