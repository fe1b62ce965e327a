// Package provider talks to language-model APIs: Anthropic Messages,
// OpenAI Chat Completions and OpenAI-compatible servers (Ollama, LM Studio,
// llama.cpp, DeepSeek, Qwen, OpenRouter), and the Gemini API's
// streamGenerateContent. It turns one Request into one
// streamed assistant Message, calling back with deltas as they arrive.
//
// Contracts: a Provider is safe for concurrent use; each Stream call is
// independent. Stream retries transient failures (429, 5xx, connection
// errors) before any delta has been delivered; once deltas have been
// delivered a broken stream is reported as ErrStreamBroken and never
// retried, so the caller's history stays consistent. A request that does
// not fit the model's context window fails with an error matching
// ErrContextOverflow (each API's wording is recognised, see overflow.go)
// and is never retried. API keys never appear in errors or in debug output.
package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Role of a message in the conversation.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// BlockKind discriminates Block.
type BlockKind string

const (
	BlockText       BlockKind = "text"
	BlockThinking   BlockKind = "thinking"
	BlockToolUse    BlockKind = "tool_use"
	BlockToolResult BlockKind = "tool_result"
	// BlockImage is an image in a user message (see images.go).
	BlockImage BlockKind = "image"
)

// Block is one piece of a message. Fields not used by Kind stay zero.
type Block struct {
	Kind BlockKind `json:"kind"`
	// Text is the text of a text, thinking or tool_result block.
	Text string `json:"text,omitempty"`
	// Signature is Anthropic's thinking signature, or the thoughtSignature
	// Gemini put on a text or tool_use block; Redacted holds the data of a
	// redacted_thinking block (Text empty). Both are replayed verbatim.
	Signature string `json:"signature,omitempty"`
	Redacted  string `json:"redacted,omitempty"`
	// ToolCallID links a tool_use to its tool_result.
	ToolCallID string `json:"toolCallId,omitempty"`
	// ToolName and Input describe a tool_use (Input is the complete JSON
	// arguments object, "{}" when the model sent none).
	ToolName string          `json:"toolName,omitempty"`
	Input    json.RawMessage `json:"input,omitempty"`
	// IsError marks a tool_result that reports a failure to the model.
	IsError bool `json:"isError,omitempty"`
	// MediaType ("image/png"), Data (base64, standard encoding) and the
	// pixel size describe an image block; Name is what the user called it
	// (a file name), for transcripts and chips.
	MediaType string `json:"mediaType,omitempty"`
	Data      string `json:"data,omitempty"`
	Name      string `json:"name,omitempty"`
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
}

// Message is one turn of the conversation. Tool results travel in user
// messages (Anthropic's shape); the OpenAI providers split them into "tool"
// role messages on the wire.
type Message struct {
	Role   Role    `json:"role"`
	Blocks []Block `json:"blocks"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"` // a JSON Schema object
}

// Request is one model call.
type Request struct {
	Model string
	// System is the stable system prompt. Anthropic requests mark it (and the
	// tool list) with cache_control so the prefix is cached across turns.
	System   string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the response; 0 picks the model's default.
	MaxTokens int
	// ThinkingBudget enables extended thinking where supported (0 = off).
	ThinkingBudget int
}

// Usage counts tokens for one model call (or, summed, a turn or session).
type Usage struct {
	InputTokens      int `json:"inputTokens"`
	OutputTokens     int `json:"outputTokens"`
	CacheReadTokens  int `json:"cacheReadTokens,omitempty"`
	CacheWriteTokens int `json:"cacheWriteTokens,omitempty"`
}

// Add accumulates o into u.
func (u *Usage) Add(o Usage) {
	u.InputTokens += o.InputTokens
	u.OutputTokens += o.OutputTokens
	u.CacheReadTokens += o.CacheReadTokens
	u.CacheWriteTokens += o.CacheWriteTokens
}

// StopReason says why the model stopped.
type StopReason string

const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens"
	// StopContextOverflow: the model filled its context window before it
	// finished (Anthropic's model_context_window_exceeded). The response
	// is cut short like a max_tokens one, but raising max_tokens cannot
	// help: the conversation must be shortened (see ErrContextOverflow).
	StopContextOverflow StopReason = "context_overflow"
	StopOther           StopReason = "other"
)

// DeltaKind discriminates Delta.
type DeltaKind string

const (
	DeltaText     DeltaKind = "text"
	DeltaThinking DeltaKind = "thinking"
	// DeltaToolCall announces a tool call as soon as its name is known
	// (Text empty) and then carries argument fragments in Text.
	DeltaToolCall DeltaKind = "tool_call"
)

// Delta is a streamed fragment, delivered in arrival order.
type Delta struct {
	Kind       DeltaKind
	Text       string
	ToolCallID string // DeltaToolCall only
	ToolName   string // DeltaToolCall only
}

// Response is the complete result of a Stream call.
type Response struct {
	Message    Message // role assistant; blocks in the order the model produced them
	StopReason StopReason
	Usage      Usage
	Model      string // as reported by the API
}

// Provider is one configured model API.
type Provider interface {
	// Name is "anthropic", "openai", "openai-compatible" or "gemini".
	Name() string
	// Stream sends req and calls onDelta (from the calling goroutine's
	// stream reader; it must not block for long) for every fragment. The
	// returned Response holds the assembled message. ctx cancellation
	// closes the HTTP stream promptly and returns ctx.Err() (wrapped).
	Stream(ctx context.Context, req *Request, onDelta func(Delta)) (*Response, error)
}

// ErrStreamBroken is wrapped when a stream fails after deltas were
// delivered; the partial response is discarded and not retried.
var ErrStreamBroken = errors.New("model stream broke mid-response")

// APIError is a non-success answer from the API. Message never contains
// the API key.
type APIError struct {
	Provider   string
	StatusCode int    // HTTP status, 0 for an error event inside a stream
	Type       string // the API's error type, e.g. "rate_limit_error"
	// Code is the API's error code when it sends a string one, e.g.
	// OpenAI's "context_length_exceeded" (whose Type is
	// "invalid_request_error").
	Code      string
	Message   string
	Retryable bool
	// ContextOverflow marks a request refused because it does not fit the
	// model's context window; errors.Is(err, ErrContextOverflow) reports it.
	ContextOverflow bool
}

func (e *APIError) Error() string {
	if e.StatusCode == 0 {
		return fmt.Sprintf("%s: %s: %s", e.Provider, e.Type, e.Message)
	}
	return fmt.Sprintf("%s: HTTP %d %s: %s", e.Provider, e.StatusCode, e.Type, e.Message)
}
