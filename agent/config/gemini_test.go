package config

import (
	"errors"
	"strings"
	"testing"
)

func TestGeminiConfig(t *testing.T) {
	tests := []struct {
		name string
		fx   fixture
		want func(*Config) string // "" when fine
	}{
		{"only a gemini key picks gemini", fixture{env: map[string]string{"GEMINI_API_KEY": "g-key"}}, func(c *Config) string {
			key, src := c.Key()
			return expect(c.Provider == Gemini && c.APIURL == DefaultGeminiURL && c.Model == DefaultGeminiModel &&
				key == "g-key" && src == "env GEMINI_API_KEY" && c.Ready() == nil, c)
		}},
		{"GOOGLE_API_KEY as Google's SDKs take it, and first", fixture{env: map[string]string{"GEMINI_API_KEY": "g-key", "GOOGLE_API_KEY": "google-key"}}, func(c *Config) string {
			key, src := c.Key()
			return expect(c.Provider == Gemini && key == "google-key" && src == "env GOOGLE_API_KEY", c)
		}},
		{"an anthropic key still wins", fixture{env: map[string]string{"GEMINI_API_KEY": "g", "ANTHROPIC_API_KEY": "a"}}, func(c *Config) string {
			return expect(c.Provider == Anthropic, c)
		}},
		{"provider gemini from the environment", fixture{env: map[string]string{"PARLEY_PROVIDER": "gemini"}}, func(c *Config) string {
			err := c.Ready()
			return expect(c.Provider == Gemini && c.APIURL == DefaultGeminiURL && errors.Is(err, ErrNoKey) &&
				strings.Contains(err.Error(), "set GEMINI_API_KEY"), c)
		}},
		{"the url picks gemini", fixture{user: `{"api_url":"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent","model":"gemini-2.5-flash"}`,
			env: map[string]string{"GEMINI_API_KEY": "g"}}, func(c *Config) string {
			key, _ := c.Key()
			return expect(c.Provider == Gemini && key == "g", c)
		}},
		{"the key goes to google only", fixture{user: `{"provider":"gemini","api_url":"https://proxy.example/v1beta"}`,
			env: map[string]string{"GEMINI_API_KEY": "g"}}, func(c *Config) string {
			key, _ := c.Key()
			err := c.Ready()
			return expect(key == "" && errors.Is(err, ErrNoKey) && strings.Contains(err.Error(), "only sent to generativelanguage.googleapis.com"), c)
		}},
		{"the key is redacted", fixture{user: `{"gemini_api_key":"secret-g"}`}, func(c *Config) string {
			return expect(!strings.Contains(c.String(), "secret-g") && c.Redacted().GeminiAPIKey == "[redacted]" && c.Provider == Gemini, c)
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

func TestGeminiKeyNotInWorkspaceFile(t *testing.T) {
	_, err := fixture{workspace: `{"gemini_api_key":"g"}`}.load(t)
	if err == nil || !strings.Contains(err.Error(), "API keys do not belong in a workspace file") {
		t.Fatalf("err = %v", err)
	}
}
