package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestGeminiTextStream(t *testing.T) {
	var query string
	replay := sse(t, "gemini_text.sse")
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		replay(w, r)
	})
	p, _ := newTestProvider(t, NameGemini, f, func(c *Config) { c.MaxTokens = 500 })
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
	if resp.StopReason != StopEndTurn || resp.Model != "gemini-2.5-flash" || p.Name() != NameGemini {
		t.Errorf("stop %q model %q name %q", resp.StopReason, resp.Model, p.Name())
	}
	// promptTokenCount 1200 includes 1024 cached; thoughts count as output.
	if want := (Usage{InputTokens: 176, OutputTokens: 16, CacheReadTokens: 1024}); resp.Usage != want {
		t.Errorf("usage = %+v, want %+v", resp.Usage, want)
	}
	r := f.requests()[0]
	if r.Path != "/v1beta/models/test-model:streamGenerateContent" || query != "alt=sse" {
		t.Errorf("path %q query %q", r.Path, query)
	}
	if r.Header.Get("X-Goog-Api-Key") != testKey || r.Header.Get("Authorization") != "" || strings.Contains(query, testKey) {
		t.Errorf("auth: headers %v query %q", r.Header, query)
	}
	b := r.JSON(t)
	if at(t, b, "generationConfig", "maxOutputTokens") != 500.0 || at(t, b, "contents", 0, "role") != "user" ||
		at(t, b, "contents", 0, "parts", 0, "text") != "hi" {
		t.Errorf("body %s", r.Body)
	}
	for _, k := range []string{"tools", "systemInstruction"} {
		if _, ok := b[k]; ok {
			t.Errorf("%s sent without tools or system prompt: %s", k, r.Body)
		}
	}
}

// Gemini sends function calls whole, without ids, and says STOP after
// them; the first call of a turn carries the thought signature.
func TestGeminiToolCalls(t *testing.T) {
	f := newFakeAPI(t, sse(t, "gemini_tools.sse"))
	p, _ := newTestProvider(t, NameGemini, f)
	var got collect
	resp, err := p.Stream(context.Background(), simpleRequest(), got.add)
	if err != nil {
		t.Fatal(err)
	}
	blocks := resp.Message.Blocks
	if len(blocks) != 4 {
		t.Fatalf("blocks = %+v", blocks)
	}
	id1, id2 := blocks[2].ToolCallID, blocks[3].ToolCallID
	if !strings.HasPrefix(id1, geminiLocalID) || !strings.HasPrefix(id2, geminiLocalID) || id1 == id2 {
		t.Errorf("ids %q %q", id1, id2)
	}
	want := []Block{
		{Kind: BlockThinking, Text: "Looking at the repository."},
		{Kind: BlockText, Text: "Reading both."},
		{Kind: BlockToolUse, ToolCallID: id1, ToolName: "read_file", Input: json.RawMessage(`{"path":"a.go"}`), Signature: "CiQBVKhc7sHsb2nZ1vX0aW5n"},
		{Kind: BlockToolUse, ToolCallID: id2, ToolName: "grep", Input: json.RawMessage(`{"pattern":"func"}`)},
	}
	if !reflect.DeepEqual(blocks, want) {
		t.Errorf("blocks:\n got %+v\nwant %+v", blocks, want)
	}
	wantDeltas := []Delta{
		{Kind: DeltaThinking, Text: "Looking at the repository."},
		{Kind: DeltaText, Text: "Reading "},
		{Kind: DeltaText, Text: "both."},
		{Kind: DeltaToolCall, ToolCallID: id1, ToolName: "read_file"},
		{Kind: DeltaToolCall, ToolCallID: id1, ToolName: "read_file", Text: `{"path":"a.go"}`},
		{Kind: DeltaToolCall, ToolCallID: id2, ToolName: "grep"},
		{Kind: DeltaToolCall, ToolCallID: id2, ToolName: "grep", Text: `{"pattern":"func"}`},
	}
	if !reflect.DeepEqual(got.deltas, wantDeltas) {
		t.Errorf("deltas:\n got %+v\nwant %+v", got.deltas, wantDeltas)
	}
	if resp.StopReason != StopToolUse || resp.Usage != (Usage{InputTokens: 300, OutputTokens: 40}) {
		t.Errorf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
}

// The calls of one answer, replayed with their results: functionCall
// parts keep their signature and leave out the ids parley made up;
// functionResponse parts name the function and come before the user's
// text.
func TestGeminiToolRoundTrip(t *testing.T) {
	f := newFakeAPI(t, sse(t, "gemini_tools.sse"), sse(t, "gemini_text.sse"))
	p, _ := newTestProvider(t, NameGemini, f)
	req := simpleRequest()
	resp, err := p.Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := resp.Message.Blocks[2:]
	req.Messages = append(req.Messages, resp.Message, Message{Role: RoleUser, Blocks: []Block{
		{Kind: BlockText, Text: "also this"},
		{Kind: BlockToolResult, ToolCallID: calls[0].ToolCallID, Text: "package a"},
		{Kind: BlockToolResult, ToolCallID: calls[1].ToolCallID, Text: "bad pattern", IsError: true},
	}})
	if _, err := p.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	b := f.requests()[1].JSON(t)
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"contents", 1, "role"}, "model"},
		{[]any{"contents", 1, "parts", 0, "text"}, "Reading both."}, // thinking not replayed
		{[]any{"contents", 1, "parts", 1, "functionCall", "name"}, "read_file"},
		{[]any{"contents", 1, "parts", 1, "functionCall", "args", "path"}, "a.go"},
		{[]any{"contents", 1, "parts", 1, "functionCall", "id"}, nil},
		{[]any{"contents", 1, "parts", 1, "thoughtSignature"}, "CiQBVKhc7sHsb2nZ1vX0aW5n"},
		{[]any{"contents", 1, "parts", 2, "functionCall", "name"}, "grep"},
		{[]any{"contents", 1, "parts", 2, "thoughtSignature"}, nil},
		{[]any{"contents", 2, "role"}, "user"},
		{[]any{"contents", 2, "parts", 0, "functionResponse", "name"}, "read_file"},
		{[]any{"contents", 2, "parts", 0, "functionResponse", "response", "output"}, "package a"},
		{[]any{"contents", 2, "parts", 0, "functionResponse", "id"}, nil},
		{[]any{"contents", 2, "parts", 1, "functionResponse", "name"}, "grep"},
		{[]any{"contents", 2, "parts", 1, "functionResponse", "response", "error"}, "bad pattern"},
		{[]any{"contents", 2, "parts", 2, "text"}, "also this"},
	}
	for _, c := range checks {
		if got := at(t, b, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v = %#v, want %#v", c.path, got, c.want)
		}
	}
}

// Ids the API (or another provider) chose are sent back; a result whose
// call was compacted away is text; empty messages do not break the
// alternation of turns.
func TestGeminiRequestBody(t *testing.T) {
	f := newFakeAPI(t, sse(t, "gemini_text.sse"))
	p, _ := newTestProvider(t, NameGemini, f)
	req := historyRequest()
	req.Messages = append(req.Messages,
		Message{Role: RoleAssistant, Blocks: []Block{{Kind: BlockText, Text: ""}}},
		Message{Role: RoleUser, Blocks: []Block{{Kind: BlockToolResult, ToolCallID: "gone", Text: "old output"}}})
	if _, err := p.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	b := f.requests()[0].JSON(t)
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"systemInstruction", "parts", 0, "text"}, "You are parley."},
		{[]any{"generationConfig", "maxOutputTokens"}, 1000.0},
		{[]any{"generationConfig", "thinkingConfig", "thinkingBudget"}, 2048.0},
		{[]any{"generationConfig", "thinkingConfig", "includeThoughts"}, true},
		{[]any{"tools", 0, "functionDeclarations", 0, "name"}, "read_file"},
		{[]any{"tools", 0, "functionDeclarations", 0, "description"}, "Read a file."},
		{[]any{"tools", 0, "functionDeclarations", 0, "parameters", "required", 0}, "path"},
		{[]any{"tools", 0, "functionDeclarations", 1, "parameters", "additionalProperties"}, nil},
		{[]any{"contents", 0, "parts", 0, "text"}, "read a.go"},
		{[]any{"contents", 1, "parts", 0, "text"}, "Reading."},
		{[]any{"contents", 1, "parts", 1, "functionCall", "id"}, "call_1"},
		{[]any{"contents", 1, "parts", 1, "functionCall", "args"}, map[string]any{}},
		{[]any{"contents", 2, "parts", 0, "functionResponse", "id"}, "call_1"},
		{[]any{"contents", 2, "parts", 2, "text"}, "next"},
		{[]any{"contents", 2, "parts", 3, "text"}, "[result of tool call gone]\nold output"},
	}
	for _, c := range checks {
		if got := at(t, b, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v = %#v, want %#v", c.path, got, c.want)
		}
	}
	if n := len(b["contents"].([]any)); n != 3 {
		t.Errorf("%d contents, want 3: %s", n, f.requests()[0].Body)
	}
}

func TestGeminiParameters(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"jsonschema's", `{"type":"object","properties":{"path":{"type":"string","description":"p"},"ops":{"type":"array","items":{"type":"object","properties":{"op":{"type":"string","enum":["a","b"]}},"required":["op"],"additionalProperties":false}}},"required":["path"],"additionalProperties":false}`,
			`{"properties":{"ops":{"items":{"properties":{"op":{"enum":["a","b"],"type":"string"}},"required":["op"],"type":"object"},"type":"array"},"path":{"description":"p","type":"string"}},"required":["path"],"type":"object"}`},
		{"mcp's", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"mode":{"const":"fast"},"n":{"type":["integer","null"],"exclusiveMinimum":0},"v":{"oneOf":[{"type":"string"},{"type":"number"}]},"e":{"enum":[1,2]}},"required":["mode","missing"]}`,
			`{"properties":{"e":{},"mode":{"enum":["fast"]},"n":{"nullable":true,"type":"integer"},"v":{"anyOf":[{"type":"string"},{"type":"number"}]}},"required":["mode"],"type":"object"}`},
		{"free-form object", `{"type":"object","properties":{"env":{"type":"object","description":"variables","additionalProperties":{"type":"string"}}}}`,
			`{"properties":{"env":{"description":"variables"}},"type":"object"}`},
		{"no parameters", `{"type":"object","properties":{},"additionalProperties":false}`, ``},
		{"not an object", `[1,2]`, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(geminiParameters(json.RawMessage(tt.in))); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestGeminiBaseURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", defaultGeminiBase},
		{"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", defaultGeminiBase},
		{"https://generativelanguage.googleapis.com/v1/", "https://generativelanguage.googleapis.com/v1"},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/v1beta"},
	}
	for _, tt := range tests {
		if got, err := normalizeBaseURL(NameGemini, tt.in); err != nil || got != tt.want {
			t.Errorf("normalizeBaseURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if got := Detect("https://generativelanguage.googleapis.com/v1beta"); got != NameGemini {
		t.Errorf("Detect = %q", got)
	}
	if got := geminiEndpoint(defaultGeminiBase, "tunedModels/mine"); got != defaultGeminiBase+"/tunedModels/mine:streamGenerateContent?alt=sse" {
		t.Errorf("endpoint %q", got)
	}
}

func TestGeminiDebugLogHidesKey(t *testing.T) {
	var log bytes.Buffer
	f := newFakeAPI(t, sse(t, "gemini_text.sse"))
	p, _ := newTestProvider(t, NameGemini, f, func(c *Config) { c.Debug = &log })
	if _, err := p.Stream(context.Background(), simpleRequest(), nil); err != nil {
		t.Fatal(err)
	}
	s := log.String()
	if strings.Contains(s, testKey) || !strings.Contains(s, "X-Goog-Api-Key: [REDACTED]") || !strings.Contains(s, `"text":", world!"`) {
		t.Errorf("debug log:\n%s", s)
	}
}

func TestGeminiModelLimits(t *testing.T) {
	tests := []struct {
		model          string
		window, output int
	}{
		{"gemini-2.5-pro", 1_048_576, 65_536},
		{"models/gemini-2.5-flash", 1_048_576, 65_536},
		{"gemini-2.0-flash-001", 1_048_576, 8_192},
		{"gemini-3-pro-preview", 1_048_576, 65_536},
		{"gemini-1.5-pro-002", 2_097_152, 8_192},
		{"gemini-flash-latest", 1_048_576, 65_536},
	}
	for _, tt := range tests {
		if w, o := ContextWindow(tt.model, 0), MaxOutputTokens(tt.model); w != tt.window || o != tt.output {
			t.Errorf("%s: window %d output %d, want %d %d", tt.model, w, o, tt.window, tt.output)
		}
	}
}
