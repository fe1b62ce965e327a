package fim

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Provider names, as Config.Provider and Model.Name spell them.
const (
	ProviderOllama            = "ollama"
	ProviderLlamaCpp          = "llamacpp"
	ProviderCodestral         = "codestral"
	ProviderDeepSeek          = "deepseek"
	ProviderOpenAICompletions = "openai-completions"
	ProviderAnthropicChat     = "anthropic-chat"
	ProviderOpenAIChat        = "openai-chat"
	ProviderGeminiChat        = "gemini-chat"
)

// Providers lists the provider names New accepts.
func Providers() []string {
	return []string{ProviderOllama, ProviderLlamaCpp, ProviderCodestral, ProviderDeepSeek,
		ProviderOpenAICompletions, ProviderAnthropicChat, ProviderOpenAIChat, ProviderGeminiChat}
}

// DefaultMaxTokens bounds a completion when Request.MaxTokens is 0.
const DefaultMaxTokens = 128

// DefaultTimeout bounds one request when Config.Timeout is 0. It is long
// enough for a local server's first request, which loads the model.
const DefaultTimeout = 30 * time.Second

// temperature is what every provider is asked for: completions should be
// the likely text, with a little room.
const temperature = 0.2

// Config selects and configures one completion model.
type Config struct {
	// Provider is one of Providers().
	Provider string
	// Model is the model name; codestral defaults to "codestral-latest"
	// and deepseek to "deepseek-chat", llamacpp sends none when empty,
	// the others require one.
	Model string
	// URL is the endpoint, or a base URL the provider's path is added to
	// ("http://localhost:11434" becomes .../api/generate, ".../v1" of an
	// OpenAI-compatible server .../v1/completions). "" is the provider's
	// public or local default (see DefaultURL); openai-completions has
	// none.
	URL string
	// APIKey is sent as the provider requires: a Bearer token, Anthropic's
	// x-api-key; none is sent when empty. codestral, deepseek,
	// anthropic-chat and openai-chat on api.openai.com require one. It
	// never appears in errors.
	APIKey string
	// Timeout bounds each request; 0 is DefaultTimeout.
	Timeout time.Duration
	// HTTPClient carries the requests; nil uses a client of its own.
	HTTPClient *http.Client
}

// defaultURLs are the endpoints used when Config.URL is empty.
var defaultURLs = map[string]string{
	ProviderOllama:        "http://localhost:11434/api/generate",
	ProviderLlamaCpp:      "http://localhost:8080/infill",
	ProviderCodestral:     "https://codestral.mistral.ai/v1/fim/completions",
	ProviderDeepSeek:      "https://api.deepseek.com/beta/completions",
	ProviderAnthropicChat: "https://api.anthropic.com/v1/messages",
	ProviderOpenAIChat:    "https://api.openai.com/v1/chat/completions",
	ProviderGeminiChat:    "https://generativelanguage.googleapis.com/v1beta",
}

// endpointPaths are the paths a base URL is completed with.
var endpointPaths = map[string]string{
	ProviderOllama:            "/api/generate",
	ProviderLlamaCpp:          "/infill",
	ProviderCodestral:         "/v1/fim/completions",
	ProviderDeepSeek:          "/beta/completions",
	ProviderOpenAICompletions: "/v1/completions",
}

// defaultModels are the models used when Config.Model is empty.
var defaultModels = map[string]string{
	ProviderCodestral: "codestral-latest",
	ProviderDeepSeek:  "deepseek-chat",
}

// DefaultURL is the endpoint provider uses when no URL is configured ("" for
// openai-completions and unknown names).
func DefaultURL(provider string) string { return defaultURLs[provider] }

// New builds the Model c describes. It fails when the provider is unknown,
// the URL is not http(s), or a required model, URL or key is missing.
func New(c Config) (Model, error) {
	name := strings.ToLower(strings.TrimSpace(c.Provider))
	if _, ok := endpointPaths[name]; !ok && !isChat(name) {
		return nil, fmt.Errorf("fim: unknown provider %q (want one of %s)", c.Provider, strings.Join(Providers(), ", "))
	}
	raw := strings.TrimSpace(c.URL)
	if raw == "" {
		raw = defaultURLs[name]
	}
	if raw == "" {
		return nil, fmt.Errorf("%s: a URL is required (e.g. http://localhost:8000/v1/completions)", name)
	}
	u, err := endpoint(name, raw)
	if err != nil {
		return nil, err
	}
	model := strings.TrimSpace(c.Model)
	if model == "" {
		model = defaultModels[name]
	}
	if model == "" && name != ProviderLlamaCpp {
		return nil, fmt.Errorf("%s: a model is required", name)
	}
	if c.APIKey == "" && needsKey(name, u) {
		return nil, fmt.Errorf("%s: an API key is required", name)
	}
	b := base{name: name, url: u, key: c.APIKey, model: model, timeout: c.Timeout, client: c.HTTPClient}
	if b.timeout <= 0 {
		b.timeout = DefaultTimeout
	}
	if b.client == nil {
		b.client = &http.Client{}
	}
	switch name {
	case ProviderOllama:
		return &ollama{b}, nil
	case ProviderLlamaCpp:
		return &llamaCpp{b}, nil
	case ProviderCodestral:
		return &codestral{b}, nil
	case ProviderDeepSeek, ProviderOpenAICompletions:
		return &completions{b}, nil
	default:
		return newChat(b)
	}
}

// isChat reports whether name is a chat model filling in the middle
// (chat.go).
func isChat(name string) bool {
	return name == ProviderAnthropicChat || name == ProviderOpenAIChat || name == ProviderGeminiChat
}

// needsKey reports whether provider at endpoint u cannot work without a
// key: the hosted APIs do, local and self-hosted servers need not.
func needsKey(name, u string) bool {
	switch name {
	case ProviderCodestral, ProviderDeepSeek, ProviderAnthropicChat, ProviderGeminiChat:
		return true
	case ProviderOpenAIChat:
		p, err := url.Parse(u)
		return err == nil && strings.EqualFold(p.Hostname(), "api.openai.com")
	}
	return false
}

// endpoint checks raw and completes a base URL with the provider's path:
// an empty path gets the whole path, a path ending in a leading part of
// it ("/v1", "/beta") the rest; any other path is taken as the endpoint.
// The chat providers' URLs are left to agent/provider, which does the same.
func endpoint(name, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%s: invalid URL %q: want http(s)://host[/path]", name, redactURL(raw))
	}
	full, ok := endpointPaths[name]
	if !ok {
		return raw, nil
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case p == "":
		p = full
	case strings.HasSuffix(p, full):
	default:
		for i := len(full) - 1; i > 0; i-- {
			if full[i] == '/' && strings.HasSuffix(p, full[:i]) {
				p += full[i:]
				break
			}
		}
	}
	u.Path, u.RawPath = p, ""
	return u.String(), nil
}

// redactURL drops the user information and query of a URL for an error
// message: either may hold a secret.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable)"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}

// Errors for well-formed answers without a completion.
var (
	errNoChoice   = errors.New("response has no choices")
	errNoResponse = errors.New("response has no completion field")
)
