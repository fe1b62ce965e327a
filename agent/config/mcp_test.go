package config

import (
	"strings"
	"testing"
)

func TestMCPServersLayers(t *testing.T) {
	c, err := fixture{
		user: `{"mcpServers": {
			"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "${GH_TOKEN}"}},
			"docs": {"type": "http", "url": "https://docs.example.com/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN:-none}"}}}}`,
		workspace: `{"mcpServers": {
			"docs": {"url": "http://localhost:9000/mcp"},
			"local": {"command": "./tools/mcp-server", "cwd": "tools"}}}`,
	}.load(t)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.MCPServers) != 3 {
		t.Fatalf("servers = %v", c.MCPServers)
	}
	for name, want := range map[string]struct {
		workspace bool
		transport string
	}{"github": {false, MCPStdio}, "docs": {true, MCPHTTP}, "local": {true, MCPStdio}} {
		s := c.MCPServers[name]
		if s.Workspace != want.workspace || s.Transport() != want.transport {
			t.Errorf("%s: workspace=%v transport=%s, want %v %s", name, s.Workspace, s.Transport(), want.workspace, want.transport)
		}
	}
}

func TestMCPServerInvalid(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{`{"mcpServers": {"a b": {"command": "x"}}}`, "server name"},
		{`{"mcpServers": {"x": {}}}`, "needs a command"},
		{`{"mcpServers": {"x": {"type": "sse"}}}`, "needs a url"},
		{`{"mcpServers": {"x": {"type": "websocket", "url": "ws://x"}}}`, "want stdio, http or sse"},
		{`{"mcpServers": {"x": {"url": "ftp://x"}}}`, "http or https"},
		{`{"mcpServers": {"x": {"type": "http", "url": "http://x", "command": "y"}}}`, "takes no command"},
		{`{"mcpServers": {"x": {"command": "y", "headers": {"a": "b"}}}}`, "takes no url"},
		{`{"mcpServers": {"x": {"command": "y", "bogus": 1}}}`, "bogus"},
	} {
		if _, err := (fixture{user: tc.file}).load(t); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
}

func TestMCPExpand(t *testing.T) {
	env := map[string]string{"HOME": "/home/u", "TOKEN": "t0k", "EMPTY": ""}
	getenv := func(k string) string { return env[k] }
	s := MCPServer{
		Command: "${HOME}/bin/srv", Args: []string{"--token=${TOKEN}", "${PORT:-8080}", "$HOME", "${unclosed", "a${EMPTY:-d}b"},
		Env: map[string]string{"K": "${TOKEN}"}, URL: "", Cwd: "${HOME}",
	}
	got, err := s.Expand(getenv)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"--token=t0k", "8080", "$HOME", "${unclosed", "adb"}
	if got.Command != "/home/u/bin/srv" || strings.Join(got.Args, "|") != strings.Join(want, "|") || got.Env["K"] != "t0k" || got.Cwd != "/home/u" {
		t.Errorf("Expand = %+v", got)
	}
	if s.Args[0] != "--token=${TOKEN}" {
		t.Error("Expand changed its receiver")
	}
	_, err = MCPServer{Command: "x", Headers: map[string]string{"A": "${NOPE}"}, Args: []string{"${ALSO_NOPE}"}}.Expand(getenv)
	if err == nil || !strings.Contains(err.Error(), "ALSO_NOPE, NOPE") {
		t.Errorf("unset variables: %v", err)
	}
}

func TestMCPFingerprint(t *testing.T) {
	a := MCPServer{Command: "x", Args: []string{"1"}, Env: map[string]string{"A": "1", "B": "2"}}
	b := a
	b.Workspace = true
	if a.Fingerprint() != b.Fingerprint() {
		t.Error("the fingerprint depends on where the server was defined")
	}
	for _, changed := range []MCPServer{
		{Command: "x", Args: []string{"2"}, Env: a.Env},
		{Command: "y", Args: a.Args, Env: a.Env},
		{Command: "x", Args: a.Args, Env: map[string]string{"A": "1", "B": "3"}},
		{Command: "x", Args: a.Args, Env: a.Env, Cwd: "d"},
	} {
		if changed.Fingerprint() == a.Fingerprint() {
			t.Errorf("%+v has the fingerprint of %+v", changed, a)
		}
	}
}
