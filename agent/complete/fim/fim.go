// Package fim asks a code-completion model to fill the middle: the text
// between a prefix and a suffix of one file, given snippets of other code
// as context. Each provider speaks its own documented wire format (Ollama's
// /api/generate with suffix, llama.cpp's /infill, Mistral's
// /v1/fim/completions, DeepSeek's FIM completions, any OpenAI-compatible
// /v1/completions with suffix), and a chat model (Anthropic Messages,
// OpenAI Chat Completions) serves as a fallback through a fill-in-the-
// middle prompt with bounded output.
//
// New builds a Model from a Config (provider name, model, URL, key,
// timeout). One file per wire format: ollama.go, llamacpp.go,
// codestral.go, completions.go (DeepSeek and OpenAI-compatible) and
// chat.go; prompt.go holds what they share (the commented context
// sections, stop sequences, the answer's clean-up) and http.go the
// request, its errors (HTTPError) and their key-free excerpts.
//
// Contracts: a Model is safe for concurrent use; Complete honours its
// context (a cancelled context aborts the HTTP request already sent) and
// never retries on its own (a completion superseded by the next keystroke
// is worth nothing). API keys are never part of an error or a log line.
package fim

import "context"

// Snippet is one piece of context besides the prefix and suffix: where it
// comes from (root-relative slash path, 1-based inclusive lines) and why
// the context builder chose it ("members of x's type", "recent edit", ...).
type Snippet struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Text      string `json:"text"`
	Why       string `json:"why"`
}

// Request is one fill-in-the-middle request.
type Request struct {
	// Path is the file being edited (root-relative, slash-separated);
	// Language its language as workspace.Language names it ("go",
	// "python", "typescript", ...).
	Path     string
	Language string
	// Prefix and Suffix are the text before and after the cursor, already
	// cut to the budget at line boundaries.
	Prefix string
	Suffix string
	// Context comes first in the prompt, in this order.
	Context []Snippet
	// MaxTokens bounds the completion; Multiline false asks for the rest
	// of the current line only (a newline stops it).
	MaxTokens int
	Multiline bool
	// Stop sequences besides the provider's own.
	Stop []string
}

// Completion is a model's answer.
type Completion struct {
	Text string
	// Model is the model that answered, as the provider reported it.
	Model string
}

// Model completes requests. See the package contracts.
type Model interface {
	// Name is the provider's name as configured ("ollama", "llamacpp",
	// "codestral", "deepseek", "openai-completions", "anthropic-chat",
	// "openai-chat").
	Name() string
	Complete(ctx context.Context, r Request) (Completion, error)
}
