package provider

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestOpenAITextStream(t *testing.T) {
	f := newFakeAPI(t, sse(t, "openai_text.sse"))
	p, _ := newTestProvider(t, NameOpenAI, f, func(c *Config) { c.MaxTokens = 500 })
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	want := []Delta{{Kind: DeltaText, Text: "Hello"}, {Kind: DeltaText, Text: ", world!"}}
	if !reflect.DeepEqual(got.deltas, want) {
		t.Errorf("deltas = %+v", got.deltas)
	}
	if !reflect.DeepEqual(resp.Message.Blocks, []Block{{Kind: BlockText, Text: "Hello, world!"}}) {
		t.Errorf("blocks = %+v", resp.Message.Blocks)
	}
	if resp.StopReason != StopEndTurn || resp.Model != "gpt-4o-2024-08-06" || p.Name() != NameOpenAI {
		t.Errorf("stop %q model %q name %q", resp.StopReason, resp.Model, p.Name())
	}
	// prompt_tokens 1200 includes 1024 cached tokens.
	if want := (Usage{InputTokens: 176, OutputTokens: 7, CacheReadTokens: 1024}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	r := f.requests()[0]
	if r.Path != "/v1/chat/completions" {
		t.Errorf("path %q", r.Path)
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey || r.Header.Get("X-Api-Key") != "" {
		t.Errorf("auth headers %v", r.Header)
	}
	b := r.JSON(t)
	checks := map[string]any{"stream": true, "model": "test-model", "max_completion_tokens": 500.0}
	for k, v := range checks {
		if b[k] != v {
			t.Errorf("%s = %#v, want %#v", k, b[k], v)
		}
	}
	if at(t, b, "stream_options", "include_usage") != true {
		t.Errorf("stream_options = %v", b["stream_options"])
	}
	if _, ok := b["max_tokens"]; ok {
		t.Errorf("openai must use max_completion_tokens: %s", r.Body)
	}
}

func TestOpenAIParallelToolCalls(t *testing.T) {
	f := newFakeAPI(t, sse(t, "openai_tools.sse"))
	p, _ := newTestProvider(t, NameOpenAI, f)
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	want := []Delta{
		{Kind: DeltaToolCall, ToolCallID: "call_A1b2C3", ToolName: "read_file"},
		{Kind: DeltaToolCall, ToolCallID: "call_A1b2C3", ToolName: "read_file", Text: `{"pa`},
		{Kind: DeltaToolCall, ToolCallID: "call_A1b2C3", ToolName: "read_file", Text: `th": "a.go"}`},
		{Kind: DeltaToolCall, ToolCallID: "call_D4e5F6", ToolName: "grep"},
		{Kind: DeltaToolCall, ToolCallID: "call_D4e5F6", ToolName: "grep", Text: `{"pattern"`},
		{Kind: DeltaToolCall, ToolCallID: "call_D4e5F6", ToolName: "grep", Text: `: "func"}`},
	}
	if !reflect.DeepEqual(got.deltas, want) {
		t.Errorf("deltas:\n got %+v\nwant %+v", got.deltas, want)
	}
	wantBlocks := []Block{
		{Kind: BlockToolUse, ToolCallID: "call_A1b2C3", ToolName: "read_file", Input: json.RawMessage(`{"path": "a.go"}`)},
		{Kind: BlockToolUse, ToolCallID: "call_D4e5F6", ToolName: "grep", Input: json.RawMessage(`{"pattern": "func"}`)},
	}
	if !reflect.DeepEqual(resp.Message.Blocks, wantBlocks) {
		t.Errorf("blocks = %+v", resp.Message.Blocks)
	}
	if resp.StopReason != StopToolUse || resp.Usage != (Usage{InputTokens: 300, OutputTokens: 40}) {
		t.Errorf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
}

// A DeepSeek/Ollama-style stream: reasoning_content, ids only on first
// fragments, index 0 reused for whole calls with new ids, a call without
// arguments, finish_reason "stop" despite tool calls, and no usage chunk.
func TestCompatQuirks(t *testing.T) {
	f := newFakeAPI(t, sse(t, "compat_quirks.sse"))
	p, _ := newTestProvider(t, "", f, func(c *Config) { c.APIKey = "" })
	if p.Name() != NameOpenAICompatible {
		t.Fatalf("name = %q", p.Name())
	}
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	if got.text(DeltaThinking) != "Two files to read." || got.text(DeltaText) != "Reading." {
		t.Errorf("deltas = %+v", got.deltas)
	}
	want := []Block{
		{Kind: BlockThinking, Text: "Two files to read."},
		{Kind: BlockText, Text: "Reading."},
		{Kind: BlockToolUse, ToolCallID: "call_0_first", ToolName: "read_file", Input: json.RawMessage(`{"path":"a.go"}`)},
		{Kind: BlockToolUse, ToolCallID: "call_1_second", ToolName: "read_file", Input: json.RawMessage(`{"path":"b.go"}`)},
		{Kind: BlockToolUse, ToolCallID: "call_2_third", ToolName: "list_dir", Input: json.RawMessage(`{}`)},
	}
	if !reflect.DeepEqual(resp.Message.Blocks, want) {
		t.Errorf("blocks:\n got %+v\nwant %+v", resp.Message.Blocks, want)
	}
	if resp.StopReason != StopToolUse || resp.Usage != (Usage{}) {
		t.Errorf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
	if h := f.requests()[0].Header.Get("Authorization"); h != "" {
		t.Errorf("keyless server got Authorization %q", h)
	}
}

// A llama.cpp-style stream: no ids at all, and a call whose arguments
// start before its name arrives.
func TestCompatMissingIDs(t *testing.T) {
	f := newFakeAPI(t, sse(t, "compat_noid.sse"))
	p, _ := newTestProvider(t, NameOpenAICompatible, f)
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	blocks := resp.Message.Blocks
	if len(blocks) != 2 {
		t.Fatalf("blocks = %+v", blocks)
	}
	if blocks[0].ToolName != "grep" || string(blocks[0].Input) != `{"pattern":"TODO"}` ||
		blocks[1].ToolName != "read_file" || string(blocks[1].Input) != `{"path":"x.go"}` {
		t.Errorf("blocks = %+v", blocks)
	}
	if !strings.HasPrefix(blocks[0].ToolCallID, "call_") || blocks[0].ToolCallID == blocks[1].ToolCallID {
		t.Errorf("generated ids %q %q", blocks[0].ToolCallID, blocks[1].ToolCallID)
	}
	// Deltas carry the same generated ids, announcement first.
	want := []Delta{
		{Kind: DeltaToolCall, ToolCallID: blocks[0].ToolCallID, ToolName: "grep"},
		{Kind: DeltaToolCall, ToolCallID: blocks[0].ToolCallID, ToolName: "grep", Text: `{"pattern":"TODO"}`},
		{Kind: DeltaToolCall, ToolCallID: blocks[1].ToolCallID, ToolName: "read_file"},
		{Kind: DeltaToolCall, ToolCallID: blocks[1].ToolCallID, ToolName: "read_file", Text: `{"path":`},
		{Kind: DeltaToolCall, ToolCallID: blocks[1].ToolCallID, ToolName: "read_file", Text: `"x.go"}`},
	}
	if !reflect.DeepEqual(got.deltas, want) {
		t.Errorf("deltas:\n got %+v\nwant %+v", got.deltas, want)
	}
	if resp.Usage != (Usage{InputTokens: 50, OutputTokens: 20}) || resp.Model != "qwen2.5-coder:7b" {
		t.Errorf("usage %+v model %q", resp.Usage, resp.Model)
	}
}

func TestOpenAIRequestBody(t *testing.T) {
	f := newFakeAPI(t, sse(t, "openai_text.sse"))
	p, _ := newTestProvider(t, NameOpenAICompatible, f)
	if _, err := p.Stream(context.Background(), historyRequest(), nil); err != nil {
		t.Fatal(err)
	}
	b := f.requests()[0].JSON(t)
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"max_tokens"}, 1000.0}, // compatible servers get max_tokens
		{[]any{"reasoning_effort"}, nil},
		{[]any{"tools", 0, "type"}, "function"},
		{[]any{"tools", 0, "function", "name"}, "read_file"},
		{[]any{"tools", 0, "function", "description"}, "Read a file."},
		{[]any{"tools", 0, "function", "parameters", "required", 0}, "path"},
		{[]any{"tools", 1, "function", "parameters", "additionalProperties"}, false},
		{[]any{"messages", 0, "role"}, "system"},
		{[]any{"messages", 0, "content"}, "You are parley."},
		{[]any{"messages", 1, "role"}, "user"},
		{[]any{"messages", 1, "content"}, "read a.go"},
		{[]any{"messages", 2, "role"}, "assistant"},
		{[]any{"messages", 2, "content"}, "Reading."}, // thinking dropped
		{[]any{"messages", 2, "tool_calls", 0, "id"}, "call_1"},
		{[]any{"messages", 2, "tool_calls", 0, "type"}, "function"},
		{[]any{"messages", 2, "tool_calls", 0, "function", "name"}, "read_file"},
		{[]any{"messages", 2, "tool_calls", 0, "function", "arguments"}, "{}"},
		{[]any{"messages", 2, "tool_calls", 1, "function", "arguments"}, `{"pattern":"x"}`},
		{[]any{"messages", 3, "role"}, "tool"},
		{[]any{"messages", 3, "tool_call_id"}, "call_1"},
		{[]any{"messages", 3, "content"}, "package a"},
		{[]any{"messages", 4, "role"}, "tool"},
		{[]any{"messages", 4, "content"}, "Error: bad pattern"},
		{[]any{"messages", 5, "role"}, "user"},
		{[]any{"messages", 5, "content"}, "next"},
	}
	for _, c := range checks {
		if got := at(t, b, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v = %#v, want %#v", c.path, got, c.want)
		}
	}
	if n := len(b["messages"].([]any)); n != 6 {
		t.Errorf("%d messages, want 6", n)
	}
}

func TestOpenAIReasoningEffort(t *testing.T) {
	f := newFakeAPI(t, sse(t, "openai_text.sse"))
	p, _ := newTestProvider(t, NameOpenAI, f)
	req := simpleRequest()
	req.Model, req.ThinkingBudget = "o3-mini", 8000
	if _, err := p.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	b := f.requests()[0].JSON(t)
	if b["reasoning_effort"] != "medium" || b["model"] != "o3-mini" {
		t.Errorf("reasoning_effort %v model %v", b["reasoning_effort"], b["model"])
	}
}

func TestOpenAIStreamErrorChunk(t *testing.T) {
	f := newFakeAPI(t, sse(t, "openai_stream_error.sse"))
	p, _ := newTestProvider(t, NameOpenAI, f)
	var got collect
	_, err := p.Stream(context.Background(), simpleRequest(), got.add)
	var ae *APIError
	if !errors.Is(err, ErrStreamBroken) || !errors.As(err, &ae) {
		t.Fatalf("err = %v", err)
	}
	if ae.Type != "server_error" || !strings.Contains(ae.Message, "server had an error") {
		t.Errorf("APIError = %+v", ae)
	}
	if got.text(DeltaText) != "Partial" || len(f.requests()) != 1 {
		t.Errorf("deltas %+v, %d requests", got.deltas, len(f.requests()))
	}
}

// Ollama reports errors as {"error": "text"}.
func TestCompatPlainErrorShape(t *testing.T) {
	f := newFakeAPI(t, errorResponse(404, `{"error":"model \"qwen9\" not found, try pulling it first"}`))
	p, clock := newTestProvider(t, NameOpenAICompatible, f)
	_, err := p.Stream(context.Background(), simpleRequest(), nil)
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v", err)
	}
	want := APIError{Provider: NameOpenAICompatible, StatusCode: 404, Type: "not_found_error",
		Message: `model "qwen9" not found, try pulling it first`}
	if *ae != want {
		t.Errorf("APIError = %+v, want %+v", *ae, want)
	}
	if len(f.requests()) != 1 || len(clock.recorded()) != 0 {
		t.Errorf("404 was retried")
	}
}
