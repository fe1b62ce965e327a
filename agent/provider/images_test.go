package provider

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
)

// imageRequest is one user message: a question and a (tiny, fake) PNG.
func imageRequest() *Request {
	return &Request{Messages: []Message{{Role: RoleUser, Blocks: []Block{
		{Kind: BlockText, Text: "what is in the picture?"},
		{Kind: BlockImage, MediaType: "image/png", Data: "iVBORw0KGgo=", Name: "shot.png", Width: 4, Height: 3},
	}}}}
}

// TestImageWire checks the exact JSON of the image part each API gets.
func TestImageWire(t *testing.T) {
	tests := []struct {
		name, provider, fixture string
		// path to the user message's content in the request body
		content []any
		want    string
	}{
		{
			"anthropic", NameAnthropic, "anthropic_text.sse", []any{"messages", 0, "content"},
			`[{"type":"text","text":"what is in the picture?"},
			  {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="},"cache_control":{"type":"ephemeral"}}]`,
		},
		{
			"openai", NameOpenAI, "openai_text.sse", []any{"messages", 0, "content"},
			`[{"type":"text","text":"what is in the picture?"},
			  {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]`,
		},
		{
			"openai-compatible", NameOpenAICompatible, "openai_text.sse", []any{"messages", 0, "content"},
			`[{"type":"text","text":"what is in the picture?"},
			  {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}}]`,
		},
		{
			"gemini", NameGemini, "gemini_text.sse", []any{"contents", 0, "parts"},
			`[{"text":"what is in the picture?"},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeAPI(t, sse(t, tc.fixture))
			p, _ := newTestProvider(t, tc.provider, f)
			if _, err := p.Stream(context.Background(), imageRequest(), func(Delta) {}); err != nil {
				t.Fatal(err)
			}
			reqs := f.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			got := at(t, reqs[0].JSON(t), tc.content...)
			var want any
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				t.Errorf("content:\n got %s\nwant %s", g, tc.want)
			}
		})
	}
}

// TestImageOnlyMessage: a user message of images alone is still sent.
func TestImageOnlyMessage(t *testing.T) {
	req := imageRequest()
	req.Messages[0].Blocks = req.Messages[0].Blocks[1:]
	msgs := openaiMessages("", req.Messages)
	if len(msgs) != 1 || msgs[0].OfUser == nil || len(msgs[0].OfUser.Content.OfArrayOfContentParts) != 1 {
		b, _ := json.Marshal(msgs)
		t.Fatalf("messages = %s", b)
	}
	if got := anthropicMessages(req.Messages); len(got) != 1 || got[0].Content[0].OfImage == nil {
		t.Fatalf("anthropic messages = %+v", got)
	}
	if got := geminiContents(req.Messages); len(got) != 1 || got[0].Parts[0].InlineData == nil {
		t.Fatalf("gemini contents = %+v", got)
	}
}

func TestSupportsImages(t *testing.T) {
	tests := []struct {
		model     string
		overrides map[string]bool
		want      bool
	}{
		{"claude-sonnet-4-5", nil, true},
		{"claude-3-5-haiku-20241022", nil, true},
		{"claude-2.1", nil, false},
		{"gpt-4o-mini", nil, true},
		{"gpt-4.1", nil, true},
		{"gpt-5-mini", nil, true},
		{"o3-mini", nil, false},
		{"o4-mini", nil, true},
		{"gpt-3.5-turbo", nil, false},
		{"gpt-4", nil, false},
		{"openai/gpt-4o", nil, true},
		{"gemini-2.5-pro", nil, true},
		{"gemini-pro", nil, false},
		{"llava:13b", nil, true},
		{"qwen2.5-coder:7b", nil, false},
		{"deepseek-chat", nil, false},
		{"my-local-model", nil, false},
		{"my-local-model", map[string]bool{"My-Local": true}, true},
		{"gpt-4o", map[string]bool{"gpt-4o": false}, false},
	}
	for _, tc := range tests {
		if got := SupportsImages(tc.model, tc.overrides); got != tc.want {
			t.Errorf("SupportsImages(%q, %v) = %v, want %v", tc.model, tc.overrides, got, tc.want)
		}
	}
}

func TestImageTokens(t *testing.T) {
	tests := []struct {
		model string
		w, h  int
		want  int
	}{
		{"claude-sonnet-4-5", 1000, 1000, 1334},
		{"claude-sonnet-4-5", 1568, 1176, 1600}, // the API's own cap
		{"claude-sonnet-4-5", 200, 200, 54},
		{"gpt-4o", 1024, 1024, 765},  // OpenAI's worked example
		{"gpt-4o", 2048, 4096, 1105}, // ... and its second one
		{"gemini-2.5-pro", 300, 300, 258},
		{"gemini-2.5-pro", 1000, 800, 4 * 258},
		{"gpt-4o", 0, 10, 0},
	}
	for _, tc := range tests {
		if got := ImageTokens(tc.model, tc.w, tc.h); got != tc.want {
			t.Errorf("ImageTokens(%s, %d, %d) = %d, want %d", tc.model, tc.w, tc.h, got, tc.want)
		}
	}
}

func TestNoVisionError(t *testing.T) {
	err := &NoVisionError{Model: "gpt-3.5-turbo"}
	want := `model gpt-3.5-turbo does not accept images; pick a vision model with --model or /model ("model" in the config), or set "vision": {"gpt-3.5-turbo": true} in the config if it does`
	if err.Error() != want {
		t.Errorf("error = %s", err)
	}
}
