// Package config resolves the agent's settings from layered sources, each
// overriding the one before: built-in defaults, the user file
// (os.UserConfigDir()/parley/config.json), the workspace file
// (<root>/.parley/config.json), the environment, command-line flags, and
// finally whatever a front end merges in later (the language server's
// initializationOptions) through Merge.
//
// Contracts: a layer only overrides the fields it sets (a field present with
// a zero value counts as set); permission rules accumulate across layers, so
// a later layer can add rules but never drop an earlier deny. Unknown fields
// in a file are an error naming the file. A workspace file may come with a
// cloned repository, so it may hold neither API keys nor permission_mode
// bypassPermissions. Hooks (hooks.go) come only from config files, each
// tagged with its file; a workspace file's are marked for approval, and
// a hook that cannot be honoured is an error at load. API keys are scoped: a
// provider-specific key (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY
// or GOOGLE_API_KEY) is only handed out for that provider's own API host, so a URL from a workspace file
// cannot collect it; PARLEY_API_KEY / api_key is sent wherever api_url
// points, unless a workspace file chose that api_url (see WithheldKey);
// the embeddings endpoint's key follows the same rules (embedding.go).
// The completion model's key (completion.go) comes only from the
// environment variable a config names, and goes only where the user
// file sends it (CompletionModel).
// Language servers (lsp.go) run commands, so only the user file names
// them; a workspace file may turn one off.
// Keys never appear in Redacted or in errors. A Config is not safe
// for concurrent mutation; callers hand out copies.
package config

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/provider"
)

// Providers as named by provider.Provider.Name.
const (
	Anthropic        = provider.NameAnthropic
	OpenAI           = provider.NameOpenAI
	OpenAICompatible = provider.NameOpenAICompatible
	Gemini           = provider.NameGemini
)

// Defaults.
const (
	DefaultAnthropicURL   = "https://api.anthropic.com/v1/messages"
	DefaultOpenAIURL      = "https://api.openai.com/v1/chat/completions"
	DefaultGeminiURL      = "https://generativelanguage.googleapis.com/v1beta"
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultOpenAIModel    = "gpt-4.1"
	DefaultGeminiModel    = "gemini-2.5-pro"
	DefaultMaxIterations  = 50
	DefaultShellTimeout   = 120 // seconds
	MaxShellTimeout       = 300 // seconds
	DefaultPermissionMode = "default"
	// DefaultCompactThreshold is the share of the model's context window
	// above which the agent compacts the conversation before a call.
	DefaultCompactThreshold = 0.8
	// DefaultRepoMapTokens is the budget of the repo map in the system
	// prompt (index/repomap); 0 leaves the map out.
	DefaultRepoMapTokens = 1024
)

// openAIHost is the only host OPENAI_API_KEY is sent to, geminiHost the
// only one GEMINI_API_KEY (or GOOGLE_API_KEY) is; ANTHROPIC_API_KEY goes to
// anthropic.com hosts only (see anthropicHost).
const (
	openAIHost = "api.openai.com"
	geminiHost = "generativelanguage.googleapis.com"
)

func anthropicHost(host string) bool {
	return host == "anthropic.com" || strings.HasSuffix(host, ".anthropic.com")
}

// Rules are permission rules such as "edit(src/**)" or "shell(go test:*)".
type Rules struct {
	Allow []string `json:"allow,omitempty"`
	Deny  []string `json:"deny,omitempty"`
	Ask   []string `json:"ask,omitempty"`
}

// Layer is one source of settings. A nil field is not set by this layer.
// It is also the JSON shape of a config file.
type Layer struct {
	APIURL              *string  `json:"api_url,omitempty"`
	Model               *string  `json:"model,omitempty"`
	Provider            *string  `json:"provider,omitempty"`
	AnthropicAPIKey     *string  `json:"anthropic_api_key,omitempty"`
	OpenAIAPIKey        *string  `json:"openai_api_key,omitempty"`
	GeminiAPIKey        *string  `json:"gemini_api_key,omitempty"`
	APIKey              *string  `json:"api_key,omitempty"`
	ContextWindow       *int     `json:"context_window,omitempty"`
	MaxTokens           *int     `json:"max_tokens,omitempty"`
	ThinkingBudget      *int     `json:"thinking_budget,omitempty"`
	PermissionMode      *string  `json:"permission_mode,omitempty"`
	Permissions         *Rules   `json:"permissions,omitempty"`
	MaxIterations       *int     `json:"max_iterations,omitempty"`
	ShellTimeoutSeconds *int     `json:"shell_timeout_seconds,omitempty"`
	CompactThreshold    *float64 `json:"compact_threshold,omitempty"`
	RepoMapTokens       *int     `json:"repo_map_tokens,omitempty"`
	// EmbeddingAPIURL, EmbeddingModel and EmbeddingAPIKey configure the
	// embeddings endpoint of long-term memory (see embedding.go).
	EmbeddingAPIURL  *string `json:"embedding_api_url,omitempty"`
	EmbeddingModel   *string `json:"embedding_model,omitempty"`
	EmbeddingAPIKey  *string `json:"embedding_api_key,omitempty"`
	EmbeddingCacheMB *int    `json:"embedding_cache_mb,omitempty"`
	// MemoryRecallSimilarity is auto-recall's cosine threshold.
	MemoryRecallSimilarity *float64 `json:"memory_recall_similarity,omitempty"`
	// Hooks accumulate across files like permission rules (see hooks.go);
	// only config files may set them.
	Hooks *HooksSection `json:"hooks,omitempty"`
	// MCPServers add to (or, by name, replace) the servers of earlier
	// layers.
	MCPServers map[string]MCPServer `json:"mcpServers,omitempty"`
	// Completion configures inline code completion (completion.go).
	Completion *CompletionLayer `json:"completion,omitempty"`
	// LSP names the language servers the agent starts for diagnostics
	// (lsp.go); entries replace earlier ones by name.
	LSP          map[string]LSPServer `json:"lsp,omitempty"`
	LSPTimeoutMS *int                 `json:"lsp_timeout_ms,omitempty"`
	// Vision says which models take images (vision.go); entries add to
	// and, by name, replace earlier ones.
	Vision map[string]bool `json:"vision,omitempty"`
}

// Config is the resolved configuration: every layer applied and defaults
// filled in. Fields are exported for reading; change them through Merge so
// derived values (provider, default URL and model) stay consistent.
type Config struct {
	APIURL              string `json:"api_url"`
	Model               string `json:"model"`
	Provider            string `json:"provider"`
	AnthropicAPIKey     string `json:"anthropic_api_key,omitempty"`
	OpenAIAPIKey        string `json:"openai_api_key,omitempty"`
	GeminiAPIKey        string `json:"gemini_api_key,omitempty"`
	APIKey              string `json:"api_key,omitempty"`
	ContextWindow       int    `json:"context_window,omitempty"` // 0: from the model
	MaxTokens           int    `json:"max_tokens,omitempty"`     // 0: the model's default, -1: as much as fits
	ThinkingBudget      int    `json:"thinking_budget,omitempty"`
	PermissionMode      string `json:"permission_mode"`
	Permissions         Rules  `json:"permissions"`
	MaxIterations       int    `json:"max_iterations"`
	ShellTimeoutSeconds int    `json:"shell_timeout_seconds"`
	// CompactThreshold is the share of the context window, in (0, 1], above
	// which the conversation is compacted before a model call.
	CompactThreshold float64 `json:"compact_threshold"`
	// RepoMapTokens is the token budget of the repo map in the system
	// prompt; 0 disables it.
	RepoMapTokens int `json:"repo_map_tokens"`
	// EmbeddingAPIURL is the OpenAI-compatible embeddings endpoint (empty:
	// DefaultEmbeddingURL when EmbeddingModel is set).
	EmbeddingAPIURL string `json:"embedding_api_url,omitempty"`
	// EmbeddingModel names the embedding model; empty: no embedder, memory
	// search is lexical only.
	EmbeddingModel  string `json:"embedding_model,omitempty"`
	EmbeddingAPIKey string `json:"embedding_api_key,omitempty"`
	// EmbeddingCacheMB bounds the embedding cache in MiB (0: memory's
	// default).
	EmbeddingCacheMB int `json:"embedding_cache_mb,omitempty"`
	// MemoryRecallSimilarity is the cosine similarity at which auto-recall
	// takes a memory by its embedding alone (0: memory's default); it only
	// matters with an embedder, whose model sets the scale.
	MemoryRecallSimilarity float64 `json:"memory_recall_similarity,omitempty"`
	// Hooks are the hook commands of every config file, user file first.
	Hooks []Hook `json:"hooks,omitempty"`
	// MCPServers are the MCP servers whose tools the agent gets, by name.
	MCPServers map[string]MCPServer `json:"mcpServers,omitempty"`
	// Completion is inline code completion's model and settings; its key
	// is looked up by CompletionModel.
	Completion Completion `json:"completion"`
	// LSP are the configured language servers by name (LSPServers adds
	// the defaults); LSPTimeoutMS bounds the wait for an edit's
	// diagnostics.
	LSP          map[string]LSPServer `json:"lsp,omitempty"`
	LSPTimeoutMS int                  `json:"lsp_timeout_ms"`
	// Vision maps model-name prefixes to whether they take images, over
	// the built-in table (provider.SupportsImages).
	Vision map[string]bool `json:"vision,omitempty"`
	// Sources names where each set field came from (by JSON name), e.g.
	// "model": "env PARLEY_MODEL", "completion.api_url": a file path.
	// Defaulted fields are absent.
	Sources map[string]string `json:"sources,omitempty"`

	raw Layer // every layer merged; the resolved fields derive from it
	// workspaceFile names the workspace config file once it was merged
	// (its path is the Sources entry of the fields it set).
	workspaceFile string
	// userCompletion is the user file's completion section (nil: none),
	// which decides where a completion key may go.
	userCompletion *CompletionLayer
	// userFile names the user config file once it was merged.
	userFile string
	// getenv reads the environment for CompletionModel (nil: os.Getenv).
	getenv func(string) string
}

// Merge applies a layer on top of the configuration, source naming it for
// Sources and errors ("flags", "initializationOptions"). On error c is
// unchanged.
func (c *Config) Merge(l Layer, source string) error {
	if l.Hooks != nil {
		// A front end's settings may come from a repository (a VS Code
		// workspace settings file), where nobody approved them.
		return fmt.Errorf("%s: hooks can only be configured in a config file (%s or .parley/config.json)", source, userFileHint())
	}
	if err := checkLSPLayer(l, source); err != nil {
		return err
	}
	return c.merge(l, source, false)
}

// merge applies l; its hooks, if any, come from the config file source
// (a workspace file when workspace is set).
func (c *Config) merge(l Layer, source string, workspace bool) error {
	next := c.clone()
	if l.Hooks != nil {
		hs, err := l.Hooks.flatten(source)
		if err != nil {
			return fmt.Errorf("%s: %w", source, err)
		}
		for i := range hs {
			hs[i].Workspace = workspace
		}
		next.Hooks = append(next.Hooks, hs...)
	}
	next.raw.apply(l)
	l.eachSet(func(name string) { next.Sources[name] = source })
	if err := next.resolve(); err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	*c = next
	return nil
}

func (c *Config) clone() Config {
	n := *c
	n.Sources = make(map[string]string, len(c.Sources)+4)
	for k, v := range c.Sources {
		n.Sources[k] = v
	}
	n.raw.Permissions = c.raw.Permissions.clone()
	n.Permissions = *c.Permissions.clone()
	n.Hooks = slices.Clone(c.Hooks)
	n.raw.MCPServers, n.MCPServers = cloneMCP(c.raw.MCPServers), cloneMCP(c.MCPServers)
	n.raw.Completion = c.raw.Completion.clone()
	n.raw.LSP, n.LSP = cloneLSP(c.raw.LSP), cloneLSP(c.LSP)
	n.raw.Vision, n.Vision = maps.Clone(c.raw.Vision), maps.Clone(c.Vision)
	n.Completion.Languages = maps.Clone(c.Completion.Languages)
	return n
}

func (r *Rules) clone() *Rules {
	if r == nil {
		return nil
	}
	return &Rules{
		Allow: append([]string(nil), r.Allow...),
		Deny:  append([]string(nil), r.Deny...),
		Ask:   append([]string(nil), r.Ask...),
	}
}

// apply copies the fields l sets into r; permission rules accumulate.
func (r *Layer) apply(l Layer) {
	set(&r.APIURL, l.APIURL)
	set(&r.Model, l.Model)
	set(&r.Provider, l.Provider)
	set(&r.AnthropicAPIKey, l.AnthropicAPIKey)
	set(&r.OpenAIAPIKey, l.OpenAIAPIKey)
	set(&r.GeminiAPIKey, l.GeminiAPIKey)
	set(&r.APIKey, l.APIKey)
	set(&r.ContextWindow, l.ContextWindow)
	set(&r.MaxTokens, l.MaxTokens)
	set(&r.ThinkingBudget, l.ThinkingBudget)
	set(&r.PermissionMode, l.PermissionMode)
	set(&r.MaxIterations, l.MaxIterations)
	set(&r.ShellTimeoutSeconds, l.ShellTimeoutSeconds)
	set(&r.CompactThreshold, l.CompactThreshold)
	set(&r.RepoMapTokens, l.RepoMapTokens)
	set(&r.EmbeddingAPIURL, l.EmbeddingAPIURL)
	set(&r.EmbeddingModel, l.EmbeddingModel)
	set(&r.EmbeddingAPIKey, l.EmbeddingAPIKey)
	set(&r.EmbeddingCacheMB, l.EmbeddingCacheMB)
	set(&r.MemoryRecallSimilarity, l.MemoryRecallSimilarity)
	if l.Permissions != nil {
		if r.Permissions == nil {
			r.Permissions = &Rules{}
		}
		r.Permissions.Allow = appendNew(r.Permissions.Allow, l.Permissions.Allow)
		r.Permissions.Deny = appendNew(r.Permissions.Deny, l.Permissions.Deny)
		r.Permissions.Ask = appendNew(r.Permissions.Ask, l.Permissions.Ask)
	}
	if l.Completion != nil {
		if r.Completion == nil {
			r.Completion = &CompletionLayer{}
		}
		r.Completion.apply(*l.Completion)
	}
	r.applyLSP(l)
	r.applyVision(l)
	for name, srv := range l.MCPServers {
		if r.MCPServers == nil {
			r.MCPServers = map[string]MCPServer{}
		}
		r.MCPServers[name] = srv
	}
}

func set[T any](dst **T, src *T) {
	if src != nil {
		v := *src
		*dst = &v
	}
}

func appendNew(dst, src []string) []string {
	for _, s := range src {
		dup := false
		for _, d := range dst {
			dup = dup || d == s
		}
		if !dup {
			dst = append(dst, s)
		}
	}
	return dst
}

// eachSet calls fn with the JSON name of every field l sets.
func (l *Layer) eachSet(fn func(string)) {
	fields := []struct {
		name string
		set  bool
	}{
		{"api_url", l.APIURL != nil}, {"model", l.Model != nil}, {"provider", l.Provider != nil},
		{"anthropic_api_key", l.AnthropicAPIKey != nil}, {"openai_api_key", l.OpenAIAPIKey != nil},
		{"gemini_api_key", l.GeminiAPIKey != nil},
		{"api_key", l.APIKey != nil}, {"context_window", l.ContextWindow != nil},
		{"max_tokens", l.MaxTokens != nil}, {"thinking_budget", l.ThinkingBudget != nil},
		{"permission_mode", l.PermissionMode != nil}, {"permissions", l.Permissions != nil},
		{"max_iterations", l.MaxIterations != nil}, {"shell_timeout_seconds", l.ShellTimeoutSeconds != nil},
		{"compact_threshold", l.CompactThreshold != nil}, {"hooks", l.Hooks != nil}, {"mcpServers", l.MCPServers != nil},
		{"repo_map_tokens", l.RepoMapTokens != nil},
		{"embedding_api_url", l.EmbeddingAPIURL != nil}, {"embedding_model", l.EmbeddingModel != nil},
		{"embedding_api_key", l.EmbeddingAPIKey != nil}, {"embedding_cache_mb", l.EmbeddingCacheMB != nil},
		{"memory_recall_similarity", l.MemoryRecallSimilarity != nil}, {"vision", l.Vision != nil},
	}
	for _, f := range fields {
		if f.set {
			fn(f.name)
		}
	}
	l.Completion.eachSet(fn)
	l.eachSetLSP(fn)
}

// resolve recomputes the resolved fields from raw, filling in defaults.
func (c *Config) resolve() error {
	r := &c.raw
	c.AnthropicAPIKey, c.OpenAIAPIKey, c.APIKey = val(r.AnthropicAPIKey), val(r.OpenAIAPIKey), val(r.APIKey)
	c.GeminiAPIKey = val(r.GeminiAPIKey)
	if err := c.resolveEndpoint(); err != nil {
		return err
	}
	if err := c.resolveEmbedding(); err != nil {
		return err
	}
	if err := c.resolveCompletion(); err != nil {
		return err
	}
	if err := c.resolveLSP(); err != nil {
		return err
	}
	c.ContextWindow, c.MaxTokens, c.ThinkingBudget = val(r.ContextWindow), val(r.MaxTokens), val(r.ThinkingBudget)
	c.MaxIterations = valOr(r.MaxIterations, DefaultMaxIterations)
	c.ShellTimeoutSeconds = valOr(r.ShellTimeoutSeconds, DefaultShellTimeout)
	c.RepoMapTokens = valOr(r.RepoMapTokens, DefaultRepoMapTokens)
	c.PermissionMode = DefaultPermissionMode
	if v := val(r.PermissionMode); v != "" {
		c.PermissionMode = v
	}
	c.Permissions = Rules{}
	if r.Permissions != nil {
		c.Permissions = *r.Permissions.clone()
	}
	for _, n := range []struct {
		name string
		v    int
		max  int
	}{
		{"context_window", c.ContextWindow, 0},
		{"thinking_budget", c.ThinkingBudget, 0}, {"max_iterations", c.MaxIterations, 0},
		{"shell_timeout_seconds", c.ShellTimeoutSeconds, MaxShellTimeout},
		{"repo_map_tokens", c.RepoMapTokens, 0},
	} {
		if n.v < 0 {
			return fmt.Errorf("%s must not be negative (got %d)", n.name, n.v)
		}
		if n.max > 0 && n.v > n.max {
			return fmt.Errorf("%s must be at most %d (got %d)", n.name, n.max, n.v)
		}
	}
	if c.MaxTokens < -1 {
		return fmt.Errorf("max_tokens must be positive, 0 (the model's default) or -1 (as much as fits) (got %d)", c.MaxTokens)
	}
	c.CompactThreshold = valOr(r.CompactThreshold, DefaultCompactThreshold)
	if !(c.CompactThreshold > 0 && c.CompactThreshold <= 1) {
		return fmt.Errorf("compact_threshold must be a share of the context window in (0, 1], such as 0.8 (got %g)", c.CompactThreshold)
	}
	c.MCPServers = cloneMCP(r.MCPServers)
	c.Vision = maps.Clone(r.Vision)
	for name, srv := range c.MCPServers {
		if err := srv.validate(name); err != nil {
			return err
		}
	}
	if c.MaxIterations == 0 {
		c.MaxIterations = DefaultMaxIterations
	}
	if c.ShellTimeoutSeconds == 0 {
		c.ShellTimeoutSeconds = DefaultShellTimeout
	}
	return nil
}

// resolveEndpoint settles provider, URL and model. With neither a URL nor a
// provider, Anthropic is chosen when only an Anthropic key is configured
// (besides a Gemini one), Gemini when only a Gemini key is, else OpenAI
// (the default of seed 002).
func (c *Config) resolveEndpoint() error {
	r := &c.raw
	c.APIURL, c.Provider, c.Model = val(r.APIURL), val(r.Provider), val(r.Model)
	switch c.Provider {
	case "", Anthropic, OpenAI, OpenAICompatible, Gemini:
	default:
		return fmt.Errorf("provider %q: want %s, %s, %s or %s", c.Provider, Anthropic, OpenAI, OpenAICompatible, Gemini)
	}
	if c.APIURL != "" {
		u, err := url.Parse(c.APIURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("api_url %q: want an http or https URL", c.APIURL)
		}
	}
	if c.Provider == "" {
		switch {
		case c.APIURL != "":
			c.Provider = provider.Detect(c.APIURL)
		case c.AnthropicAPIKey != "" && c.OpenAIAPIKey == "":
			c.Provider = Anthropic
		case c.GeminiAPIKey != "" && c.OpenAIAPIKey == "":
			c.Provider = Gemini
		default:
			c.Provider = OpenAI
		}
	}
	if c.APIURL == "" {
		switch c.Provider {
		case Anthropic:
			c.APIURL = DefaultAnthropicURL
		case OpenAI:
			c.APIURL = DefaultOpenAIURL
		case Gemini:
			c.APIURL = DefaultGeminiURL
		default:
			return errors.New("provider openai-compatible needs api_url (e.g. http://localhost:1234/v1/chat/completions)")
		}
	}
	if c.Model == "" {
		switch c.Provider {
		case Anthropic:
			c.Model = DefaultAnthropicModel
		case OpenAI:
			c.Model = DefaultOpenAIModel
		case Gemini:
			c.Model = DefaultGeminiModel
		}
	}
	return nil
}

func hostOf(apiURL string) string {
	u, err := url.Parse(apiURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

// Key returns the API key to send to APIURL, and where it came from ("" if
// none). api_key / PARLEY_API_KEY wins unless it is withheld (see
// WithheldKey); otherwise the provider's own key, but only for the
// provider's own host.
func (c *Config) Key() (key, source string) {
	if c.APIKey != "" && c.WithheldKey() == "" {
		return c.APIKey, c.sourceOf("api_key")
	}
	host := hostOf(c.APIURL)
	switch {
	case c.Provider == Anthropic && anthropicHost(host) && c.AnthropicAPIKey != "":
		return c.AnthropicAPIKey, c.sourceOf("anthropic_api_key")
	case c.Provider == OpenAI && host == openAIHost && c.OpenAIAPIKey != "":
		return c.OpenAIAPIKey, c.sourceOf("openai_api_key")
	case c.Provider == Gemini && host == geminiHost && c.GeminiAPIKey != "":
		return c.GeminiAPIKey, c.sourceOf("gemini_api_key")
	}
	return "", ""
}

// WithheldKey explains why api_key is not sent to APIURL, or returns "".
// A workspace file may come from a stranger's repository, so an api_url it
// chose (and no later layer overrode) never receives the user's api_key.
func (c *Config) WithheldKey() string {
	if c.APIKey == "" || c.workspaceFile == "" || c.Sources["api_url"] != c.workspaceFile {
		return ""
	}
	return fmt.Sprintf("the api_key from %s is not sent to %s because that api_url comes from the workspace file %s; "+
		"set api_url yourself (--api-url, PARLEY_API_URL or the user config) to send it there",
		c.sourceOf("api_key"), hostOf(c.APIURL), c.workspaceFile)
}

func (c *Config) sourceOf(field string) string {
	if s := c.Sources[field]; s != "" {
		return s
	}
	return "configuration"
}

// ErrNoKey is what Ready's errors about a missing API key wrap, so a front
// end can ask for a key (ACP's auth_required) instead of failing outright.
var ErrNoKey = errors.New("no API key")

// Ready reports why the configuration cannot talk to a model yet: no model
// for a compatible server, or no key for a hosted API (an error wrapping
// ErrNoKey). Local servers often need no key, so a missing key there is
// not an error.
func (c *Config) Ready() error {
	if c.Model == "" {
		return fmt.Errorf("no model configured for %s: set --model, PARLEY_MODEL or \"model\" in config.json", c.APIURL)
	}
	if key, _ := c.Key(); key != "" || c.Provider == OpenAICompatible {
		return nil
	}
	if why := c.WithheldKey(); why != "" {
		return fmt.Errorf("%w: %s", ErrNoKey, why)
	}
	host := hostOf(c.APIURL)
	switch c.Provider {
	case Anthropic:
		// Naming ANTHROPIC_API_KEY for another host would send the user
		// after a key that is never used there.
		if !anthropicHost(host) {
			return fmt.Errorf("%w for %s: ANTHROPIC_API_KEY is only sent to anthropic.com; set PARLEY_API_KEY or \"api_key\" for this URL", ErrNoKey, host)
		}
		return fmt.Errorf("%w: set ANTHROPIC_API_KEY (or PARLEY_API_KEY)", ErrNoKey)
	case Gemini:
		if host != geminiHost {
			return fmt.Errorf("%w for %s: GEMINI_API_KEY and GOOGLE_API_KEY are only sent to %s; set PARLEY_API_KEY or \"api_key\" for this URL", ErrNoKey, host, geminiHost)
		}
		return fmt.Errorf("%w: set GEMINI_API_KEY (or GOOGLE_API_KEY, PARLEY_API_KEY)", ErrNoKey)
	default:
		if host != openAIHost {
			return fmt.Errorf("%w for %s: OPENAI_API_KEY is only sent to %s; set PARLEY_API_KEY or \"api_key\" for this URL", ErrNoKey, host, openAIHost)
		}
		return fmt.Errorf("%w: set OPENAI_API_KEY (or PARLEY_API_KEY)", ErrNoKey)
	}
}

// Redacted returns a copy safe to print: every key replaced by a marker
// that only says whether it is set.
func (c *Config) Redacted() Config {
	n := c.clone()
	n.raw = Layer{}
	for _, k := range []*string{&n.AnthropicAPIKey, &n.OpenAIAPIKey, &n.GeminiAPIKey, &n.APIKey, &n.EmbeddingAPIKey} {
		if *k != "" {
			*k = "[redacted]"
		}
	}
	return n
}

func val[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func valOr[T comparable](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
