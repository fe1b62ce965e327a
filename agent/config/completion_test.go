package config

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/complete/fim"
)

func TestCompletionModel(t *testing.T) {
	const local = `"provider":"openai-completions","model":"qwen","api_url":"http://localhost:8000/v1","api_key_env":"MY_KEY"`
	tests := []struct {
		name string
		f    fixture
		want fim.Config // when ok
		ok   bool
		err  string // substring of the error
	}{
		{name: "none", f: fixture{}},
		{name: "disabled", f: fixture{user: `{"completion":{"provider":"ollama","model":"m","enabled":false}}`}},
		{name: "ollama needs no key", f: fixture{user: `{"completion":{"provider":"ollama","model":"qwen2.5-coder:1.5b"}}`, env: map[string]string{"OPENAI_API_KEY": "sk-O"}},
			want: fim.Config{Provider: "ollama", Model: "qwen2.5-coder:1.5b"}, ok: true},
		{name: "codestral default key", f: fixture{user: `{"completion":{"provider":"codestral"}}`, env: map[string]string{"CODESTRAL_API_KEY": "cs", "MISTRAL_API_KEY": "mi"}},
			want: fim.Config{Provider: "codestral", APIKey: "cs"}, ok: true},
		{name: "codestral falls back to the Mistral key", f: fixture{user: `{"completion":{"provider":"codestral"}}`, env: map[string]string{"MISTRAL_API_KEY": "mi"}},
			want: fim.Config{Provider: "codestral", APIKey: "mi"}, ok: true},
		{name: "codestral on api.mistral.ai prefers the Mistral key", f: fixture{user: `{"completion":{"provider":"codestral","api_url":"https://api.mistral.ai/v1/fim/completions"}}`, env: map[string]string{"CODESTRAL_API_KEY": "cs", "MISTRAL_API_KEY": "mi"}},
			want: fim.Config{Provider: "codestral", URL: "https://api.mistral.ai/v1/fim/completions", APIKey: "mi"}, ok: true},
		{name: "deepseek from the workspace keeps its own host", f: fixture{workspace: `{"completion":{"provider":"deepseek"}}`, env: map[string]string{"DEEPSEEK_API_KEY": "ds"}},
			want: fim.Config{Provider: "deepseek", APIKey: "ds"}, ok: true},
		{name: "deepseek key not sent to a workspace URL", f: fixture{workspace: `{"completion":{"provider":"deepseek","api_url":"https://evil.example/beta"}}`, env: map[string]string{"DEEPSEEK_API_KEY": "ds"}},
			err: "no API key for deepseek at evil.example (completion.api_url from "},
		{name: "codestral without a key", f: fixture{user: `{"completion":{"provider":"codestral"}}`},
			err: "no API key for codestral: set CODESTRAL_API_KEY or MISTRAL_API_KEY"},
		{name: "anthropic key only for anthropic.com", f: fixture{user: `{"completion":{"provider":"anthropic-chat","model":"c","api_url":"https://proxy.example/v1/messages"}}`, env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant"}},
			err: "no API key for anthropic-chat at proxy.example"},
		{name: "anthropic-chat", f: fixture{user: `{"completion":{"provider":"anthropic-chat","model":"claude-haiku-4-5"}}`, env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant"}},
			want: fim.Config{Provider: "anthropic-chat", Model: "claude-haiku-4-5", APIKey: "sk-ant"}, ok: true},
		{name: "openai-chat on a local server gets no OpenAI key", f: fixture{user: `{"completion":{"provider":"openai-chat","model":"m","api_url":"http://localhost:1234/v1"}}`, env: map[string]string{"OPENAI_API_KEY": "sk-O"}},
			want: fim.Config{Provider: "openai-chat", Model: "m", URL: "http://localhost:1234/v1"}, ok: true},
		{name: "openai-chat default", f: fixture{user: `{"completion":{"provider":"openai-chat","model":"gpt-4.1-mini"}}`, env: map[string]string{"OPENAI_API_KEY": "sk-O"}},
			want: fim.Config{Provider: "openai-chat", Model: "gpt-4.1-mini", APIKey: "sk-O"}, ok: true},
		{name: "gemini-chat takes Google's key first", f: fixture{user: `{"completion":{"provider":"gemini-chat","model":"gemini-2.5-flash"}}`, env: map[string]string{"GEMINI_API_KEY": "gm", "GOOGLE_API_KEY": "gg"}},
			want: fim.Config{Provider: "gemini-chat", Model: "gemini-2.5-flash", APIKey: "gg"}, ok: true},
		{name: "gemini-chat with the Gemini key", f: fixture{user: `{"completion":{"provider":"gemini-chat","model":"gemini-2.5-flash"}}`, env: map[string]string{"GEMINI_API_KEY": "gm"}},
			want: fim.Config{Provider: "gemini-chat", Model: "gemini-2.5-flash", APIKey: "gm"}, ok: true},
		{name: "gemini key only for googleapis.com", f: fixture{user: `{"completion":{"provider":"gemini-chat","model":"g","api_url":"https://proxy.example/v1beta"}}`, env: map[string]string{"GEMINI_API_KEY": "gm"}},
			err: "no API key for gemini-chat at proxy.example"},
		{name: "api_key_env from the user file", f: fixture{user: `{"completion":{` + local + `}}`, env: map[string]string{"MY_KEY": "k"}},
			want: fim.Config{Provider: "openai-completions", Model: "qwen", URL: "http://localhost:8000/v1", APIKey: "k"}, ok: true},
		{name: "api_key_env unset in the environment", f: fixture{user: `{"completion":{` + local + `}}`},
			err: "completion.api_key_env names MY_KEY, which is not set"},
		{name: "workspace repeats the user's URL", f: fixture{user: `{"completion":{` + local + `}}`, workspace: `{"completion":{"api_url":"http://localhost:8000/v1","max_tokens":64}}`, env: map[string]string{"MY_KEY": "k"}},
			want: fim.Config{Provider: "openai-completions", Model: "qwen", URL: "http://localhost:8000/v1", APIKey: "k"}, ok: true},
		{name: "workspace URL withholds the key", f: fixture{user: `{"completion":{` + local + `}}`, workspace: `{"completion":{"api_url":"https://evil.example/v1"}}`, env: map[string]string{"MY_KEY": "k"}},
			err: "the key in $MY_KEY is not sent to evil.example because completion.api_url comes from "},
		{name: "workspace api_key_env withholds the key", f: fixture{user: `{"completion":{` + local + `}}`, workspace: `{"completion":{"api_key_env":"GITHUB_TOKEN"}}`, env: map[string]string{"GITHUB_TOKEN": "gh"}},
			err: "completion.api_key_env comes from "},
		{name: "workspace provider withholds the key", f: fixture{user: `{"completion":{"provider":"codestral","api_key_env":"MY_KEY"}}`, workspace: `{"completion":{"provider":"deepseek"}}`, env: map[string]string{"MY_KEY": "k"}},
			err: "completion.provider comes from "},
		{name: "workspace alone names api_key_env", f: fixture{workspace: `{"completion":{` + local + `}}`, env: map[string]string{"MY_KEY": "k"}},
			err: "completion.api_url comes from "},
		{name: "model without a provider", f: fixture{user: `{"completion":{"model":"m"}}`}, err: "completion.model is set"},
		{name: "ollama without a model", f: fixture{user: `{"completion":{"provider":"ollama"}}`}, err: "completion: ollama: a model is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.f.load(t)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := c.CompletionModel()
			if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("err = %v, want %q", err, tt.err)
			}
			if ok != tt.ok || got != tt.want {
				t.Errorf("CompletionModel() = %+v %v, want %+v %v", got, ok, tt.want, tt.ok)
			}
			for _, k := range []string{"sk-O", "sk-ant", "ds", "gh"} {
				if err != nil && strings.Contains(err.Error(), `"`+k+`"`) || strings.Contains(c.String(), `"`+k+`"`) {
					t.Errorf("key %q printed", k)
				}
			}
			if err != nil && strings.Contains(err.Error(), "withheld") && !errors.Is(err, ErrNoKey) {
				t.Errorf("err does not wrap ErrNoKey")
			}
		})
	}
}

func TestCompletionSettings(t *testing.T) {
	c, err := fixture{}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if p := c.Completion; p.MaxTokens != 128 || p.ContextTokens != 1024 || p.DebounceMS != 75 || !p.Enabled || p.EnabledFor("go") || p.NextEdit != NextEditIndex {
		t.Errorf("defaults %+v", p)
	}
	c, err = fixture{
		user:      `{"completion":{"provider":"ollama","model":"m","languages":{"markdown":false,"text":false}}}`,
		workspace: `{"completion":{"max_tokens":64,"context_tokens":0,"debounce_ms":150,"languages":{"Go":false,"markdown":true},"next_edit":"model"}}`,
	}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	p := c.Completion
	if p.MaxTokens != 64 || p.ContextTokens != 0 || p.DebounceMS != 150 || p.Provider != "ollama" || p.NextEdit != NextEditModel {
		t.Errorf("merged %+v", p)
	}
	for lang, want := range map[string]bool{"go": false, "Go": false, "markdown": true, "text": false, "python": true} {
		if got := p.EnabledFor(lang); got != want {
			t.Errorf("EnabledFor(%s) = %v, want %v", lang, got, want)
		}
	}
	if !strings.HasSuffix(c.Sources["completion.max_tokens"], ".parley/config.json") || !strings.HasSuffix(c.Sources["completion.provider"], "user/config.json") {
		t.Errorf("sources %v", c.Sources)
	}
}

func TestCompletionErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    fixture
		err  string
	}{
		{"key in the workspace file", fixture{workspace: `{"completion":{"provider":"codestral","api_key":"sk-literal"}}`}, `.parley/config.json: completion.api_key: a key is never read from a config file`},
		{"key in the user file", fixture{user: `{"completion":{"api_key":"sk-literal"}}`}, `user/config.json: completion.api_key`},
		{"a key as api_key_env", fixture{user: `{"completion":{"api_key_env":"sk-literal-123"}}`}, "must name an environment variable"},
		{"unknown field", fixture{workspace: `{"completion":{"temperature":0.5}}`}, `.parley/config.json: invalid settings: json: unknown field "temperature"`},
		{"unknown provider", fixture{user: `{"completion":{"provider":"copilot"}}`}, `completion.provider "copilot": want one of ollama, llamacpp`},
		{"bad URL", fixture{user: `{"completion":{"api_url":"localhost:11434?token=secret"}}`}, "completion.api_url"},
		{"max_tokens 0", fixture{user: `{"completion":{"max_tokens":0}}`}, "completion.max_tokens must be positive"},
		{"negative context", fixture{user: `{"completion":{"context_tokens":-1}}`}, "completion.context_tokens"},
		{"debounce too long", fixture{user: `{"completion":{"debounce_ms":5000}}`}, "completion.debounce_ms must be in [0, 2000]"},
		{"next edit source", fixture{user: `{"completion":{"next_edit":"guess"}}`}, `completion.next_edit "guess": want "index", "model" or "off"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.f.load(t)
			if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "sk-literal") || strings.Contains(err.Error(), "secret") {
				t.Errorf("err = %v, want %q (without the key)", err, tc.err)
			}
		})
	}
}

// TestCompletionFromEditor: the editor's settings (initializationOptions,
// which a repository's editor settings may supply) can pick a model but
// never steer a key.
func TestCompletionFromEditor(t *testing.T) {
	f := fixture{
		user: `{"completion":{"provider":"openai-completions","model":"m","api_url":"http://localhost:8000/v1","api_key_env":"MY_KEY"}}`,
		env:  map[string]string{"MY_KEY": "k", "AWS_SECRET_ACCESS_KEY": "aws", "DEEPSEEK_API_KEY": "ds"},
	}
	for _, tc := range []struct {
		name, options string
		key, err      string
	}{
		{"model only", `{"completion":{"model":"other"}}`, "k", ""},
		{"URL", `{"completion":{"api_url":"https://evil.example/v1"}}`, "", "completion.api_url comes from initializationOptions"},
		{"env name", `{"completion":{"api_key_env":"AWS_SECRET_ACCESS_KEY"}}`, "", "completion.api_key_env comes from initializationOptions"},
		{"provider with its own key", `{"completion":{"provider":"deepseek","api_url":"https://api.deepseek.com/beta/completions","api_key_env":null}}`, "", "completion.provider comes from initializationOptions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := f.load(t)
			if err != nil {
				t.Fatal(err)
			}
			l, err := ParseLayer([]byte(tc.options))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Merge(l, "initializationOptions"); err != nil {
				t.Fatal(err)
			}
			fc, _, err := c.CompletionModel()
			if fc.APIKey != tc.key || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
				t.Errorf("key %q, err %v; want key %q, err %q", fc.APIKey, err, tc.key, tc.err)
			}
		})
	}
	c, err := f.load(t)
	if err != nil {
		t.Fatal(err)
	}
	var l Layer
	if err := json.Unmarshal([]byte(`{"completion":{"api_key":"sk-literal"}}`), &l); err != nil {
		t.Fatal(err)
	}
	if err := c.Merge(l, "initializationOptions"); err == nil || strings.Contains(err.Error(), "sk-literal") {
		t.Errorf("a key in initializationOptions: %v", err)
	}
}
