package config

import (
	"fmt"
	"maps"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

// Language servers the agent starts itself (agent/lspclient) to see the
// diagnostics of its edits in the terminal, in loops and over ACP.

// DefaultLSPTimeoutMS bounds the wait for a language server to publish
// the diagnostics of a change.
const DefaultLSPTimeoutMS = 2000

// MaxLSPTimeoutMS bounds lsp_timeout_ms: every edit waits up to it.
const MaxLSPTimeoutMS = 60_000

// LSPServer is one entry of the "lsp" object, keyed by a name ("go",
// "python", "typescript" or one of the user's own).
type LSPServer struct {
	// Command is the server's command line (it must speak LSP on stdio).
	Command []string `json:"command,omitempty"`
	// Languages are the languages it serves, as workspace.DetectLanguage
	// names them; empty: the entry's name (for typescript: typescript,
	// tsx and javascript).
	Languages []string `json:"languages,omitempty"`
	// Disabled turns the server (a default one too) off.
	Disabled bool `json:"disabled,omitempty"`
}

// defaultLSP are the servers used when their binary is on PATH and no
// layer names them.
var defaultLSP = map[string]LSPServer{
	"go":         {Command: []string{"gopls"}},
	"python":     {Command: []string{"pyright-langserver", "--stdio"}},
	"typescript": {Command: []string{"typescript-language-server", "--stdio"}},
}

// defaultLSPLanguages are the languages of the default names.
var defaultLSPLanguages = map[string][]string{
	"typescript": {"typescript", "tsx", "javascript"},
}

var lspName = regexp.MustCompile(`^[a-z0-9_-]{1,32}$`)

// LSPEntry is one language server as resolved: configured or a default,
// with the binary found on PATH (or not).
type LSPEntry struct {
	Name      string
	Command   []string
	Languages []string
	// Default is set for a built-in entry no layer named.
	Default bool
	// Disabled entries are listed but never started.
	Disabled bool
	// Source names the layer that configured it ("" for a default).
	Source string
	// Path is the binary found (empty: not found, so not started).
	Path string
	// LookErr says why the binary was not found.
	LookErr error
}

// LSPServers lists the language servers: every configured one and the
// defaults whose binary is on PATH (lookPath: exec.LookPath when nil),
// sorted by name. A default whose binary is missing is listed, unfound,
// so `parley lsp list` can say what would run.
func (c *Config) LSPServers(lookPath func(string) (string, error)) []LSPEntry {
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	names := map[string]bool{}
	for n := range defaultLSP {
		names[n] = true
	}
	for n := range c.LSP {
		names[n] = true
	}
	out := make([]LSPEntry, 0, len(names))
	for _, n := range slices.Sorted(maps.Keys(names)) {
		srv, ok := c.LSP[n]
		e := LSPEntry{Name: n, Default: !ok, Source: c.Sources["lsp."+n]}
		def := defaultLSP[n]
		if len(srv.Command) == 0 {
			srv.Command = def.Command
		}
		e.Command, e.Disabled = slices.Clone(srv.Command), srv.Disabled
		e.Languages = slices.Clone(srv.Languages)
		if len(e.Languages) == 0 {
			e.Languages = defaultLSPLanguages[n]
		}
		if len(e.Languages) == 0 {
			e.Languages = []string{n}
		}
		if len(e.Command) > 0 {
			e.Path, e.LookErr = lookPath(e.Command[0])
		}
		out = append(out, e)
	}
	return out
}

// checkLSPLayer refuses what a layer may not set: a workspace file (which
// may come with a cloned repository) and the front ends' settings may turn
// a server off or change the timeout, but naming a command to run is the
// user's alone.
func checkLSPLayer(l Layer, source string) error {
	for _, n := range slices.Sorted(maps.Keys(l.LSP)) {
		if len(l.LSP[n].Command) > 0 {
			return fmt.Errorf("%s: lsp.%s.command can only be set in the user config (%s): a workspace file may come with a cloned repository; it may set disabled", source, n, userFileHint())
		}
	}
	return nil
}

// resolveLSP fills c.LSP and c.LSPTimeoutMS from raw and checks them.
func (c *Config) resolveLSP() error {
	r := &c.raw
	c.LSP = cloneLSP(r.LSP)
	for _, n := range slices.Sorted(maps.Keys(c.LSP)) {
		if !lspName.MatchString(n) {
			return fmt.Errorf("lsp: server name %q: use 1 to 32 lower-case letters, digits, _ or -", n)
		}
		srv := c.LSP[n]
		if _, isDefault := defaultLSP[n]; !isDefault && len(srv.Command) == 0 && !srv.Disabled {
			return fmt.Errorf("lsp.%s: a server needs a command (such as [\"rust-analyzer\"])", n)
		}
		for _, a := range srv.Command {
			if strings.TrimSpace(a) == "" || strings.ContainsRune(a, 0) {
				return fmt.Errorf("lsp.%s: command has an empty or NUL-holding argument", n)
			}
		}
	}
	c.LSPTimeoutMS = valOr(r.LSPTimeoutMS, DefaultLSPTimeoutMS)
	if c.LSPTimeoutMS <= 0 || c.LSPTimeoutMS > MaxLSPTimeoutMS {
		return fmt.Errorf("lsp_timeout_ms must be in 1..%d (got %d)", MaxLSPTimeoutMS, c.LSPTimeoutMS)
	}
	return nil
}

func cloneLSP(m map[string]LSPServer) map[string]LSPServer {
	if m == nil {
		return nil
	}
	n := make(map[string]LSPServer, len(m))
	for k, v := range m {
		v.Command, v.Languages = slices.Clone(v.Command), slices.Clone(v.Languages)
		n[k] = v
	}
	return n
}

// applyLSP merges a layer's servers by name: a later entry replaces an
// earlier one, except that an entry with no command keeps the earlier
// command (a workspace file turning a user's server off, or back on).
func (r *Layer) applyLSP(l Layer) {
	set(&r.LSPTimeoutMS, l.LSPTimeoutMS)
	for name, srv := range l.LSP {
		if r.LSP == nil {
			r.LSP = map[string]LSPServer{}
		}
		if prev, ok := r.LSP[name]; ok && len(srv.Command) == 0 {
			srv.Command = prev.Command
			if len(srv.Languages) == 0 {
				srv.Languages = prev.Languages
			}
		}
		r.LSP[name] = srv
	}
}

// eachSetLSP calls fn with "lsp.NAME" for every server l sets.
func (l *Layer) eachSetLSP(fn func(string)) {
	for n := range l.LSP {
		fn("lsp." + n)
	}
	if l.LSPTimeoutMS != nil {
		fn("lsp_timeout_ms")
	}
}
