package fim

import (
	"context"
	"encoding/json"
)

// ollama speaks Ollama's /api/generate with a suffix, non-streaming:
//
//	{"model", "prompt", "suffix", "stream": false,
//	 "options": {"num_predict", "stop", "temperature"}}
//	→ {"model", "created_at", "response", "done": true, "done_reason", ...}
//
// The model's template turns prompt and suffix into its FIM tokens (a
// model without FIM support answers 400 "does not support insert").
// Context snippets are commented into the prompt before the prefix.
type ollama struct{ base }

type ollamaRequest struct {
	Model   string        `json:"model"`
	Prompt  string        `json:"prompt"`
	Suffix  string        `json:"suffix"`
	Stream  bool          `json:"stream"`
	Options ollamaOptions `json:"options"`
}

type ollamaOptions struct {
	NumPredict  int      `json:"num_predict"`
	Stop        []string `json:"stop,omitempty"`
	Temperature float64  `json:"temperature"`
}

// Complete implements Model.
func (m *ollama) Complete(ctx context.Context, r Request) (Completion, error) {
	body, err := m.post(ctx, ollamaRequest{
		Model:  m.model,
		Prompt: withContext(r),
		Suffix: r.Suffix,
		Options: ollamaOptions{
			NumPredict:  maxTokens(r),
			Stop:        stops(r, 0),
			Temperature: temperature,
		},
	})
	if err != nil {
		return Completion{}, err
	}
	text, model, err := parseOllama(body)
	if err != nil {
		return Completion{}, m.malformed(err)
	}
	return Completion{Text: finish(r, text), Model: orDefault(model, m.model)}, nil
}

// parseOllama reads a non-streaming /api/generate answer.
func parseOllama(body []byte) (text, model string, err error) {
	var out struct {
		Model    string  `json:"model"`
		Response *string `json:"response"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return "", "", err
	}
	if out.Response == nil {
		return "", "", errNoResponse
	}
	return *out.Response, out.Model, nil
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
