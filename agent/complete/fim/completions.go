package fim

import (
	"context"
	"encoding/json"
)

// completions speaks OpenAI's legacy /v1/completions with a suffix,
// non-streaming, which DeepSeek serves for FIM at
// https://api.deepseek.com/beta/completions and many OpenAI-compatible
// servers (vLLM, llama.cpp's /v1, LM Studio) serve too:
//
//	{"model", "prompt", "suffix", "max_tokens", "stop", "temperature", "stream": false}
//	→ {"id", "object": "text_completion", "model",
//	   "choices": [{"text", "index", "finish_reason"}], "usage"}
//
// The key is a Bearer token. OpenAI's API takes at most 4 stop sequences
// (DeepSeek 16); context snippets are commented into the prompt.
type completions struct{ base }

type completionsRequest struct {
	Model       string   `json:"model"`
	Prompt      string   `json:"prompt"`
	Suffix      string   `json:"suffix"`
	MaxTokens   int      `json:"max_tokens"`
	Stop        []string `json:"stop,omitempty"`
	Temperature float64  `json:"temperature"`
	Stream      bool     `json:"stream"`
}

// Complete implements Model.
func (m *completions) Complete(ctx context.Context, r Request) (Completion, error) {
	limit := 4
	if m.name == ProviderDeepSeek {
		limit = 16
	}
	body, err := m.post(ctx, completionsRequest{
		Model:       m.model,
		Prompt:      withContext(r),
		Suffix:      r.Suffix,
		MaxTokens:   maxTokens(r),
		Stop:        stops(r, limit),
		Temperature: temperature,
	})
	if err != nil {
		return Completion{}, err
	}
	text, model, err := parseCompletions(body)
	if err != nil {
		return Completion{}, m.malformed(err)
	}
	return Completion{Text: finish(r, text), Model: orDefault(model, m.model)}, nil
}

// parseCompletions reads a text_completion answer.
func parseCompletions(body []byte) (text, model string, err error) {
	var out struct {
		Model   string `json:"model"`
		Choices []struct {
			Text string `json:"text"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return "", "", err
	}
	if len(out.Choices) == 0 {
		return "", "", errNoChoice
	}
	return out.Choices[0].Text, out.Model, nil
}
