package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// lookOnly finds the binaries named, as exec.LookPath would on a PATH
// holding only them.
func lookOnly(found ...string) func(string) (string, error) {
	return func(bin string) (string, error) {
		if slices.Contains(found, bin) {
			return "/bin/" + bin, nil
		}
		return "", errors.New("not found")
	}
}

func TestLSPServersDefaultsAndLayers(t *testing.T) {
	c, err := fixture{
		user:      `{"lsp": {"rust": {"command": ["rust-analyzer"]}, "python": {"command": ["pylsp"]}}, "lsp_timeout_ms": 5000}`,
		workspace: `{"lsp": {"python": {"disabled": true}}}`,
	}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if c.LSPTimeoutMS != 5000 {
		t.Errorf("timeout = %d", c.LSPTimeoutMS)
	}
	got := map[string]LSPEntry{}
	for _, e := range c.LSPServers(lookOnly("gopls", "pylsp")) {
		got[e.Name] = e
	}
	if e := got["go"]; !e.Default || e.Path != "/bin/gopls" || !slices.Equal(e.Languages, []string{"go"}) {
		t.Errorf("go = %+v", e)
	}
	// The workspace file turned python off and kept the user's command.
	if e := got["python"]; e.Default || !e.Disabled || !slices.Equal(e.Command, []string{"pylsp"}) {
		t.Errorf("python = %+v", e)
	}
	if e := got["typescript"]; e.Path != "" || e.LookErr == nil || !slices.Contains(e.Languages, "javascript") {
		t.Errorf("typescript = %+v", e)
	}
	if e := got["rust"]; e.Path != "" || !slices.Equal(e.Languages, []string{"rust"}) || e.Source == "" {
		t.Errorf("rust = %+v", e)
	}
}

func TestLSPDefaultTimeout(t *testing.T) {
	c, err := fixture{}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if c.LSPTimeoutMS != DefaultLSPTimeoutMS {
		t.Errorf("timeout = %d", c.LSPTimeoutMS)
	}
}

// A workspace file may come with a cloned repository: it may not name a
// command for parley to run, nor may a front end's settings.
func TestLSPCommandOnlyFromUserFile(t *testing.T) {
	_, err := fixture{workspace: `{"lsp": {"go": {"command": ["./evil"]}}}`}.load(t)
	if err == nil || !strings.Contains(err.Error(), "lsp.go.command can only be set in the user config") {
		t.Errorf("workspace command: %v", err)
	}
	c, err := fixture{}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Merge(Layer{LSP: map[string]LSPServer{"go": {Command: []string{"x"}}}}, "initializationOptions"); err == nil {
		t.Error("Merge took a command")
	}
}

func TestLSPInvalid(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{`{"lsp": {"Go Lang": {"command": ["x"]}}}`, "server name"},
		{`{"lsp": {"rust": {}}}`, "needs a command"},
		{`{"lsp": {"rust": {"command": ["x", ""]}}}`, "empty"},
		{`{"lsp_timeout_ms": 0}`, "lsp_timeout_ms"},
		{`{"lsp_timeout_ms": 600000}`, "lsp_timeout_ms"},
		{`{"lsp": {"go": {"cmd": ["x"]}}}`, "cmd"},
	} {
		if _, err := (fixture{user: tc.file}).load(t); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
}
