package provider

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestAnthropicTextStream(t *testing.T) {
	f := newFakeAPI(t, sse(t, "anthropic_text.sse"))
	p, _ := newTestProvider(t, "", f, func(c *Config) { c.Provider = NameAnthropic })
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	want := []Delta{{Kind: DeltaText, Text: "Hello"}, {Kind: DeltaText, Text: ", world!"}}
	if !reflect.DeepEqual(got.deltas, want) {
		t.Errorf("deltas = %+v, want %+v", got.deltas, want)
	}
	wantMsg := Message{Role: RoleAssistant, Blocks: []Block{{Kind: BlockText, Text: "Hello, world!"}}}
	if !reflect.DeepEqual(resp.Message, wantMsg) {
		t.Errorf("message = %+v", resp.Message)
	}
	if resp.StopReason != StopEndTurn || resp.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("stop %q model %q", resp.StopReason, resp.Model)
	}
	wantUsage := Usage{InputTokens: 25, OutputTokens: 15, CacheReadTokens: 2048, CacheWriteTokens: 1024}
	if resp.Usage != wantUsage {
		t.Errorf("usage = %+v, want %+v", resp.Usage, wantUsage)
	}

	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if r.Path != "/v1/messages" || r.Method != "POST" {
		t.Errorf("request %s %s", r.Method, r.Path)
	}
	if r.Header.Get("X-Api-Key") != testKey || r.Header.Get("Authorization") != "" {
		t.Errorf("auth headers: x-api-key %q authorization %q", r.Header.Get("X-Api-Key"), r.Header.Get("Authorization"))
	}
	if v := r.Header.Get("Anthropic-Version"); v != "2023-06-01" {
		t.Errorf("anthropic-version %q", v)
	}
	body := r.JSON(t)
	if at(t, body, "stream") != true || at(t, body, "model") != "test-model" || at(t, body, "max_tokens") != 8192.0 {
		t.Errorf("body = %s", r.Body)
	}
	if _, ok := body["thinking"]; ok {
		t.Errorf("thinking sent without a budget: %s", r.Body)
	}
}

func TestAnthropicThinkingAndParallelTools(t *testing.T) {
	f := newFakeAPI(t, sse(t, "anthropic_thinking_tools.sse"))
	p, _ := newTestProvider(t, NameAnthropic, f)
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	const read, grep = "toolu_01T1x1fJ34qAmk2tNTrN7Up6", "toolu_01QrjvGp5fHcXZKLo4MXhvKv"
	want := []Delta{
		{Kind: DeltaThinking, Text: "I need the file "},
		{Kind: DeltaThinking, Text: "and its callers."},
		{Kind: DeltaText, Text: "Let me look."},
		{Kind: DeltaToolCall, ToolCallID: read, ToolName: "read_file"},
		{Kind: DeltaToolCall, ToolCallID: read, ToolName: "read_file", Text: `{"path": "ma`},
		{Kind: DeltaToolCall, ToolCallID: read, ToolName: "read_file", Text: `in.go"}`},
		{Kind: DeltaToolCall, ToolCallID: grep, ToolName: "grep"},
		{Kind: DeltaToolCall, ToolCallID: grep, ToolName: "grep", Text: `{"pattern":`},
		{Kind: DeltaToolCall, ToolCallID: grep, ToolName: "grep", Text: ` "func main", "limit": 5}`},
	}
	if !reflect.DeepEqual(got.deltas, want) {
		t.Errorf("deltas:\n got %+v\nwant %+v", got.deltas, want)
	}
	wantBlocks := []Block{
		{Kind: BlockThinking, Text: "I need the file and its callers.", Signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},
		{Kind: BlockText, Text: "Let me look."},
		{Kind: BlockToolUse, ToolCallID: read, ToolName: "read_file", Input: json.RawMessage(`{"path": "main.go"}`)},
		{Kind: BlockToolUse, ToolCallID: grep, ToolName: "grep", Input: json.RawMessage(`{"pattern": "func main", "limit": 5}`)},
	}
	if !reflect.DeepEqual(resp.Message.Blocks, wantBlocks) {
		t.Errorf("blocks:\n got %+v\nwant %+v", resp.Message.Blocks, wantBlocks)
	}
	if resp.StopReason != StopToolUse {
		t.Errorf("stop = %q", resp.StopReason)
	}
	if want := (Usage{InputTokens: 472, OutputTokens: 89, CacheReadTokens: 3000}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
}

func TestAnthropicRedactedThinking(t *testing.T) {
	f := newFakeAPI(t, sse(t, "anthropic_redacted.sse"))
	p, _ := newTestProvider(t, NameAnthropic, f)
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{
		{Kind: BlockThinking, Redacted: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"},
		{Kind: BlockText, Text: "Done."},
	}
	if !reflect.DeepEqual(resp.Message.Blocks, want) {
		t.Errorf("blocks = %+v", resp.Message.Blocks)
	}
	if len(got.deltas) != 1 || got.deltas[0].Kind != DeltaText {
		t.Errorf("redacted thinking must not produce deltas: %+v", got.deltas)
	}
	if resp.StopReason != StopMaxTokens {
		t.Errorf("stop = %q", resp.StopReason)
	}
}

// historyRequest exercises every conversion rule.
func historyRequest() *Request {
	return &Request{
		System:         "You are parley.",
		MaxTokens:      1000,
		ThinkingBudget: 2048,
		Tools: []ToolSpec{
			{Name: "read_file", Description: "Read a file.", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "grep", Description: "Search.", InputSchema: json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"}},"additionalProperties":false}`)},
		},
		Messages: []Message{
			{Role: RoleUser, Blocks: []Block{{Kind: BlockText, Text: "read a.go"}}},
			{Role: RoleAssistant, Blocks: []Block{
				{Kind: BlockThinking, Text: "plan", Signature: "sig-123"},
				{Kind: BlockThinking, Redacted: "opaque-data"},
				{Kind: BlockThinking, Text: "unsigned, from another provider"},
				{Kind: BlockText, Text: ""},
				{Kind: BlockText, Text: "Reading."},
				{Kind: BlockToolUse, ToolCallID: "call_1", ToolName: "read_file"},
				{Kind: BlockToolUse, ToolCallID: "call_2", ToolName: "grep", Input: json.RawMessage(`{"pattern":"x"}`)},
			}},
			{Role: RoleUser, Blocks: []Block{
				{Kind: BlockToolResult, ToolCallID: "call_1", Text: "package a"},
				{Kind: BlockToolResult, ToolCallID: "call_2", Text: "bad pattern", IsError: true},
				{Kind: BlockText, Text: "next"},
			}},
		},
	}
}

func TestAnthropicRequestBody(t *testing.T) {
	f := newFakeAPI(t, sse(t, "anthropic_text.sse"))
	p, _ := newTestProvider(t, NameAnthropic, f)
	if _, err := p.Stream(context.Background(), historyRequest(), nil); err != nil {
		t.Fatal(err)
	}
	b := f.requests()[0].JSON(t)
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"system", 0, "text"}, "You are parley."},
		{[]any{"system", 0, "cache_control", "type"}, "ephemeral"},
		{[]any{"tools", 0, "name"}, "read_file"},
		{[]any{"tools", 0, "description"}, "Read a file."},
		{[]any{"tools", 0, "input_schema", "type"}, "object"},
		{[]any{"tools", 0, "input_schema", "required", 0}, "path"},
		{[]any{"tools", 0, "input_schema", "properties", "path", "type"}, "string"},
		{[]any{"tools", 0, "cache_control"}, nil},
		{[]any{"tools", 1, "cache_control", "type"}, "ephemeral"},
		{[]any{"tools", 1, "input_schema", "additionalProperties"}, false},
		{[]any{"thinking", "type"}, "enabled"},
		{[]any{"thinking", "budget_tokens"}, 2048.0},
		{[]any{"max_tokens"}, 2048.0 + 8192}, // raised above the budget
		{[]any{"messages", 0, "role"}, "user"},
		{[]any{"messages", 0, "content", 0, "cache_control"}, nil},
		{[]any{"messages", 1, "role"}, "assistant"},
		{[]any{"messages", 1, "content", 0, "type"}, "thinking"},
		{[]any{"messages", 1, "content", 0, "thinking"}, "plan"},
		{[]any{"messages", 1, "content", 0, "signature"}, "sig-123"},
		{[]any{"messages", 1, "content", 1, "type"}, "redacted_thinking"},
		{[]any{"messages", 1, "content", 1, "data"}, "opaque-data"},
		{[]any{"messages", 1, "content", 2, "text"}, "Reading."},
		{[]any{"messages", 1, "content", 3, "type"}, "tool_use"},
		{[]any{"messages", 1, "content", 3, "id"}, "call_1"},
		{[]any{"messages", 1, "content", 3, "input"}, map[string]any{}},
		{[]any{"messages", 1, "content", 4, "input", "pattern"}, "x"},
		{[]any{"messages", 2, "content", 0, "type"}, "tool_result"},
		{[]any{"messages", 2, "content", 0, "tool_use_id"}, "call_1"},
		{[]any{"messages", 2, "content", 0, "content", 0, "text"}, "package a"},
		{[]any{"messages", 2, "content", 0, "is_error"}, nil},
		{[]any{"messages", 2, "content", 1, "is_error"}, true},
		{[]any{"messages", 2, "content", 2, "text"}, "next"},
		{[]any{"messages", 2, "content", 2, "cache_control", "type"}, "ephemeral"},
	}
	for _, c := range checks {
		if got := at(t, b, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v = %#v, want %#v", c.path, got, c.want)
		}
	}
	if n := len(at(t, b, "messages", 1, "content").([]any)); n != 5 {
		t.Errorf("assistant content has %d blocks, want 5 (unsigned thinking and empty text dropped)", n)
	}
}

func TestAnthropicErrorEventMidStream(t *testing.T) {
	f := newFakeAPI(t, sse(t, "anthropic_overloaded.sse"), sse(t, "anthropic_text.sse"))
	p, clock := newTestProvider(t, NameAnthropic, f)
	var got collect
	_, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if !errors.Is(err, ErrStreamBroken) {
		t.Fatalf("err = %v, want ErrStreamBroken", err)
	}
	var ae *APIError
	if !errors.As(err, &ae) || ae.Type != "overloaded_error" || ae.Message != "Overloaded" || ae.StatusCode != 0 {
		t.Errorf("APIError = %+v", ae)
	}
	if got.text(DeltaText) != "Partial" {
		t.Errorf("deltas = %+v", got.deltas)
	}
	if n := len(f.requests()); n != 1 || len(clock.recorded()) != 0 {
		t.Errorf("%d requests, sleeps %v: a broken stream must not be retried", n, clock.recorded())
	}
}

func TestAnthropicErrorEventBeforeDeltasIsRetried(t *testing.T) {
	f := newFakeAPI(t, sse(t, "anthropic_overloaded_early.sse"), sse(t, "anthropic_text.sse"))
	p, clock := newTestProvider(t, NameAnthropic, f)
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	if got.text(DeltaText) != "Hello, world!" || resp.StopReason != StopEndTurn {
		t.Errorf("deltas %q stop %q", got.text(DeltaText), resp.StopReason)
	}
	if n := len(f.requests()); n != 2 || len(clock.recorded()) != 1 {
		t.Errorf("%d requests, sleeps %v", n, clock.recorded())
	}
}
