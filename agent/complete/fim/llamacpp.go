package fim

import (
	"context"
	"encoding/json"
)

// llamaCpp speaks the llama.cpp server's /infill, non-streaming:
//
//	{"input_prefix", "input_suffix", "input_extra": [{"filename", "text"}],
//	 "n_predict", "stop", "temperature", "stream": false, "cache_prompt": true}
//	→ {"content", "stop": true, "stop_type", "model", ...}
//
// Context snippets go in input_extra, which the server places before the
// prefix with the model's own file-separator tokens when it has them.
type llamaCpp struct{ base }

type llamaExtra struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

type llamaRequest struct {
	Model       string       `json:"model,omitempty"`
	InputPrefix string       `json:"input_prefix"`
	InputSuffix string       `json:"input_suffix"`
	InputExtra  []llamaExtra `json:"input_extra,omitempty"`
	NPredict    int          `json:"n_predict"`
	Stop        []string     `json:"stop,omitempty"`
	Temperature float64      `json:"temperature"`
	Stream      bool         `json:"stream"`
	CachePrompt bool         `json:"cache_prompt"`
}

// Complete implements Model.
func (m *llamaCpp) Complete(ctx context.Context, r Request) (Completion, error) {
	req := llamaRequest{
		Model:       m.model,
		InputPrefix: r.Prefix,
		InputSuffix: r.Suffix,
		NPredict:    maxTokens(r),
		Stop:        stops(r, 0),
		Temperature: temperature,
		CachePrompt: true,
	}
	for _, s := range r.Context {
		req.InputExtra = append(req.InputExtra, llamaExtra{Filename: s.Path, Text: s.Text})
	}
	body, err := m.post(ctx, req)
	if err != nil {
		return Completion{}, err
	}
	text, model, err := parseLlamaCpp(body)
	if err != nil {
		return Completion{}, m.malformed(err)
	}
	return Completion{Text: finish(r, text), Model: orDefault(model, m.model)}, nil
}

// parseLlamaCpp reads a non-streaming /infill answer.
func parseLlamaCpp(body []byte) (text, model string, err error) {
	var out struct {
		Content *string `json:"content"`
		Model   string  `json:"model"`
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return "", "", err
	}
	if out.Content == nil {
		return "", "", errNoResponse
	}
	return *out.Content, out.Model, nil
}
