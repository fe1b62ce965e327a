package config

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/complete/fim"
)

// Completion defaults.
const (
	DefaultCompletionMaxTokens     = fim.DefaultMaxTokens
	DefaultCompletionContextTokens = 1024
	DefaultCompletionDebounceMS    = 75
	// MaxCompletionDebounceMS bounds debounce_ms: past it, suggestions
	// come too late to be worth anything.
	MaxCompletionDebounceMS = 2000
)

// Where next-edit proposals come from (completion.next_edit).
const (
	NextEditIndex = "index"
	NextEditModel = "model"
	NextEditOff   = "off"
)

// CompletionLayer is the "completion" object of a config file: the model
// of inline code completion (agent/complete/fim). A nil field is not set
// by the layer; languages accumulate by name.
type CompletionLayer struct {
	Provider *string `json:"provider,omitempty"`
	Model    *string `json:"model,omitempty"`
	APIURL   *string `json:"api_url,omitempty"`
	// APIKeyEnv names the environment variable holding the key: a key is
	// never written in a file.
	APIKeyEnv *string `json:"api_key_env,omitempty"`
	// APIKey exists only to refuse a literal key with a clear message.
	APIKey        *string         `json:"api_key,omitempty"`
	MaxTokens     *int            `json:"max_tokens,omitempty"`
	ContextTokens *int            `json:"context_tokens,omitempty"`
	DebounceMS    *int            `json:"debounce_ms,omitempty"`
	Enabled       *bool           `json:"enabled,omitempty"`
	Languages     map[string]bool `json:"languages,omitempty"`
	// NextEdit says where next-edit proposals come from: "index" (the
	// default), "model" (also the chat model when the index has none) or
	// "off".
	NextEdit *string `json:"next_edit,omitempty"`
}

// Completion is the resolved "completion" section.
type Completion struct {
	// Provider is one of fim.Providers(); "" when no completion model is
	// configured.
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	// APIURL is the endpoint as configured ("" for the provider's
	// default, fim.DefaultURL).
	APIURL    string `json:"api_url,omitempty"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// MaxTokens bounds a completion; ContextTokens is the budget of the
	// context snippets; DebounceMS is how long the editor pauses before
	// asking.
	MaxTokens     int `json:"max_tokens"`
	ContextTokens int `json:"context_tokens"`
	DebounceMS    int `json:"debounce_ms"`
	// Enabled is true unless a layer set it false; completion runs only
	// with a provider as well.
	Enabled bool `json:"enabled"`
	// Languages switches completion off (false) or on (true) per
	// language, as workspace.Language names them; absent means on.
	Languages map[string]bool `json:"languages,omitempty"`
	// NextEdit is "index", "model" or "off" (CompletionLayer.NextEdit).
	NextEdit string `json:"next_edit"`
}

// EnabledFor reports whether completion runs in files of language.
func (c Completion) EnabledFor(language string) bool {
	if !c.Enabled || c.Provider == "" {
		return false
	}
	on, ok := c.Languages[strings.ToLower(language)]
	return on || !ok
}

func (l *CompletionLayer) clone() *CompletionLayer {
	if l == nil {
		return nil
	}
	n := *l
	n.Languages = maps.Clone(l.Languages)
	return &n
}

// apply copies the fields o sets into l.
func (l *CompletionLayer) apply(o CompletionLayer) {
	set(&l.Provider, o.Provider)
	set(&l.Model, o.Model)
	set(&l.APIURL, o.APIURL)
	set(&l.APIKeyEnv, o.APIKeyEnv)
	set(&l.APIKey, o.APIKey)
	set(&l.MaxTokens, o.MaxTokens)
	set(&l.ContextTokens, o.ContextTokens)
	set(&l.DebounceMS, o.DebounceMS)
	set(&l.Enabled, o.Enabled)
	set(&l.NextEdit, o.NextEdit)
	for _, lang := range slices.Sorted(maps.Keys(o.Languages)) { // "Go" and "go": one order
		if l.Languages == nil {
			l.Languages = map[string]bool{}
		}
		l.Languages[strings.ToLower(strings.TrimSpace(lang))] = o.Languages[lang]
	}
}

// eachSet calls fn with "completion.NAME" for every field l sets.
func (l *CompletionLayer) eachSet(fn func(string)) {
	if l == nil {
		return
	}
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"provider", l.Provider != nil}, {"model", l.Model != nil}, {"api_url", l.APIURL != nil},
		{"api_key_env", l.APIKeyEnv != nil}, {"api_key", l.APIKey != nil}, {"max_tokens", l.MaxTokens != nil},
		{"context_tokens", l.ContextTokens != nil}, {"debounce_ms", l.DebounceMS != nil},
		{"enabled", l.Enabled != nil}, {"languages", l.Languages != nil}, {"next_edit", l.NextEdit != nil},
	} {
		if f.set {
			fn("completion." + f.name)
		}
	}
}

// envName is what api_key_env must look like.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// resolveCompletion fills c.Completion from raw and checks each value. A
// model without a provider is not an error here (a later layer may name
// the provider); CompletionModel reports it.
func (c *Config) resolveCompletion() error {
	r := c.raw.Completion
	if r == nil {
		r = &CompletionLayer{}
	}
	if r.APIKey != nil {
		return fmt.Errorf("completion.api_key: a key is never read from a config file; set completion.api_key_env to the name of the environment variable that holds it")
	}
	p := Completion{
		Provider:      strings.ToLower(strings.TrimSpace(val(r.Provider))),
		Model:         strings.TrimSpace(val(r.Model)),
		APIURL:        strings.TrimSpace(val(r.APIURL)),
		APIKeyEnv:     strings.TrimSpace(val(r.APIKeyEnv)),
		MaxTokens:     valOr(r.MaxTokens, DefaultCompletionMaxTokens),
		ContextTokens: valOr(r.ContextTokens, DefaultCompletionContextTokens),
		DebounceMS:    valOr(r.DebounceMS, DefaultCompletionDebounceMS),
		Enabled:       valOr(r.Enabled, true),
		Languages:     maps.Clone(r.Languages),
		NextEdit:      strings.ToLower(strings.TrimSpace(valOr(r.NextEdit, NextEditIndex))),
	}
	if !slices.Contains([]string{NextEditIndex, NextEditModel, NextEditOff}, p.NextEdit) {
		return fmt.Errorf("completion.next_edit %q: want %q, %q or %q", p.NextEdit, NextEditIndex, NextEditModel, NextEditOff)
	}
	if p.Provider != "" && !slices.Contains(fim.Providers(), p.Provider) {
		return fmt.Errorf("completion.provider %q: want one of %s", p.Provider, strings.Join(fim.Providers(), ", "))
	}
	if p.APIURL != "" {
		u, err := url.Parse(p.APIURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("completion.api_url %q: want an http or https URL such as http://localhost:11434/api/generate", redactURL(p.APIURL))
		}
	}
	if p.APIKeyEnv != "" && !envName.MatchString(p.APIKeyEnv) {
		// Most likely the key itself: do not echo it.
		return fmt.Errorf("completion.api_key_env must name an environment variable (such as CODESTRAL_API_KEY), not hold the key")
	}
	switch {
	case p.MaxTokens <= 0:
		return fmt.Errorf("completion.max_tokens must be positive (got %d)", p.MaxTokens)
	case p.ContextTokens < 0:
		return fmt.Errorf("completion.context_tokens must not be negative (got %d)", p.ContextTokens)
	case p.DebounceMS < 0 || p.DebounceMS > MaxCompletionDebounceMS:
		return fmt.Errorf("completion.debounce_ms must be in [0, %d] (got %d)", MaxCompletionDebounceMS, p.DebounceMS)
	}
	c.Completion = p
	return nil
}

// redactURL drops a URL's user information and query, which may hold a
// secret, for an error message.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery = nil, ""
	return u.String()
}

// CompletionModel is the completion model to build with fim.New, its key
// looked up. ok is false when none is configured or completion is
// disabled; err explains a configuration that names a model but cannot
// be used (a missing model or key, a withheld key).
//
// Keys come from the environment only. completion.api_key_env names the
// variable, and its key is sent only where the user config file says:
// if a later layer (a workspace file, which may come with a cloned
// repository, or the editor's settings) changed the provider, api_url or
// api_key_env the user file chose, the key is withheld and err says why.
// Without api_key_env, a known provider's usual variable is read, for
// its own hosts only: CODESTRAL_API_KEY or MISTRAL_API_KEY for mistral.ai,
// DEEPSEEK_API_KEY for api.deepseek.com, ANTHROPIC_API_KEY for
// anthropic.com, OPENAI_API_KEY for api.openai.com.
func (c *Config) CompletionModel() (fc fim.Config, ok bool, err error) {
	p := c.Completion
	if p.Provider == "" {
		for _, f := range []struct{ name, v string }{{"model", p.Model}, {"api_url", p.APIURL}} {
			if f.v != "" {
				return fim.Config{}, false, fmt.Errorf("completion.%s is set (%s) but completion.provider is not; want one of %s",
					f.name, c.sourceOf("completion."+f.name), strings.Join(fim.Providers(), ", "))
			}
		}
		return fim.Config{}, false, nil
	}
	if !p.Enabled {
		return fim.Config{}, false, nil
	}
	fc = fim.Config{Provider: p.Provider, Model: p.Model, URL: p.APIURL}
	key, err := c.completionKey()
	if err != nil {
		return fim.Config{}, false, err
	}
	fc.APIKey = key
	if _, err := fim.New(fc); err != nil {
		return fim.Config{}, false, fmt.Errorf("completion: %w", err) // fim's errors never hold the key
	}
	return fc, true, nil
}

// completionKey looks up the completion key (see CompletionModel).
func (c *Config) completionKey() (string, error) {
	p := c.Completion
	getenv := c.getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	endpoint := p.APIURL
	if endpoint == "" {
		endpoint = fim.DefaultURL(p.Provider)
	}
	host := hostOf(endpoint)
	if p.APIKeyEnv != "" {
		if why := c.completionKeyWithheld(host); why != "" {
			return "", fmt.Errorf("completion: %w: %s", ErrNoKey, why)
		}
		key := strings.TrimSpace(getenv(p.APIKeyEnv))
		if key == "" {
			return "", fmt.Errorf("completion: %w: completion.api_key_env names %s, which is not set in the environment", ErrNoKey, p.APIKeyEnv)
		}
		return key, nil
	}
	for _, name := range defaultKeyEnv(p.Provider, host) {
		if key := strings.TrimSpace(getenv(name)); key != "" {
			return key, nil
		}
	}
	if names := defaultKeyEnv(p.Provider, host); len(names) > 0 && keyRequired(p.Provider, host) {
		return "", fmt.Errorf("completion: %w for %s: set %s, or completion.api_key_env in %s", ErrNoKey, p.Provider, strings.Join(names, " or "), c.userFileName())
	}
	if keyRequired(p.Provider, host) {
		from := ""
		if p.APIURL != "" {
			from = fmt.Sprintf(" (completion.api_url from %s)", c.sourceOf("completion.api_url"))
		}
		return "", fmt.Errorf("completion: %w for %s at %s%s: its usual key is only sent to its own API; set completion.api_key_env and completion.api_url in %s",
			ErrNoKey, p.Provider, host, from, c.userFileName())
	}
	return "", nil
}

// completionKeyWithheld explains why the key named by api_key_env is not
// sent to host, or returns "": the provider, api_url and api_key_env in
// force must be those of the user file.
func (c *Config) completionKeyWithheld(host string) string {
	user := c.userCompletion
	if user == nil {
		user = &CompletionLayer{}
	}
	r := c.raw.Completion
	var changed []string
	for _, f := range []struct {
		name      string
		got, want *string
	}{
		{"provider", r.Provider, user.Provider}, {"api_url", r.APIURL, user.APIURL}, {"api_key_env", r.APIKeyEnv, user.APIKeyEnv},
	} {
		if strings.TrimSpace(val(f.got)) != strings.TrimSpace(val(f.want)) {
			changed = append(changed, fmt.Sprintf("completion.%s comes from %s", f.name, c.sourceOf("completion."+f.name)))
		}
	}
	if len(changed) == 0 {
		return ""
	}
	return fmt.Sprintf("the key in $%s is not sent to %s because %s, not from your user config %s; "+
		"set the completion section there to send it", c.Completion.APIKeyEnv, host, strings.Join(changed, " and "), c.userFileName())
}

// userFileName is the user config file Load read, else where it would be.
func (c *Config) userFileName() string {
	if c.userFile != "" {
		return c.userFile
	}
	return userFileHint()
}

// defaultKeyEnv names the variables a provider's key is read from when
// api_key_env is not set, for the provider's own hosts only.
func defaultKeyEnv(provider, host string) []string {
	switch {
	case provider == fim.ProviderCodestral && host == "codestral.mistral.ai":
		return []string{"CODESTRAL_API_KEY", "MISTRAL_API_KEY"}
	case provider == fim.ProviderCodestral && (host == "mistral.ai" || strings.HasSuffix(host, ".mistral.ai")):
		return []string{"MISTRAL_API_KEY", "CODESTRAL_API_KEY"}
	case provider == fim.ProviderDeepSeek && host == "api.deepseek.com":
		return []string{"DEEPSEEK_API_KEY"}
	case provider == fim.ProviderAnthropicChat && anthropicHost(host):
		return []string{"ANTHROPIC_API_KEY"}
	case (provider == fim.ProviderOpenAIChat || provider == fim.ProviderOpenAICompletions) && host == openAIHost:
		return []string{"OPENAI_API_KEY"}
	case provider == fim.ProviderGeminiChat && host == "generativelanguage.googleapis.com":
		return []string{"GOOGLE_API_KEY", "GEMINI_API_KEY"} // Google's SDKs take GOOGLE_API_KEY first
	}
	return nil
}

// keyRequired reports whether provider at host cannot work without a key
// (the hosted APIs; self-hosted servers may have none).
func keyRequired(provider, host string) bool {
	switch provider {
	case fim.ProviderCodestral, fim.ProviderDeepSeek, fim.ProviderAnthropicChat, fim.ProviderGeminiChat:
		return true
	case fim.ProviderOpenAIChat, fim.ProviderOpenAICompletions:
		return host == openAIHost
	}
	return false
}
