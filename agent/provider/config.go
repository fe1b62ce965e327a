package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Provider names accepted in Config.Provider and returned by Detect and
// Provider.Name.
const (
	NameAnthropic        = "anthropic"
	NameOpenAI           = "openai"
	NameOpenAICompatible = "openai-compatible"
	NameGemini           = "gemini"
)

// Default endpoints, used when Config.APIURL is empty.
const (
	defaultAnthropicBase = "https://api.anthropic.com"
	defaultOpenAIBase    = "https://api.openai.com/v1"
	defaultGeminiBase    = "https://generativelanguage.googleapis.com/v1beta"
)

// Config selects and configures one model API.
//
// Token accounting follows Anthropic's convention for every provider:
// Usage.InputTokens counts the uncached input only, CacheReadTokens and
// CacheWriteTokens the cached parts, so the prompt size is their sum. For
// OpenAI this means prompt_tokens minus the cached/cache-write tokens.
type Config struct {
	// Provider is "", "anthropic", "openai", "openai-compatible" or
	// "gemini"; "" detects it from APIURL (see Detect).
	Provider string
	// APIURL is a full endpoint (".../v1/messages", ".../chat/completions",
	// ".../v1beta/models/M:streamGenerateContent") or a base URL
	// ("http://localhost:11434/v1", "https://api.anthropic.com",
	// "https://generativelanguage.googleapis.com/v1beta"); "" selects the
	// provider's public endpoint (openai-compatible has none).
	APIURL string
	// APIKey is sent as x-api-key (Anthropic), x-goog-api-key (Gemini) or
	// a Bearer token (OpenAI and compatible servers). Required for
	// anthropic, openai and gemini; local servers may have none. It never
	// appears in errors or debug output.
	APIKey string
	// Model is the default model; Request.Model overrides it.
	Model string
	// MaxTokens is the default response cap; Request.MaxTokens overrides it.
	// 0 or negative (the agent's "as much as fits", which it sizes itself
	// per request) sends the provider's default.
	MaxTokens int
	// HTTPClient carries the requests; nil uses a client without an overall
	// timeout (streams are long; cancel through the context).
	HTTPClient *http.Client
	// Debug, when set, receives request and response bodies (SSE included)
	// with keys and auth headers redacted. Writes are serialised.
	Debug io.Writer
	// MaxRetries is how often a transient failure is retried: 0 means the
	// default (4, so 5 attempts), a negative value disables retries.
	MaxRetries int
	// RetryBaseDelay is the first backoff step (doubling per retry, with
	// jitter, capped at 60s); 0 means 1s.
	RetryBaseDelay time.Duration

	// sleep and now replace the clock in tests; nil uses the real one.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time
}

// Detect chooses the provider for an API URL the way seed 002 does: a URL
// on anthropic.com is Anthropic (x-api-key), api.openai.com is OpenAI
// (Bearer), generativelanguage.googleapis.com is Gemini (x-goog-api-key)
// and any other URL an OpenAI-compatible server. An empty URL is OpenAI,
// the seed's default api_url.
func Detect(apiURL string) string {
	apiURL = strings.TrimSpace(apiURL)
	if apiURL == "" {
		return NameOpenAI
	}
	u, err := url.Parse(apiURL)
	if err == nil && u.Host == "" {
		// "api.anthropic.com/v1": no scheme, so read it as a host.
		u, err = url.Parse("//" + apiURL)
	}
	if err != nil {
		return NameOpenAICompatible
	}
	host := strings.ToLower(u.Hostname())
	switch {
	case host == "anthropic.com" || strings.HasSuffix(host, ".anthropic.com"):
		return NameAnthropic
	case host == "api.openai.com":
		return NameOpenAI
	case host == geminiHost:
		return NameGemini
	default:
		return NameOpenAICompatible
	}
}

// New builds the Provider that cfg describes. It fails when the provider
// name is unknown, the URL is not an http(s) URL, or a key is missing for
// anthropic, openai or gemini.
func New(cfg Config) (Provider, error) {
	name, err := providerName(cfg)
	if err != nil {
		return nil, err
	}
	base, err := normalizeBaseURL(name, cfg.APIURL)
	if err != nil {
		return nil, err
	}
	if cfg.APIKey == "" && name != NameOpenAICompatible {
		return nil, fmt.Errorf("%s: no API key configured", name)
	}
	client := cfg.HTTPClient
	if client == nil {
		client = defaultHTTPClient()
	}
	var mws []middleware
	if cfg.Debug != nil {
		mws = append(mws, newDebugLog(cfg.Debug, cfg.APIKey).middleware)
	}
	w := wire{
		name:      name,
		base:      base,
		key:       cfg.APIKey,
		model:     cfg.Model,
		maxTokens: cfg.MaxTokens,
		client:    client,
		mws:       mws,
		retry:     newRetryPolicy(cfg),
	}
	switch name {
	case NameAnthropic:
		return newAnthropic(w), nil
	case NameGemini:
		return newGemini(w), nil
	}
	return newOpenAI(w), nil
}

// wire is what every provider needs to talk to its API.
type wire struct {
	name      string
	base      string
	key       string
	model     string
	maxTokens int
	client    *http.Client
	mws       []middleware
	retry     retryPolicy
}

// middleware has the shape of both SDKs' option.Middleware.
type middleware = func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error)

func providerName(cfg Config) (string, error) {
	switch p := strings.ToLower(strings.TrimSpace(cfg.Provider)); p {
	case "":
		return Detect(cfg.APIURL), nil
	case NameAnthropic, NameOpenAI, NameOpenAICompatible, NameGemini:
		return p, nil
	default:
		return "", fmt.Errorf("unknown provider %q (want %s, %s, %s or %s)",
			cfg.Provider, NameAnthropic, NameOpenAI, NameOpenAICompatible, NameGemini)
	}
}

// normalizeBaseURL turns whatever the user configured into the base URL the
// SDK expects: Anthropic's SDK appends "v1/messages", OpenAI's appends
// "chat/completions" to a base that already holds the version segment, and
// the Gemini provider appends "models/M:streamGenerateContent" likewise.
func normalizeBaseURL(name, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		switch name {
		case NameAnthropic:
			return defaultAnthropicBase, nil
		case NameOpenAI:
			return defaultOpenAIBase, nil
		case NameGemini:
			return defaultGeminiBase, nil
		default:
			return "", errors.New("openai-compatible: api_url is required (e.g. http://localhost:11434/v1)")
		}
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%s: invalid api_url %q: want http(s)://host[/path]", name, raw)
	}
	// The SDKs resolve their paths against the base, dropping any query.
	u.RawQuery, u.Fragment, u.User = "", "", nil
	p := strings.TrimRight(u.Path, "/")
	switch name {
	case NameAnthropic:
		p = strings.TrimSuffix(p, "/v1/messages")
		p = strings.TrimSuffix(p, "/v1")
	case NameGemini:
		p = geminiBasePath(p)
	default:
		p = strings.TrimSuffix(p, "/chat/completions")
		if p == "" {
			// Ollama, LM Studio and llama.cpp serve the OpenAI API under /v1.
			p = "/v1"
		}
	}
	u.Path, u.RawPath = p, ""
	return u.String(), nil
}

// geminiHost is the Gemini API's public host.
const geminiHost = "generativelanguage.googleapis.com"

// geminiBasePath cuts a method URL (".../v1beta/models/M:generateContent")
// back to its version; a bare host gets the public API's version.
func geminiBasePath(p string) string {
	if i := strings.Index(p, "/models/"); i >= 0 {
		p = p[:i]
	} else if i := strings.Index(p, "/tunedModels/"); i >= 0 {
		p = p[:i]
	}
	if p == "" {
		p = "/v1beta"
	}
	return p
}

// defaultHTTPClient bounds the wait for response headers (a server that
// accepts and never answers) but not the body, which streams for minutes.
func defaultHTTPClient() *http.Client {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		t.ResponseHeaderTimeout = 10 * time.Minute
		return &http.Client{Transport: t}
	}
	return &http.Client{}
}

// modelFor picks the request's model, else the configured one.
func (w *wire) modelFor(req *Request) (string, error) {
	if req.Model != "" {
		return req.Model, nil
	}
	if w.model != "" {
		return w.model, nil
	}
	return "", fmt.Errorf("%s: no model configured", w.name)
}

// maxTokensFor picks the request's cap, else the configured one (0: none).
func (w *wire) maxTokensFor(req *Request) int {
	if req.MaxTokens > 0 {
		return req.MaxTokens
	}
	return max(w.maxTokens, 0)
}
