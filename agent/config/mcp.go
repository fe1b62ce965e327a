package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// MCP server transports (MCPServer.Type), as Claude Code's .mcp.json names
// them.
const (
	MCPStdio = "stdio"
	MCPHTTP  = "http" // streamable HTTP
	MCPSSE   = "sse"  // the legacy HTTP+SSE transport
)

// MCPServer is one entry of mcpServers, in the .mcp.json format of Claude
// Code and Claude Desktop: command, args, env and cwd start a local server
// on stdio; url and headers reach a remote one. Every string may use
// ${VAR} and ${VAR:-default} (see Expand).
type MCPServer struct {
	// Type is stdio, http or sse; empty means stdio with a command and
	// http with a url ("streamable-http" is taken for http).
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Workspace is set when the workspace file defined (or redefined) the
	// server: it may come with a cloned repository, so it runs only once
	// the user has allowed this exact definition (see Fingerprint).
	Workspace bool `json:"-"`
}

// mcpName is what a server may be called: its tools are named
// mcp_{server}_{tool}, and tool names allow [a-zA-Z0-9_-] only.
var mcpName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,32}$`)

// Transport is the resolved transport: MCPStdio, MCPHTTP or MCPSSE.
func (s MCPServer) Transport() string {
	switch strings.ToLower(s.Type) {
	case MCPSSE:
		return MCPSSE
	case MCPHTTP, "streamable-http", "streamablehttp":
		return MCPHTTP
	case MCPStdio:
		return MCPStdio
	}
	if s.Command == "" && s.URL != "" {
		return MCPHTTP
	}
	return MCPStdio
}

// Fingerprint identifies the definition as written (before expansion):
// an approval of a workspace server holds for this fingerprint only, so a
// changed command, argument, variable or URL asks again.
func (s MCPServer) Fingerprint() string {
	s.Workspace = false
	data, _ := json.Marshal(s) // maps marshal in key order
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// Describe is the definition in one line, for approval questions and
// listings (header and env values are left out: they may hold secrets).
func (s MCPServer) Describe() string {
	var b strings.Builder
	if s.Transport() == MCPStdio {
		b.WriteString(s.Command)
		for _, a := range s.Args {
			b.WriteString(" " + a)
		}
		if s.Cwd != "" {
			fmt.Fprintf(&b, " (in %s)", s.Cwd)
		}
	} else {
		fmt.Fprintf(&b, "%s %s", s.Transport(), s.URL)
	}
	if len(s.Env) > 0 {
		fmt.Fprintf(&b, " env %s", strings.Join(slices.Sorted(maps.Keys(s.Env)), ","))
	}
	if len(s.Headers) > 0 {
		fmt.Fprintf(&b, " headers %s", strings.Join(slices.Sorted(maps.Keys(s.Headers)), ","))
	}
	return b.String()
}

func (s MCPServer) validate(name string) error {
	if !mcpName.MatchString(name) {
		return fmt.Errorf("mcpServers: server name %q: use 1 to 32 letters, digits, _ or -", name)
	}
	switch strings.ToLower(s.Type) {
	case "", MCPStdio, MCPHTTP, MCPSSE, "streamable-http", "streamablehttp":
	default:
		return fmt.Errorf("mcpServers.%s: type %q: want stdio, http or sse", name, s.Type)
	}
	switch s.Transport() {
	case MCPStdio:
		if s.Command == "" {
			return fmt.Errorf("mcpServers.%s: a stdio server needs a command", name)
		}
		if s.URL != "" || len(s.Headers) > 0 {
			return fmt.Errorf("mcpServers.%s: a stdio server takes no url or headers", name)
		}
	default:
		if s.URL == "" {
			return fmt.Errorf("mcpServers.%s: an %s server needs a url", name, s.Transport())
		}
		if s.Command != "" || len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "" {
			return fmt.Errorf("mcpServers.%s: an %s server takes no command, args, env or cwd", name, s.Transport())
		}
		if !strings.Contains(s.URL, "${") {
			if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return fmt.Errorf("mcpServers.%s: url %q: want an http or https URL", name, s.URL)
			}
		}
	}
	return nil
}

// Expand replaces ${VAR} and ${VAR:-default} in every string of the
// definition with getenv's values. A variable that is unset (or empty)
// without a default is an error naming it, rather than a command or URL
// silently missing a part.
func (s MCPServer) Expand(getenv func(string) string) (MCPServer, error) {
	var missing []string
	exp := func(v string) string {
		out, miss := expandVars(v, getenv)
		missing = append(missing, miss...)
		return out
	}
	expMap := func(m map[string]string) map[string]string {
		if m == nil {
			return nil
		}
		out := make(map[string]string, len(m))
		for k, v := range m {
			out[k] = exp(v)
		}
		return out
	}
	n := s
	n.Command, n.Cwd, n.URL = exp(s.Command), exp(s.Cwd), exp(s.URL)
	n.Args = make([]string, len(s.Args))
	for i, a := range s.Args {
		n.Args[i] = exp(a)
	}
	n.Env, n.Headers = expMap(s.Env), expMap(s.Headers)
	if len(missing) > 0 {
		slices.Sort(missing)
		return MCPServer{}, fmt.Errorf("environment variables %s are not set (give a default with ${VAR:-default})",
			strings.Join(slices.Compact(missing), ", "))
	}
	return n, nil
}

// expandVars expands one string; text that is not a well-formed ${...}
// (a lone $, $VAR without braces, an unclosed ${) stays as written.
func expandVars(v string, getenv func(string) string) (string, []string) {
	var b strings.Builder
	var missing []string
	for {
		i := strings.Index(v, "${")
		if i < 0 {
			b.WriteString(v)
			return b.String(), missing
		}
		end := strings.IndexByte(v[i:], '}')
		if end < 0 {
			b.WriteString(v)
			return b.String(), missing
		}
		b.WriteString(v[:i])
		name, def, hasDef := strings.Cut(v[i+2:i+end], ":-")
		switch val := getenv(name); {
		case val != "":
			b.WriteString(val)
		case hasDef:
			b.WriteString(def)
		default:
			missing = append(missing, name)
		}
		v = v[i+end+1:]
	}
}

func cloneMCP(m map[string]MCPServer) map[string]MCPServer {
	if m == nil {
		return nil
	}
	return maps.Clone(m)
}
