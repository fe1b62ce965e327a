package provider

import (
	"errors"
	"strings"
)

// ErrContextOverflow is matched (errors.Is) by an error saying that the
// request does not fit the model's context window: the prompt alone, or
// the prompt plus max_tokens. Such a request fails the same way however
// often it is sent, so it is never retried; the caller must shorten the
// conversation (compact it) first. A response that stops with
// StopContextOverflow means the same thing.
var ErrContextOverflow = errors.New("the conversation does not fit the model's context window")

// overflowCodes are error codes and types that name a context overflow:
// OpenAI's code (also used by Azure, Groq and other compatible APIs) and
// llama.cpp server's type.
var overflowCodes = map[string]bool{
	"context_length_exceeded":   true,
	"exceed_context_size_error": true,
}

// overflowPhrases are message fragments (lower case) that name a context
// overflow when the API gives no code for it, as each server words it:
//
//	Anthropic  "prompt is too long: 208310 tokens > 200000 maximum"
//	Anthropic  "input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, ..."
//	OpenAI, DeepSeek, vLLM, OpenRouter
//	           "This model's maximum context length is 131072 tokens. However, you requested ..."
//	llama.cpp  "the request exceeds the available context size, try increasing it"
//	LM Studio  "Trying to keep the first 10136 tokens when context the overflows. However,
//	            the model is loaded with context length of only 7866 tokens, ..."
//	Gemini     "The input token count (1091639) exceeds the maximum number of tokens
//	            allowed (1048576)." (400 INVALID_ARGUMENT)
var overflowPhrases = []string{
	"prompt is too long",
	"exceed context limit",
	"maximum context length",
	"exceeds the available context size",
	"context length of only",
	"exceeds the maximum number of tokens allowed",
}

// classifyOverflow marks e as a context overflow when its code, type or
// message says so. An overflow is never retryable, whatever the status
// (llama.cpp has answered it with 500).
func (e *APIError) classifyOverflow() {
	if overflowCodes[e.Code] || overflowCodes[e.Type] {
		e.ContextOverflow = true
	} else {
		msg := strings.ToLower(e.Message)
		for _, p := range overflowPhrases {
			if strings.Contains(msg, p) {
				e.ContextOverflow = true
				break
			}
		}
	}
	if e.ContextOverflow {
		e.Retryable = false
	}
}

// Is makes errors.Is(err, ErrContextOverflow) true for an overflow.
func (e *APIError) Is(target error) bool {
	return target == ErrContextOverflow && e.ContextOverflow
}
