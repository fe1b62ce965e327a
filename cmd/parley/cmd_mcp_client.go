package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

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

// startMCP starts the configured MCP servers that may run; the workspace
// servers still waiting for the user's approval are reported through warn
// with the command that allows them.
func startMCP(g *globals, root string, cfg *config.Config, warn func(error)) *mcpclient.Manager {
	if len(cfg.MCPServers) == 0 {
		return nil
	}
	ap, err := mcpApprovals(g, root)
	if err != nil {
		warn(fmt.Errorf("MCP servers not started: %w", err))
		return nil
	}
	approved, err := ap.Load()
	if err != nil {
		warn(fmt.Errorf("workspace MCP servers not started: %w", err))
		approved = map[string]string{}
	}
	run, pending := mcpclient.Select(cfg.MCPServers, approved)
	for _, name := range pending {
		warn(fmt.Errorf("the workspace config defines the MCP server %s (%s); it runs once you allow it: parley mcp allow %s",
			name, cfg.MCPServers[name].Describe(), name))
	}
	if len(run) == 0 {
		return nil
	}
	return mcpclient.Start(context.Background(), mcpclient.Options{
		Servers: run, Dir: root, Version: version,
		Report: func(e mcpclient.Event) {
			if e.Kind != mcpclient.EventToolsChanged {
				warn(errors.New(e.String()))
			}
		},
	})
}
