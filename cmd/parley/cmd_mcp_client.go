package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/tools/mcpclient"
)

// mcpApprovals is where a workspace's approvals of its own MCP servers
// live: the workspace's data directory, outside the repository.
func mcpApprovals(g *globals, root string) (mcpclient.Approvals, error) {
	storeDir, err := g.storeDir(root)
	if err != nil {
		return mcpclient.Approvals{}, err
	}
	return mcpclient.Approvals{Path: filepath.Join(filepath.Dir(storeDir), "mcp-approved.json")}, nil
}

// startMCP starts the configured MCP servers that may run; failures,
// crashes, restarts and the workspace servers waiting for approval are
// shown as agent events (agent.EventMCP), from any goroutine.
func startMCP(g *globals, root string, cfg *config.Config, warn func(error), show agent.Sink) *mcpclient.Manager {
	if len(cfg.MCPServers) == 0 {
		return nil
	}
	ap, err := mcpApprovals(g, root)
	if err != nil {
		warn(fmt.Errorf("MCP servers not started: %w", err))
		return nil
	}
	return mcpclient.StartAllowed(context.Background(), ap, mcpclient.Options{
		Servers: cfg.MCPServers, Dir: root, Version: version,
		Report: func(e mcpclient.Event) {
			if ev, ok := agent.MCPEvent(e); ok {
				show(ev)
			}
		},
	})
}
