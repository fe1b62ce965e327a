package provider

import (
	"context"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct{ url, want string }{
		{"", NameOpenAI},
		{"https://api.anthropic.com/v1/messages", NameAnthropic},
		{"https://api.anthropic.com", NameAnthropic},
		{"HTTPS://API.ANTHROPIC.COM/v1", NameAnthropic},
		{"https://api.openai.com/v1/chat/completions", NameOpenAI},
		{"https://api.openai.com", NameOpenAI},
		{"http://localhost:11434/v1", NameOpenAICompatible},
		{"http://localhost:1234/v1/chat/completions", NameOpenAICompatible},
		{"http://127.0.0.1:8080", NameOpenAICompatible},
		{"https://api.deepseek.com", NameOpenAICompatible},
		{"https://dashscope.aliyuncs.com/compatible-mode/v1", NameOpenAICompatible},
		{"https://openrouter.ai/api/v1", NameOpenAICompatible},
		{"https://api.openai.com.evil.example/v1", NameOpenAICompatible},
		{"https://notanthropic.com/v1", NameOpenAICompatible},
		{"api.anthropic.com", NameAnthropic}, // no scheme: detected, then rejected by New
		{"api.anthropic.com/v1/messages", NameAnthropic},
		{"api.openai.com:443/v1", NameOpenAI},
		{"http://[::1", NameOpenAICompatible},
	}
	for _, tt := range tests {
		if got := Detect(tt.url); got != tt.want {
			t.Errorf("Detect(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestNormalizeBaseURL(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{NameAnthropic, "", "https://api.anthropic.com"},
		{NameAnthropic, "https://api.anthropic.com", "https://api.anthropic.com"},
		{NameAnthropic, "https://api.anthropic.com/", "https://api.anthropic.com"},
		{NameAnthropic, "https://api.anthropic.com/v1", "https://api.anthropic.com"},
		{NameAnthropic, "https://api.anthropic.com/v1/messages", "https://api.anthropic.com"},
		{NameAnthropic, "https://proxy.example/anthropic/v1/messages/", "https://proxy.example/anthropic"},
		{NameOpenAI, "", "https://api.openai.com/v1"},
		{NameOpenAI, "https://api.openai.com/v1/chat/completions", "https://api.openai.com/v1"},
		{NameOpenAI, "https://api.openai.com/v1/", "https://api.openai.com/v1"},
		{NameOpenAI, "https://api.openai.com", "https://api.openai.com/v1"},
		{NameOpenAICompatible, "http://localhost:11434/v1", "http://localhost:11434/v1"},
		{NameOpenAICompatible, "http://localhost:11434", "http://localhost:11434/v1"},
		{NameOpenAICompatible, "http://localhost:1234/v1/chat/completions", "http://localhost:1234/v1"},
		{NameOpenAICompatible, "https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"},
		{NameOpenAICompatible, "https://dashscope.aliyuncs.com/compatible-mode/v1", "https://dashscope.aliyuncs.com/compatible-mode/v1"},
		{NameOpenAICompatible, " https://api.deepseek.com/v1?x=1#frag ", "https://api.deepseek.com/v1"},
	}
	for _, tt := range tests {
		got, err := normalizeBaseURL(tt.name, tt.in)
		if err != nil || got != tt.want {
			t.Errorf("normalizeBaseURL(%s, %q) = %q, %v; want %q", tt.name, tt.in, got, err, tt.want)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"anthropic without key", Config{Provider: NameAnthropic}, "no API key"},
		{"openai without key", Config{APIURL: "https://api.openai.com/v1"}, "no API key"},
		{"unknown provider", Config{Provider: "vertex", APIKey: "k"}, "unknown provider"},
		{"gemini without key", Config{Provider: NameGemini}, "no API key"},
		{"compatible without url", Config{Provider: NameOpenAICompatible}, "api_url is required"},
		{"no scheme", Config{APIURL: "localhost:11434/v1"}, "invalid api_url"},
		{"bad scheme", Config{APIURL: "ftp://example.com/v1"}, "invalid api_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestNewPicksProvider(t *testing.T) {
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{APIURL: "https://api.anthropic.com/v1/messages", APIKey: "k"}, NameAnthropic},
		{Config{APIKey: "k"}, NameOpenAI},
		{Config{APIURL: "http://localhost:11434/v1"}, NameOpenAICompatible},
		{Config{Provider: "OpenAI", APIURL: "https://gateway.example/v1", APIKey: "k"}, NameOpenAI},
		{Config{Provider: NameAnthropic, APIURL: "https://gateway.example", APIKey: "k"}, NameAnthropic},
	}
	for _, tt := range tests {
		p, err := New(tt.cfg)
		if err != nil || p.Name() != tt.want {
			t.Errorf("New(%+v) = %v, %v; want %s", tt.cfg, p, err, tt.want)
		}
	}
}

func TestStreamWithoutModel(t *testing.T) {
	for _, name := range []string{NameAnthropic, NameOpenAI} {
		f := newFakeAPI(t, errorResponse(500, "{}"))
		p, _ := newTestProvider(t, name, f, func(c *Config) { c.Model = "" })
		_, err := p.Stream(context.Background(), simpleRequest(), nil)
		if err == nil || !strings.Contains(err.Error(), "no model") || len(f.requests()) != 0 {
			t.Errorf("%s: err = %v, %d requests", name, err, len(f.requests()))
		}
	}
}

func TestBadToolSchemaIsNotSent(t *testing.T) {
	for _, name := range []string{NameAnthropic, NameOpenAI} {
		f := newFakeAPI(t, errorResponse(500, "{}"))
		p, _ := newTestProvider(t, name, f)
		req := simpleRequest()
		req.Tools = []ToolSpec{{Name: "broken", InputSchema: []byte(`[1,2]`)}}
		_, err := p.Stream(context.Background(), req, nil)
		if err == nil || !strings.Contains(err.Error(), "tool broken") || len(f.requests()) != 0 {
			t.Errorf("%s: err = %v, %d requests", name, err, len(f.requests()))
		}
	}
}

// The SDKs' environment defaults must not leak into our requests: no
// OPENAI_API_KEY sent to a keyless local server, no ANTHROPIC_BASE_URL
// redirecting the client.
func TestEnvironmentIsIgnored(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-env-LEAK")
	t.Setenv("OPENAI_ADMIN_KEY", "sk-admin-LEAK")
	t.Setenv("OPENAI_ORG_ID", "org-LEAK")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-env-LEAK")

	local := newFakeAPI(t, sse(t, "openai_text.sse"))
	p, _ := newTestProvider(t, NameOpenAICompatible, local, func(c *Config) { c.APIKey = "" })
	if _, err := p.Stream(context.Background(), simpleRequest(), nil); err != nil {
		t.Fatal(err)
	}
	for k, v := range local.requests()[0].Header {
		if strings.Contains(strings.Join(v, " "), "LEAK") {
			t.Errorf("header %s = %v leaked from the environment", k, v)
		}
	}

	ant := newFakeAPI(t, sse(t, "anthropic_text.sse"))
	p, _ = newTestProvider(t, NameAnthropic, ant)
	if _, err := p.Stream(context.Background(), simpleRequest(), nil); err != nil {
		t.Fatal(err)
	}
	if got := ant.requests()[0].Header.Get("X-Api-Key"); got != testKey {
		t.Errorf("x-api-key = %q", got)
	}
}
