package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/tools/mcpclient"
)

// mcpServers turns the servers a client passes with a session into
// parley's definitions, by name. The client's user configured them in the
// client, so they run without parley's approval of workspace servers.
func mcpServers(in []sdk.McpServer) (map[string]config.MCPServer, error) {
	out := map[string]config.MCPServer{}
	for i, s := range in {
		var name string
		var def config.MCPServer
		switch {
		case s.Stdio != nil:
			if s.Stdio.Command == "" {
				return nil, fmt.Errorf("server %d (%s): a stdio server needs a command", i, s.Stdio.Name)
			}
			name = s.Stdio.Name
			def = config.MCPServer{Type: config.MCPStdio, Command: s.Stdio.Command, Args: s.Stdio.Args}
			for _, e := range s.Stdio.Env {
				if def.Env == nil {
					def.Env = map[string]string{}
				}
				def.Env[e.Name] = e.Value
			}
		case s.Http != nil:
			name = s.Http.Name
			def = config.MCPServer{Type: config.MCPHTTP, URL: s.Http.Url, Headers: headers(s.Http.Headers)}
		case s.Sse != nil:
			name = s.Sse.Name
			def = config.MCPServer{Type: config.MCPSSE, URL: s.Sse.Url, Headers: headers(s.Sse.Headers)}
		default:
			return nil, fmt.Errorf("server %d: only stdio, http and sse servers are supported", i)
		}
		if def.Transport() != config.MCPStdio && def.URL == "" {
			return nil, fmt.Errorf("server %d (%s): an %s server needs a url", i, name, def.Transport())
		}
		key := serverName(name)
		if key == "" {
			return nil, errors.New("a server has no name")
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("two servers are named %q", key)
		}
		out[key] = def
	}
	return out, nil
}

func headers(hs []sdk.HttpHeader) map[string]string {
	if len(hs) == 0 {
		return nil
	}
	out := make(map[string]string, len(hs))
	for _, h := range hs {
		out[h.Name] = h.Value
	}
	return out
}

// serverName makes a client's server name fit parley's rule for tool
// names (mcp_{server}_{tool}: letters, digits, _ and -, at most 32).
func serverName(name string) string {
	var b strings.Builder
	for _, r := range strings.TrimSpace(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
		if b.Len() == 32 {
			break
		}
	}
	return b.String()
}

// startClientMCP starts a session's servers (nil without any); failures
// are reported and the session goes on without them.
func startClientMCP(ctx context.Context, ws *Workspace, defs map[string]config.MCPServer, version string, warn func(error)) *mcpclient.Manager {
	if len(defs) == 0 {
		return nil
	}
	return mcpclient.Start(context.WithoutCancel(ctx), mcpclient.Options{
		Servers: defs, Dir: ws.Roots.Paths()[0], Version: version,
		Report: func(e mcpclient.Event) {
			if e.Kind != mcpclient.EventToolsChanged {
				warn(errors.New(e.String()))
			}
		},
	})
}
