package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/parleyhq/parley/tools"
)

func TestResponseBudget(t *testing.T) {
	const sonnet = "claude-sonnet-4-5" // 200k window, 64k output cap
	tests := []struct {
		name             string
		model            string
		window           int // configured context_window (unknown models)
		maxTokens        int
		thinking         int
		prompt           int
		wantMax, wantThk int
	}{
		{name: "default while it fits", model: sonnet, prompt: 10_000},
		{name: "default shrinks near the end", model: sonnet, prompt: 185_000, wantMax: 5_000},
		{name: "floor when nothing is left", model: sonnet, prompt: 199_000, wantMax: 1_024},
		{name: "configured cap", model: sonnet, maxTokens: 4_000, prompt: 10_000, wantMax: 4_000},
		{name: "configured cap shrinks", model: sonnet, maxTokens: 4_000, prompt: 188_000, wantMax: 2_000},
		{name: "a small cap is not raised to the floor", model: sonnet, maxTokens: 100, prompt: 10_000, wantMax: 100},
		{name: "floor below a small cap", model: sonnet, maxTokens: 500, prompt: 199_000, wantMax: 500},
		{name: "all that fits, up to the model's cap", model: sonnet, maxTokens: -1, prompt: 10_000, wantMax: 64_000},
		{name: "all that fits", model: sonnet, maxTokens: -1, prompt: 150_000, wantMax: 40_000},
		{name: "model cap below the configured one", model: "claude-3-opus-20240229", maxTokens: 10_000, prompt: 1_000, wantMax: 4_096},
		{name: "unknown model, all that fits", model: "local", window: 8_192, maxTokens: -1, prompt: 1_000, wantMax: 6_783},
		{name: "unknown model, default does not fit", model: "local", window: 8_192, prompt: 1_000, wantMax: 6_783},
		{name: "small window floor", model: "local", window: 4_000, maxTokens: -1, prompt: 3_900, wantMax: 500},
		{name: "thinking fits", model: sonnet, thinking: 16_000, prompt: 10_000, wantMax: 24_192, wantThk: 16_000},
		{name: "thinking squeezed", model: sonnet, thinking: 16_000, prompt: 185_000, wantMax: 5_000, wantThk: 2_500},
		{name: "thinking at its minimum", model: sonnet, thinking: 16_000, prompt: 199_000, wantMax: 2_048, wantThk: 1_024},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Agent{Model: tt.model, ContextWindow: tt.window, MaxTokens: tt.maxTokens, ThinkingBudget: tt.thinking}
			gotMax, gotThk := a.responseBudget(tt.prompt)
			if gotMax != tt.wantMax || gotThk != tt.wantThk {
				t.Errorf("responseBudget(%d) = %d, %d; want %d, %d", tt.prompt, gotMax, gotThk, tt.wantMax, tt.wantThk)
			}
		})
	}
}

// Each call asks for what is left of the window after its own prompt.
func TestRequestMaxTokensFollowTheWindow(t *testing.T) {
	p := newScripted(noUsage(callTools(use("c1", "read_file", `{"path":"a.go"}`))), reply("done"))
	big := &fakeTool{name: "read_file", readOnly: true, run: func(context.Context, json.RawMessage) (*tools.Result, error) {
		return &tools.Result{Content: words(1000)}, nil
	}}
	a, _ := newTestAgent(t, p, big)
	a.ContextWindow, a.MaxTokens = 4000, -1
	if _, err := a.Run(context.Background(), NewSession(), "read a.go"); err != nil {
		t.Fatal(err)
	}
	reqs := p.requests()
	for i, r := range reqs {
		prompt := newTokenCounter(a.Model).raw(r.System, r.Tools, r.Messages)
		if want := 4000 - prompt - 4000/20; r.MaxTokens != want {
			t.Errorf("call %d: max_tokens %d for a %d-token prompt, want %d", i+1, r.MaxTokens, prompt, want)
		}
	}
	if reqs[1].MaxTokens >= reqs[0].MaxTokens-1000 {
		t.Errorf("max_tokens did not shrink with the prompt: %d then %d", reqs[0].MaxTokens, reqs[1].MaxTokens)
	}
}
