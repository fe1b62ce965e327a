package fim

import (
	"context"
	"encoding/json"
	"strings"
)

// codestral speaks Mistral's /v1/fim/completions (codestral.mistral.ai
// with a Codestral key, api.mistral.ai with a Mistral one), non-streaming:
//
//	{"model", "prompt", "suffix", "max_tokens", "stop", "temperature", "stream": false}
//	→ {"id", "object": "chat.completion", "model",
//	   "choices": [{"index", "message": {"role", "content"}, "finish_reason"}], "usage"}
//
// The key is a Bearer token. Context snippets are commented into the
// prompt before the prefix.
type codestral struct{ base }

type codestralRequest struct {
	Model       string   `json:"model"`
	Prompt      string   `json:"prompt"`
	Suffix      string   `json:"suffix"`
	MaxTokens   int      `json:"max_tokens"`
	Stop        []string `json:"stop,omitempty"`
	Temperature float64  `json:"temperature"`
	Stream      bool     `json:"stream"`
}

// Complete implements Model.
func (m *codestral) Complete(ctx context.Context, r Request) (Completion, error) {
	body, err := m.post(ctx, codestralRequest{
		Model:       m.model,
		Prompt:      withContext(r),
		Suffix:      r.Suffix,
		MaxTokens:   maxTokens(r),
		Stop:        stops(r, 0),
		Temperature: temperature,
	})
	if err != nil {
		return Completion{}, err
	}
	text, model, err := parseCodestral(body)
	if err != nil {
		return Completion{}, m.malformed(err)
	}
	return Completion{Text: finish(r, text), Model: orDefault(model, m.model)}, nil
}

// parseCodestral reads a FIM answer. The message content is a string, or
// (in newer API versions) a list of chunks whose text parts are joined.
func parseCodestral(body []byte) (text, model string, err error) {
	var out struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return "", "", err
	}
	if len(out.Choices) == 0 {
		return "", "", errNoChoice
	}
	raw := out.Choices[0].Message.Content
	if len(raw) == 0 || string(raw) == "null" {
		return "", out.Model, nil
	}
	if json.Unmarshal(raw, &text) == nil {
		return text, out.Model, nil
	}
	var chunks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &chunks); err != nil {
		return "", "", err
	}
	var b strings.Builder
	for _, c := range chunks {
		if c.Type == "text" || c.Type == "" {
			b.WriteString(c.Text)
		}
	}
	return b.String(), out.Model, nil
}
