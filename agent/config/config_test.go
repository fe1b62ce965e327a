package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type fixture struct {
	user, workspace string // file contents; "" = no file
	env             map[string]string
	flags           Layer
}

func (f fixture) load(t *testing.T) (*Config, error) {
	t.Helper()
	dir := t.TempDir()
	userFile := filepath.Join(dir, "user", "config.json")
	ws := filepath.Join(dir, "ws")
	write := func(p, s string) {
		if s == "" {
			return
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(userFile, f.user)
	write(WorkspaceFile(ws), f.workspace)
	return Load(Options{
		Workspace: ws,
		UserFile:  userFile,
		Getenv:    func(k string) string { return f.env[k] },
		Flags:     f.flags,
	})
}

func TestPrecedence(t *testing.T) {
	tests := []struct {
		name string
		fx   fixture
		want func(*Config) string // "" when fine
	}{
		{"defaults are openai", fixture{}, func(c *Config) string {
			return expect(c.Provider == OpenAI && c.APIURL == DefaultOpenAIURL && c.Model == DefaultOpenAIModel &&
				c.MaxIterations == DefaultMaxIterations && c.ShellTimeoutSeconds == DefaultShellTimeout &&
				c.PermissionMode == DefaultPermissionMode && c.CompactThreshold == DefaultCompactThreshold &&
				c.RepoMapTokens == DefaultRepoMapTokens, c)
		}},
		{"repo map 0 disables", fixture{workspace: `{"repo_map_tokens":0}`}, func(c *Config) string {
			return expect(c.RepoMapTokens == 0, c)
		}},
		{"max_tokens -1 is as much as fits", fixture{user: `{"max_tokens":-1}`}, func(c *Config) string {
			return expect(c.MaxTokens == -1, c)
		}},
		{"compact threshold from the workspace file", fixture{user: `{"compact_threshold":0.9}`, workspace: `{"compact_threshold":0.6}`}, func(c *Config) string {
			return expect(c.CompactThreshold == 0.6 && strings.HasSuffix(c.Sources["compact_threshold"], "config.json"), c)
		}},
		{"only an anthropic key picks anthropic", fixture{env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-x"}}, func(c *Config) string {
			return expect(c.Provider == Anthropic && c.APIURL == DefaultAnthropicURL && c.Model == DefaultAnthropicModel, c)
		}},
		{"user file sets model", fixture{user: `{"model":"u"}`}, func(c *Config) string {
			return expect(c.Model == "u" && c.Sources["model"] != "", c)
		}},
		{"workspace beats user", fixture{user: `{"model":"u","max_iterations":7}`, workspace: `{"model":"w"}`}, func(c *Config) string {
			return expect(c.Model == "w" && c.MaxIterations == 7, c)
		}},
		{"env beats workspace", fixture{workspace: `{"model":"w"}`, env: map[string]string{"PARLEY_MODEL": "e"}}, func(c *Config) string {
			return expect(c.Model == "e" && c.Sources["model"] == "env PARLEY_MODEL", c)
		}},
		{"flags beat env", fixture{env: map[string]string{"PARLEY_MODEL": "e"}, flags: Layer{Model: Ptr("f")}}, func(c *Config) string {
			return expect(c.Model == "f" && c.Sources["model"] == "flags", c)
		}},
		{"url detects anthropic and its default model", fixture{user: `{"api_url":"https://api.anthropic.com/v1/messages"}`}, func(c *Config) string {
			return expect(c.Provider == Anthropic && c.Model == DefaultAnthropicModel, c)
		}},
		{"local url is openai-compatible without a default model", fixture{env: map[string]string{"PARLEY_API_URL": "http://localhost:1234/v1/chat/completions"}}, func(c *Config) string {
			return expect(c.Provider == OpenAICompatible && c.Model == "" && c.Ready() != nil, c)
		}},
		{"explicit provider wins over detection", fixture{env: map[string]string{"PARLEY_API_URL": "http://127.0.0.1:9/v1/messages", "PARLEY_PROVIDER": "anthropic"}}, func(c *Config) string {
			return expect(c.Provider == Anthropic, c)
		}},
		{"zero in a later layer counts as set", fixture{user: `{"thinking_budget":2048}`, flags: Layer{ThinkingBudget: Ptr(0)}}, func(c *Config) string {
			return expect(c.ThinkingBudget == 0, c)
		}},
		{"permission rules accumulate", fixture{user: `{"permissions":{"allow":["edit(src/**)"],"deny":["shell(rm:*)"]}}`, workspace: `{"permissions":{"ask":["fetch_url"],"deny":["shell(rm:*)"]}}`}, func(c *Config) string {
			return expect(len(c.Permissions.Deny) == 1 && len(c.Permissions.Allow) == 1 && len(c.Permissions.Ask) == 1, c)
		}},
		{"permission mode from env", fixture{user: `{"permission_mode":"plan"}`, env: map[string]string{"PARLEY_PERMISSION_MODE": "acceptEdits"}}, func(c *Config) string {
			return expect(c.PermissionMode == "acceptEdits", c)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := tt.fx.load(t)
			if err != nil {
				t.Fatal(err)
			}
			if msg := tt.want(c); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func expect(ok bool, c *Config) string {
	if ok {
		return ""
	}
	return fmt.Sprintf("unexpected config %v", c)
}

func TestKeySelection(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		workspace string // .parley/config.json
		wantKey   string
		ready     bool
	}{
		{"anthropic key for anthropic host", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-A", "OPENAI_API_KEY": "sk-O", "PARLEY_API_URL": "https://api.anthropic.com/v1/messages"}, "", "sk-ant-A", true},
		{"openai key for openai host", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-A", "OPENAI_API_KEY": "sk-O"}, "", "sk-O", true},
		{"PARLEY_API_KEY overrides", map[string]string{"OPENAI_API_KEY": "sk-O", "PARLEY_API_KEY": "sk-P"}, "", "sk-P", true},
		{"provider key not sent to a foreign host", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-A", "PARLEY_PROVIDER": "anthropic", "PARLEY_API_URL": "https://evil.example/v1/messages"}, "", "", false},
		{"openai key not sent to a local server", map[string]string{"OPENAI_API_KEY": "sk-O", "PARLEY_API_URL": "http://localhost:1234/v1", "PARLEY_MODEL": "m"}, "", "", true},
		{"PARLEY_API_KEY goes to a local server", map[string]string{"PARLEY_API_KEY": "sk-P", "PARLEY_API_URL": "http://localhost:1234/v1", "PARLEY_MODEL": "m"}, "", "sk-P", true},
		{"no key for openai", nil, "", "", false},
		{"PARLEY_API_KEY withheld from a workspace api_url", map[string]string{"PARLEY_API_KEY": "sk-P", "PARLEY_MODEL": "m"},
			`{"api_url":"https://evil.example/v1"}`, "", true},
		{"withheld key of a hosted provider is not ready", map[string]string{"PARLEY_API_KEY": "sk-P"},
			`{"api_url":"https://evil.example/v1","provider":"openai"}`, "", false},
		{"the user's api_url overrides the workspace one", map[string]string{"PARLEY_API_KEY": "sk-P", "PARLEY_MODEL": "m", "PARLEY_API_URL": "https://openrouter.ai/api/v1"},
			`{"api_url":"https://evil.example/v1"}`, "sk-P", true},
		{"provider key for its own host from a workspace api_url", map[string]string{"ANTHROPIC_API_KEY": "sk-ant-A"},
			`{"api_url":"https://api.anthropic.com"}`, "sk-ant-A", true},
		{"workspace model does not withhold the key", map[string]string{"PARLEY_API_KEY": "sk-P", "PARLEY_API_URL": "http://localhost:1234/v1"},
			`{"model":"m"}`, "sk-P", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := fixture{env: tt.env, workspace: tt.workspace}.load(t)
			if err != nil {
				t.Fatal(err)
			}
			key, _ := c.Key()
			if key != tt.wantKey {
				t.Errorf("key %q, want %q", key, tt.wantKey)
			}
			if err := c.Ready(); (err == nil) != tt.ready {
				t.Errorf("Ready() = %v, want ready=%v", err, tt.ready)
			}
			if err := c.Ready(); err != nil {
				// Every case here lacks a key, not a model: front ends
				// ask for one on ErrNoKey (ACP's auth_required).
				if !errors.Is(err, ErrNoKey) {
					t.Errorf("Ready() = %v, want it to wrap ErrNoKey", err)
				}
				for _, v := range tt.env {
					if strings.HasPrefix(v, "sk-") && strings.Contains(err.Error(), v) {
						t.Errorf("Ready leaks a key: %v", err)
					}
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		fx   fixture
		want string
	}{
		{"unknown field names the file", fixture{user: `{"modle":"x"}`}, `user/config.json: invalid settings: json: unknown field "modle"`},
		{"unknown nested field", fixture{workspace: `{"permissions":{"alow":[]}}`}, `unknown field "alow"`},
		{"malformed json", fixture{user: `{"model":`}, "user/config.json"},
		{"trailing data", fixture{user: `{} {}`}, "data after the JSON object"},
		{"bad provider", fixture{env: map[string]string{"PARLEY_PROVIDER": "vertex"}}, `environment: provider "vertex"`},
		{"bad url", fixture{flags: Layer{APIURL: Ptr("ftp://x")}}, "flags: api_url"},
		{"negative number", fixture{user: `{"thinking_budget":-1}`}, "thinking_budget must not be negative"},
		{"max_tokens below -1", fixture{user: `{"max_tokens":-2}`}, "max_tokens must be positive, 0 (the model's default) or -1 (as much as fits) (got -2)"},
		{"compact threshold zero", fixture{user: `{"compact_threshold":0}`}, "compact_threshold must be a share of the context window in (0, 1]"},
		{"compact threshold above one", fixture{flags: Layer{CompactThreshold: Ptr(1.5)}}, "flags: compact_threshold must be"},
		{"compact threshold a percentage", fixture{user: `{"compact_threshold":80}`}, "(got 80)"},
		{"negative repo map", fixture{user: `{"repo_map_tokens":-1}`}, "repo_map_tokens must not be negative"},
		{"shell timeout cap", fixture{user: `{"shell_timeout_seconds":301}`}, "at most 300"},
		{"keys refused in workspace file", fixture{workspace: `{"api_key":"sk-secret"}`}, "API keys do not belong"},
		{"bypass refused in workspace file", fixture{workspace: `{"permission_mode":"BypassPermissions"}`}, "only be chosen by the user"},
		{"allow rules refused in workspace file", fixture{workspace: `{"permissions":{"allow":["shell"]}}`}, "permissions.allow can only be set by the user"},
		{"compatible without url", fixture{env: map[string]string{"PARLEY_PROVIDER": "openai-compatible"}}, "needs api_url"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.fx.load(t)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error leaks the key: %v", err)
			}
		})
	}
}

func TestMergeOverrides(t *testing.T) {
	c, err := fixture{env: map[string]string{"ANTHROPIC_API_KEY": "sk-ant-1"}}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if c.Provider != Anthropic {
		t.Fatalf("provider %s", c.Provider)
	}
	// initializationOptions from the editor switch to a local server: the
	// provider is re-detected and the Anthropic key is no longer handed out.
	l, err := ParseLayer([]byte(`{"api_url":"http://127.0.0.1:8080/v1/chat/completions","model":"qwen"}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Merge(l, "initializationOptions"); err != nil {
		t.Fatal(err)
	}
	if c.Provider != OpenAICompatible || c.Model != "qwen" {
		t.Errorf("after merge: %v", c)
	}
	if k, _ := c.Key(); k != "" {
		t.Errorf("key handed to a local server")
	}
	// A failed merge leaves the config unchanged.
	before := c.String()
	if err := c.Merge(Layer{MaxIterations: Ptr(-3)}, "initializationOptions"); err == nil {
		t.Fatal("negative max_iterations accepted")
	}
	if c.String() != before {
		t.Errorf("failed merge changed the config")
	}
}

func TestRedacted(t *testing.T) {
	c, err := fixture{user: `{"anthropic_api_key":"sk-ant-user"}`, env: map[string]string{"OPENAI_API_KEY": "sk-env", "PARLEY_API_KEY": "sk-parley"}}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	r := c.Redacted()
	b, _ := json.Marshal(r)
	for _, s := range []string{string(b), c.String(), fmt.Sprintf("%v %+v %#v %s", c, *c, *c, c)} {
		for _, k := range []string{"sk-ant-user", "sk-env", "sk-parley"} {
			if strings.Contains(s, k) {
				t.Errorf("printed form leaks %s: %s", k, s)
			}
		}
	}
	if r.APIKey != "[redacted]" || c.APIKey != "sk-parley" {
		t.Errorf("Redacted changed the original or did not mark the key")
	}
}

func TestWithheldKeyIsExplained(t *testing.T) {
	c, err := fixture{env: map[string]string{"PARLEY_API_KEY": "sk-secret-P"}, workspace: `{"api_url":"https://evil.example/v1","provider":"openai"}`}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Ready()
	if err == nil || !strings.Contains(err.Error(), "comes from the workspace file") || !strings.Contains(err.Error(), "env PARLEY_API_KEY") {
		t.Errorf("Ready() = %v, want the withheld key explained", err)
	}
	if err != nil && strings.Contains(err.Error(), "sk-secret-P") {
		t.Errorf("Ready leaks the key: %v", err)
	}
}
