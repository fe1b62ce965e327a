package config

import (
	"encoding/json"
	"reflect"
	"testing"
)

// normalized drops the difference between an empty and a nil rule list,
// which JSON (omitempty) does not keep and the merge does not see.
func normalized(l Layer) Layer {
	if l.Permissions != nil {
		r := *l.Permissions
		for _, s := range []*[]string{&r.Allow, &r.Deny, &r.Ask} {
			if len(*s) == 0 {
				*s = nil
			}
		}
		l.Permissions = &r
	}
	if l.Completion != nil && len(l.Completion.Languages) == 0 {
		c := *l.Completion
		c.Languages = nil
		l.Completion = &c
	}
	return l
}

// FuzzParseLayer parses arbitrary config files and initializationOptions.
// An accepted layer marshals to JSON that parses to the same layer, and
// merging it into the defaults either fails or yields a configuration
// whose printable form carries no key.
func FuzzParseLayer(f *testing.F) {
	for _, s := range []string{
		``, ` `, `null`, `{}`, `[]`, `"x"`, `{} {}`, `{}]`, `{"model":"u"}`,
		`{"api_url":"http://localhost:11434/v1","model":"qwen","provider":"openai-compatible"}`,
		`{"provider":"anthropic","anthropic_api_key":"sk-ant-x","thinking_budget":2048,"max_tokens":8192}`,
		`{"api_key":"sk-secret-1234","api_url":"https://example.com/v1/chat/completions"}`,
		`{"permission_mode":"bypassPermissions","permissions":{"allow":["shell(go test:*)"],"deny":["edit(.git/**)"],"ask":[]}}`,
		`{"permissions":{}}`, `{"permissions":null}`, `{"permissions":{"deny":[null]}}`,
		`{"max_iterations":0,"shell_timeout_seconds":301,"context_window":-1}`,
		`{"max_iterations":1.5}`, `{"max_iterations":1e3}`, `{"max_iterations":99999999999999999999}`,
		`{"MODEL":"case"}`, `{"model":"a","model":"b"}`, `{"bogus":1}`, `{"model":null}`,
		`{"model":"\ud800\u0000"}`, "{\"model\":\"\xff\"}",
		`{"completion":{"provider":"ollama","model":"m","api_url":"http://localhost:11434","max_tokens":64,"context_tokens":0,"debounce_ms":75,"enabled":true,"languages":{"markdown":false,"Go":true}}}`,
		`{"completion":{"provider":"codestral","api_key_env":"CODESTRAL_API_KEY"}}`, `{"completion":{"api_key":"sk-x"}}`,
		`{"completion":{"languages":{}}}`, `{"completion":null}`, `{"completion":{"languages":{"go":null}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLayer(data)
		if err != nil {
			return
		}
		enc, err := json.Marshal(l)
		if err != nil {
			t.Fatalf("ParseLayer(%q) = %+v, which does not marshal: %v", data, l, err)
		}
		again, err := ParseLayer(enc)
		if err != nil {
			t.Fatalf("ParseLayer(%q) accepted, but its JSON %s is refused: %v", data, enc, err)
		}
		if !reflect.DeepEqual(normalized(l), normalized(again)) {
			enc2, _ := json.Marshal(again)
			t.Fatalf("ParseLayer(%q): round trip changed the layer:\n first %s\nsecond %s", data, enc, enc2)
		}

		c := &Config{Sources: map[string]string{}}
		if err := c.resolve(); err != nil {
			t.Fatal(err)
		}
		if err := c.Merge(l, "fuzz"); err != nil {
			return
		}
		r := c.Redacted()
		for _, k := range []string{r.APIKey, r.AnthropicAPIKey, r.OpenAIAPIKey} {
			if k != "" && k != "[redacted]" {
				t.Fatalf("Redacted keeps the key %q", k)
			}
		}
		if p := c.Completion; p.MaxTokens <= 0 || p.ContextTokens < 0 || p.DebounceMS < 0 || p.DebounceMS > MaxCompletionDebounceMS {
			t.Fatalf("merged %s into out-of-range completion settings: %+v", enc, p)
		}
		if c.ShellTimeoutSeconds <= 0 || c.ShellTimeoutSeconds > MaxShellTimeout || c.MaxIterations <= 0 {
			t.Fatalf("merged %s into an out-of-range configuration: %s", enc, c)
		}
	})
}
