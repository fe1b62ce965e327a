package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Options says where Load looks. Zero values pick the real locations.
type Options struct {
	// Workspace is the workspace root; its .parley/config.json is read.
	// Empty: no workspace file.
	Workspace string
	// UserFile overrides os.UserConfigDir()/parley/config.json; "-" skips
	// the user file.
	UserFile string
	// Getenv overrides os.Getenv.
	Getenv func(string) string
	// Flags is the command-line layer (only the flags the user gave).
	Flags Layer
}

// UserFile is the path of the user's config file.
func UserFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("user config directory: %w", err)
	}
	return filepath.Join(dir, "parley", "config.json"), nil
}

// WorkspaceFile is the path of a workspace's config file.
func WorkspaceFile(root string) string {
	return filepath.Join(root, ".parley", "config.json")
}

// Load resolves the configuration from defaults, the user file, the
// workspace file, the environment and the flags, in that order. Missing
// files are skipped; unreadable or malformed ones are errors naming the file.
func Load(o Options) (*Config, error) {
	c := &Config{Sources: map[string]string{}, getenv: o.Getenv}
	if err := c.resolve(); err != nil {
		return nil, err
	}
	user := o.UserFile
	if user == "" {
		p, err := UserFile()
		if err == nil {
			user = p
		} // no user config directory ($HOME unset): nothing to read
	}
	if user != "" && user != "-" {
		if err := c.mergeFile(user, false); err != nil {
			return nil, err
		}
	}
	if o.Workspace != "" {
		if err := c.mergeFile(WorkspaceFile(o.Workspace), true); err != nil {
			return nil, err
		}
	}
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	env, names := envLayer(getenv)
	if err := c.Merge(env, "environment"); err != nil {
		return nil, err
	}
	for field, name := range names {
		c.Sources[field] = "env " + name
	}
	if err := c.Merge(o.Flags, "flags"); err != nil {
		return nil, err
	}
	return c, nil
}

// mergeFile merges the JSON file at path if it exists. A workspace file
// may be committed to a repository (and come from a stranger), so it must
// not hold API keys nor switch permission checks off (bypassPermissions,
// allow rules).
func (c *Config) mergeFile(path string, workspace bool) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read config %s: %w", path, err)
	}
	l, err := ParseLayer(data)
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	if workspace && (l.APIKey != nil || l.AnthropicAPIKey != nil || l.OpenAIAPIKey != nil || l.GeminiAPIKey != nil || l.EmbeddingAPIKey != nil) {
		return fmt.Errorf("config %s: API keys do not belong in a workspace file that may be committed; use the environment or %s", path, userFileHint())
	}
	if workspace && l.PermissionMode != nil && strings.EqualFold(strings.TrimSpace(*l.PermissionMode), "bypassPermissions") {
		return fmt.Errorf("config %s: permission_mode bypassPermissions can only be chosen by the user (user config, environment or flag), not by a workspace file", path)
	}
	if workspace && l.Permissions != nil && len(l.Permissions.Allow) > 0 {
		// "allow": ["shell"] would be bypassPermissions by another name.
		return fmt.Errorf("config %s: permissions.allow can only be set by the user (%s), not by a workspace file; a workspace file may add deny and ask rules", path, userFileHint())
	}
	if workspace {
		if err := checkLSPLayer(l, "config "+path); err != nil {
			return err
		}
		for name, srv := range l.MCPServers {
			srv.Workspace = true
			l.MCPServers[name] = srv
		}
	}
	if err := c.merge(l, path, workspace); err != nil {
		return err
	}
	if workspace {
		c.workspaceFile = path
	} else {
		c.userCompletion, c.userFile = l.Completion.clone(), path
	}
	return nil
}

func userFileHint() string {
	if p, err := UserFile(); err == nil {
		return p
	}
	return "the user config file"
}

// ParseLayer decodes one JSON object of settings, rejecting unknown fields
// and trailing data. The language server uses it for initializationOptions.
func ParseLayer(data []byte) (Layer, error) {
	var l Layer
	if len(bytes.TrimSpace(data)) == 0 {
		return l, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return Layer{}, fmt.Errorf("invalid settings: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Layer{}, errors.New("invalid settings: data after the JSON object")
	}
	return l, nil
}

// envLayer reads the environment. names maps each field set to the
// variable that set it, for Sources.
func envLayer(getenv func(string) string) (Layer, map[string]string) {
	var l Layer
	names := map[string]string{}
	str := func(dst **string, field, name string) {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			*dst = &v
			names[field] = name
		}
	}
	str(&l.APIURL, "api_url", "PARLEY_API_URL")
	str(&l.Model, "model", "PARLEY_MODEL")
	str(&l.Provider, "provider", "PARLEY_PROVIDER")
	str(&l.PermissionMode, "permission_mode", "PARLEY_PERMISSION_MODE")
	str(&l.AnthropicAPIKey, "anthropic_api_key", "ANTHROPIC_API_KEY")
	str(&l.OpenAIAPIKey, "openai_api_key", "OPENAI_API_KEY")
	// Google's SDKs take either, GOOGLE_API_KEY first when both are set.
	str(&l.GeminiAPIKey, "gemini_api_key", "GEMINI_API_KEY")
	str(&l.GeminiAPIKey, "gemini_api_key", "GOOGLE_API_KEY")
	str(&l.APIKey, "api_key", "PARLEY_API_KEY")
	str(&l.EmbeddingAPIURL, "embedding_api_url", "PARLEY_EMBEDDING_API_URL")
	str(&l.EmbeddingModel, "embedding_model", "PARLEY_EMBEDDING_MODEL")
	str(&l.EmbeddingAPIKey, "embedding_api_key", "PARLEY_EMBEDDING_API_KEY")
	return l, names
}

// String prints the redacted configuration, so a stray fmt.Print of a
// Config never shows a key.
func (c Config) String() string {
	r := c.Redacted()
	b, err := json.Marshal(r)
	if err != nil {
		return "config{unprintable}"
	}
	return string(b)
}

// GoString keeps %#v from printing keys too.
func (c Config) GoString() string { return c.String() }

// Ptr returns a pointer to v, for building Layers.
func Ptr[T any](v T) *T { return &v }
