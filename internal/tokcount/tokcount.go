// Package tokcount counts text in tokens the way parley's agent counts a
// model's prompts, so that every figure in tokens (the agent's estimates
// and budgets, the repo map's budget, the re-read ledger's accounting in
// `parley stats --tokens`) uses one function: OpenAI models' own
// vocabulary (tokenizer.ForModel), o200k_base, the vocabulary of OpenAI's
// current models, for every other model and for "". No other vendor
// publishes its tokenizer, so for them a count is an estimate (the agent
// corrects its estimates with the usage the provider reports).
//
// Counting never fails: without a tokenizer, or on text the tokenizer
// rejects, a count falls back to 4 bytes a token, the usual average of
// English and code. Safe for concurrent use.
package tokcount

import (
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// codecs holds one codec per model name (ForModel builds a new one, and
// building one compiles its split pattern); a codec is safe for
// concurrent use.
var codecs sync.Map // model -> func() (tokenizer.Codec, error)

// Codec returns the tokenizer for model, nil if none can be built.
func Codec(model string) tokenizer.Codec {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:] // "openai/gpt-4o" (OpenRouter)
	}
	get, _ := codecs.LoadOrStore(m, sync.OnceValues(func() (tokenizer.Codec, error) {
		if c, err := tokenizer.ForModel(tokenizer.Model(m)); err == nil {
			return c, nil
		}
		return tokenizer.Get(tokenizer.O200kBase)
	}))
	c, err := get.(func() (tokenizer.Codec, error))()
	if err != nil {
		return nil
	}
	return c
}

// Count counts s with codec c (nil: no tokenizer).
func Count(c tokenizer.Codec, s string) int {
	if s == "" {
		return 0
	}
	if c != nil {
		if n, err := c.Count(s); err == nil {
			return n
		}
	}
	return (len(s) + 3) / 4
}

// For returns the counting function of model.
func For(model string) func(string) int {
	c := Codec(model)
	return func(s string) int { return Count(c, s) }
}

// Counter is For with the error result of counters that may fail (the
// repo map's Options.Count), for budgets set in tokens outside a session.
// It never returns an error.
func Counter(model string) func(string) (int, error) {
	count := For(model)
	return func(s string) (int, error) { return count(s), nil }
}
