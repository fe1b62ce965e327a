package fim_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/complete/fim"
)

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    fim.Config
		err  string // substring; "" for success
	}{
		{"ollama default URL", fim.Config{Provider: "ollama", Model: "m"}, ""},
		{"provider case", fim.Config{Provider: " Ollama ", Model: "m"}, ""},
		{"llamacpp no model", fim.Config{Provider: "llamacpp"}, ""},
		{"codestral default model", fim.Config{Provider: "codestral", APIKey: "k"}, ""},
		{"deepseek", fim.Config{Provider: "deepseek", APIKey: "k"}, ""},
		{"openai-chat local no key", fim.Config{Provider: "openai-chat", URL: "http://localhost:1234/v1", Model: "m"}, ""},
		{"anthropic-chat", fim.Config{Provider: "anthropic-chat", Model: "m", APIKey: "k"}, ""},
		{"unknown", fim.Config{Provider: "copilot"}, `fim: unknown provider "copilot"`},
		{"empty provider", fim.Config{}, `fim: unknown provider ""`},
		{"ollama no model", fim.Config{Provider: "ollama"}, "ollama: a model is required"},
		{"openai-completions no URL", fim.Config{Provider: "openai-completions", Model: "m"}, "openai-completions: a URL is required"},
		{"codestral no key", fim.Config{Provider: "codestral"}, "codestral: an API key is required"},
		{"deepseek no key", fim.Config{Provider: "deepseek"}, "deepseek: an API key is required"},
		{"anthropic no key", fim.Config{Provider: "anthropic-chat", Model: "m"}, "anthropic-chat: an API key is required"},
		{"openai no key", fim.Config{Provider: "openai-chat", Model: "m"}, "openai-chat: an API key is required"},
		{"bad scheme", fim.Config{Provider: "ollama", Model: "m", URL: "ftp://u:secret@host/x?token=t"}, `ollama: invalid URL "ftp://host/x"`},
		{"no host", fim.Config{Provider: "ollama", Model: "m", URL: "localhost:11434"}, "ollama: invalid URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := fim.New(tc.c)
			if tc.err == "" {
				if err != nil || m == nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "secret") {
				t.Fatalf("New error %v, want %q", err, tc.err)
			}
		})
	}
}

func TestEndpoint(t *testing.T) {
	for _, tc := range []struct{ provider, url, want string }{
		{"ollama", "http://h:11434", "http://h:11434/api/generate"},
		{"ollama", "http://h:11434/", "http://h:11434/api/generate"},
		{"ollama", "http://h:11434/api", "http://h:11434/api/generate"},
		{"ollama", "http://h/api/generate", "http://h/api/generate"},
		{"llamacpp", "http://h:8080", "http://h:8080/infill"},
		{"codestral", "https://api.mistral.ai", "https://api.mistral.ai/v1/fim/completions"},
		{"codestral", "https://api.mistral.ai/v1", "https://api.mistral.ai/v1/fim/completions"},
		{"deepseek", "https://api.deepseek.com/beta", "https://api.deepseek.com/beta/completions"},
		{"openai-completions", "http://h:8000/v1", "http://h:8000/v1/completions"},
		{"openai-completions", "http://h/proxy/v1/", "http://h/proxy/v1/completions"},
		{"openai-completions", "http://h/custom/complete", "http://h/custom/complete"},
	} {
		if got := fim.Endpoint(tc.provider, tc.url); got != tc.want {
			t.Errorf("endpoint(%s, %s) = %q, want %q", tc.provider, tc.url, got, tc.want)
		}
	}
}

func TestWithContext(t *testing.T) {
	sn := []fim.Snippet{{Path: "a.py", Text: "def f():\n\n    pass\n", Why: "imported"}}
	for _, tc := range []struct{ lang, want string }{
		{"python", "# Path: a.py (imported)\n# def f():\n#\n#     pass\n\n# Path: b.py\nPREFIX"},
		{"lua", "-- Path: a.py (imported)\n-- def f():\n--\n--     pass\n\n-- Path: b.py\nPREFIX"},
		{"html", "<!-- Path: a.py (imported) -->\n<!-- def f(): -->\n<!-- -->\n<!--     pass -->\n\n<!-- Path: b.py -->\nPREFIX"},
		{"unknown", "// Path: a.py (imported)\n// def f():\n//\n//     pass\n\n// Path: b.py\nPREFIX"},
	} {
		got := fim.WithContext(fim.Request{Path: "b.py", Language: tc.lang, Prefix: "PREFIX", Context: sn})
		if got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.lang, got, tc.want)
		}
	}
	if got := fim.WithContext(fim.Request{Path: "b.py", Prefix: "P"}); got != "P" {
		t.Errorf("no context: %q", got)
	}
}
