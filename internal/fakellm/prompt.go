package fakellm

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// keepTag marks the lines a fake summary keeps.
const keepTag = "#keep"

// prompt is what a request body says about its prompt.
type prompt struct {
	system string   // the system prompt (Anthropic's field, OpenAI's system messages)
	texts  []string // every string value in the messages
	tokens int      // counted as the package doc says
	// maxTokens is the response cap asked for (0: none).
	maxTokens int
}

var codec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(tokenizer.O200kBase) })

// readPrompt decodes a request body of either API. A body that is not a
// JSON object has an empty prompt.
func readPrompt(body []byte) prompt {
	var req struct {
		System              any              `json:"system"`
		Messages            []map[string]any `json:"messages"`
		Tools               any              `json:"tools"`
		MaxTokens           int              `json:"max_tokens"`
		MaxCompletionTokens int              `json:"max_completion_tokens"`
	}
	var p prompt
	if json.Unmarshal(body, &req) != nil {
		return p
	}
	p.maxTokens = max(req.MaxTokens, req.MaxCompletionTokens)
	var system, tools []string
	strs(req.System, &system)
	strs(req.Tools, &tools)
	for _, m := range req.Messages {
		var texts []string
		strs(m, &texts)
		if m["role"] == "system" {
			system = append(system, texts...)
		} else {
			p.texts = append(p.texts, texts...)
		}
		p.tokens += 4
	}
	p.system = strings.Join(system, "\n")
	c, err := codec()
	for _, group := range [][]string{system, tools, p.texts} {
		for _, s := range group {
			n := (len(s) + 3) / 4
			if err == nil {
				n, _ = c.Count(s)
			}
			p.tokens += n
		}
	}
	return p
}

// strs appends every string value (not key) in v to out.
func strs(v any, out *[]string) {
	switch v := v.(type) {
	case string:
		*out = append(*out, v)
	case []any:
		for _, e := range v {
			strs(e, out)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			strs(v[k], out)
		}
	}
}

// summary is the fake model's summary of a prompt: "Summary:" and the
// distinct lines tagged keepTag, in order.
func (p prompt) summary() string {
	lines := []string{"Summary:"}
	seen := map[string]bool{}
	for _, t := range p.texts {
		for line := range strings.SplitSeq(t, "\n") {
			line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
			if strings.Contains(line, keepTag) && !seen[line] {
				seen[line] = true
				lines = append(lines, "- "+line)
			}
		}
	}
	return strings.Join(lines, "\n")
}
