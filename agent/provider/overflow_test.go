package provider

import (
	"context"
	"errors"
	"testing"
)

// Context-overflow answers as each server sends them. Every one must match
// ErrContextOverflow and must not be retried: the same request fails the
// same way.
func TestContextOverflowErrors(t *testing.T) {
	tests := []struct {
		name, provider string
		status         int
		body           string
		overflow       bool
	}{
		{
			name: "anthropic prompt too long", provider: NameAnthropic, status: 400, overflow: true,
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"},"request_id":"req_011CVQe1dLrGNMJyE1ghG1av"}`,
		},
		{
			name: "anthropic input plus max_tokens", provider: NameAnthropic, status: 400, overflow: true,
			body: "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"input length and `max_tokens` exceed context limit: 199759 + 8192 > 200000, decrease input length or `max_tokens` and try again\"},\"request_id\":\"req_011CUB2XUHWkFnQzxcKBbjpF\"}",
		},
		{
			name: "openai context_length_exceeded", provider: NameOpenAI, status: 400, overflow: true,
			body: `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
		},
		{
			name: "openai code without the usual wording", provider: NameOpenAI, status: 400, overflow: true,
			body: `{"error":{"message":"Your input exceeds the context window of this model.","type":"invalid_request_error","param":"input","code":"context_length_exceeded"}}`,
		},
		{
			name: "deepseek", provider: NameOpenAICompatible, status: 400, overflow: true,
			body: `{"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 131134 tokens (122942 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`,
		},
		{
			name: "vllm", provider: NameOpenAICompatible, status: 400, overflow: true,
			body: `{"object":"error","message":"This model's maximum context length is 32768 tokens. However, you requested 41648 tokens (37552 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`,
		},
		{
			name: "llama.cpp", provider: NameOpenAICompatible, status: 400, overflow: true,
			body: `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}`,
		},
		{
			// Older llama.cpp servers answer 500, which is otherwise retried.
			name: "llama.cpp 500", provider: NameOpenAICompatible, status: 500, overflow: true,
			body: `{"error":{"code":500,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":1407,"n_ctx":256}}`,
		},
		{
			name: "lm studio", provider: NameOpenAICompatible, status: 400, overflow: true,
			body: `{"error":"Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"}`,
		},
		{
			name: "anthropic output cap is not an overflow", provider: NameAnthropic, status: 400,
			body: `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 10000 > 4096, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20240620"}}`,
		},
		{
			name: "openai bad request is not an overflow", provider: NameOpenAI, status: 400,
			body: `{"error":{"message":"Invalid 'messages[2].tool_call_id': string too long.","type":"invalid_request_error","param":"messages[2].tool_call_id","code":"string_above_max_length"}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(t, errorResponse(tt.status, tt.body), sse(t, "openai_text.sse"))
			p, clock := newTestProvider(t, tt.provider, f, func(c *Config) {
				if tt.provider == NameOpenAICompatible {
					c.APIKey = ""
				}
			})
			_, err := p.Stream(context.Background(), simpleRequest(), nil)
			if err == nil {
				t.Fatal("no error")
			}
			if got := errors.Is(err, ErrContextOverflow); got != tt.overflow {
				t.Fatalf("errors.Is(%v, ErrContextOverflow) = %v, want %v", err, got, tt.overflow)
			}
			ae, ok := errors.AsType[*APIError](err)
			if !ok || ae.StatusCode != tt.status || ae.ContextOverflow != tt.overflow {
				t.Fatalf("err = %#v", err)
			}
			if tt.overflow && (len(f.requests()) != 1 || len(clock.recorded()) != 0) {
				t.Errorf("an overflow was retried: %d requests", len(f.requests()))
			}
		})
	}
}

// llama.cpp may report the overflow as an error event inside a 200 stream.
func TestContextOverflowInStream(t *testing.T) {
	f := newFakeAPI(t, sse(t, "compat_overflow_stream.sse"), sse(t, "openai_text.sse"))
	p, clock := newTestProvider(t, NameOpenAICompatible, f, func(c *Config) { c.APIKey = "" })
	_, err := p.Stream(context.Background(), simpleRequest(), nil)
	if !errors.Is(err, ErrContextOverflow) {
		t.Fatalf("err = %v, want ErrContextOverflow", err)
	}
	if len(f.requests()) != 1 || len(clock.recorded()) != 0 {
		t.Errorf("retried: %d requests", len(f.requests()))
	}
}

// Anthropic's model_context_window_exceeded is not max_tokens: a larger
// cap would not help.
func TestAnthropicContextWindowStop(t *testing.T) {
	f := newFakeAPI(t, sse(t, "anthropic_context_window.sse"))
	p, _ := newTestProvider(t, NameAnthropic, f)
	resp, err := p.Stream(context.Background(), simpleRequest(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != StopContextOverflow {
		t.Errorf("stop = %q, want %q", resp.StopReason, StopContextOverflow)
	}
	if want := (Usage{InputTokens: 199950, OutputTokens: 50}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
}
