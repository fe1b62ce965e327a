package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/tools/mcpclient"
)

// mcpManageCmds are `parley mcp list|add|remove|test|allow`.
func mcpManageCmds(g *globals) []*cobra.Command {
	return []*cobra.Command{newMCPListCmd(g), newMCPAddCmd(g), newMCPRemoveCmd(g), newMCPTestCmd(g), newMCPAllowCmd(g)}
}

// mcpContext loads the configuration of the workspace and its approvals.
func mcpContext(g *globals) (root string, cfg *config.Config, ap mcpclient.Approvals, approved map[string]string, err error) {
	if root, err = g.workspaceRoot(); err != nil {
		return
	}
	if cfg, err = config.Load(config.Options{Workspace: root}); err != nil {
		return
	}
	if ap, err = mcpApprovals(g, root); err != nil {
		return
	}
	approved, err = ap.Load()
	return
}

func newMCPListCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the configured MCP servers, start them and show their status",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			root, cfg, _, approved, err := mcpContext(g)
			if err != nil {
				return err
			}
			if len(cfg.MCPServers) == 0 {
				fmt.Fprintln(g.stdout, "no MCP servers configured (add one with parley mcp add)")
				return nil
			}
			run, pending := mcpclient.Select(cfg.MCPServers, approved)
			m := mcpclient.Start(context.Background(), mcpclient.Options{Servers: run, Dir: root, Version: version})
			defer m.Close()
			status := map[string]mcpclient.Status{}
			for _, st := range m.Status() {
				status[st.Name] = st
			}
			w := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
			for _, name := range slices.Sorted(maps.Keys(cfg.MCPServers)) {
				srv := cfg.MCPServers[name]
				from := "user"
				if srv.Workspace {
					from = "workspace"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", name, from, statusWords(name, status[name], slices.Contains(pending, name)), srv.Describe())
			}
			return w.Flush()
		},
	}
}

// statusWords is one server's state for list.
func statusWords(name string, st mcpclient.Status, pending bool) string {
	switch {
	case pending:
		return "not allowed (parley mcp allow " + name + ")"
	case st.State == "running":
		s := fmt.Sprintf("running, %d tools", st.Tools)
		if len(st.Resources) > 0 {
			s += fmt.Sprintf(", %d resources", len(st.Resources))
		}
		if len(st.Prompts) > 0 {
			s += fmt.Sprintf(", %d prompts", len(st.Prompts))
		}
		return s
	case st.State == "failed" && st.Err != nil:
		return "failed: " + st.Err.Error()
	case st.State == "stopped" && st.Err != nil:
		return "stopped: " + st.Err.Error()
	}
	return st.State
}

type mcpAddFlags struct {
	workspace bool
	transport string
	env       []string
	headers   []string
	cwd       string
}

func newMCPAddCmd(g *globals) *cobra.Command {
	f := &mcpAddFlags{}
	cmd := &cobra.Command{
		Use:   "add NAME (-- COMMAND [ARG...] | URL)",
		Short: "Add an MCP server to the user configuration (or, with --workspace, the workspace's)",
		Long: `add writes an mcpServers entry: a command after -- starts a local server
on stdio; a URL reaches a streamable HTTP server (--transport sse for the
legacy SSE transport). ${VAR} and ${VAR:-default} are expanded when the
server starts, so secrets can stay in the environment:

  parley mcp add github --env 'GITHUB_TOKEN=${GITHUB_TOKEN}' -- npx -y @modelcontextprotocol/server-github
  parley mcp add docs --header 'Authorization=Bearer ${DOCS_TOKEN}' https://docs.example.com/mcp`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMCPAdd(g, f, args, cmd.ArgsLenAtDash())
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.workspace, "workspace", false, "write .parley/config.json of the workspace instead of the user file")
	fs.StringVar(&f.transport, "transport", "", "http (default for a URL) or sse")
	fs.StringArrayVar(&f.env, "env", nil, "KEY=VALUE for the server's environment (repeatable)")
	fs.StringArrayVar(&f.headers, "header", nil, "NAME=VALUE sent with every HTTP request (repeatable)")
	fs.StringVar(&f.cwd, "cwd", "", "working directory of a stdio server (default: the workspace root)")
	return cmd
}

func runMCPAdd(g *globals, f *mcpAddFlags, args []string, dash int) error {
	name := args[0]
	var srv config.MCPServer
	var err error
	if srv.Env, err = keyValues("--env", f.env); err != nil {
		return err
	}
	if srv.Headers, err = keyValues("--header", f.headers); err != nil {
		return err
	}
	switch {
	case dash == 1:
		srv.Command, srv.Args, srv.Cwd = args[1], args[2:], f.cwd
	case dash < 0 && len(args) == 2:
		srv.URL, srv.Type = args[1], f.transport
		if srv.Type == "" {
			srv.Type = config.MCPHTTP
		}
	default:
		return errors.New("give the server's command after --, or its URL")
	}
	path, err := mcpConfigFile(g, f.workspace)
	if err != nil {
		return err
	}
	err = config.EditMCPServers(path, func(m map[string]config.MCPServer) error {
		m[name] = srv
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.stdout, "added MCP server %s to %s\n", name, path)
	return nil
}

func keyValues(flag string, kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("%s %q: want NAME=VALUE", flag, kv)
		}
		m[k] = v
	}
	return m, nil
}

// mcpConfigFile is the user config file, or the workspace's.
func mcpConfigFile(g *globals, workspace bool) (string, error) {
	if !workspace {
		return config.UserFile()
	}
	root, err := g.workspaceRoot()
	if err != nil {
		return "", err
	}
	return config.WorkspaceFile(root), nil
}

func newMCPRemoveCmd(g *globals) *cobra.Command {
	var workspace bool
	cmd := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove an MCP server from the user configuration (or, with --workspace, the workspace's)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := mcpConfigFile(g, workspace)
			if err != nil {
				return err
			}
			err = config.EditMCPServers(path, func(m map[string]config.MCPServer) error {
				if _, ok := m[args[0]]; !ok {
					return fmt.Errorf("%s defines no MCP server %s", path, args[0])
				}
				delete(m, args[0])
				return nil
			})
			if err != nil {
				return err
			}
			if workspace {
				root, _ := g.workspaceRoot()
				if ap, err := mcpApprovals(g, root); err == nil {
					_ = ap.Revoke(args[0])
				}
			}
			fmt.Fprintf(g.stdout, "removed MCP server %s from %s\n", args[0], path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&workspace, "workspace", false, "edit .parley/config.json of the workspace instead of the user file")
	return cmd
}

func newMCPTestCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "test NAME",
		Short: "Start one MCP server and list its tools, resources and prompts",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			root, cfg, _, approved, err := mcpContext(g)
			if err != nil {
				return err
			}
			name := args[0]
			srv, ok := cfg.MCPServers[name]
			if !ok {
				return fmt.Errorf("no MCP server %s is configured (parley mcp list shows them)", name)
			}
			if _, pending := mcpclient.Select(map[string]config.MCPServer{name: srv}, approved); len(pending) > 0 {
				return fmt.Errorf("the workspace's MCP server %s (%s) has not been allowed yet: parley mcp allow %s", name, srv.Describe(), name)
			}
			m := mcpclient.Start(context.Background(), mcpclient.Options{Servers: map[string]config.MCPServer{name: srv}, Dir: root, Version: version})
			defer m.Close()
			st := m.Status()[0]
			if st.State != "running" {
				return fmt.Errorf("MCP server %s: %w", name, st.Err)
			}
			fmt.Fprintf(g.stdout, "%s: running, %d tools\n", name, st.Tools)
			for _, t := range m.Tools() {
				fmt.Fprintf(g.stdout, "  %s\n", t.Name())
			}
			for _, r := range st.Resources {
				fmt.Fprintf(g.stdout, "  resource %s\n", r)
			}
			for _, p := range st.Prompts {
				fmt.Fprintf(g.stdout, "  prompt %s\n", p)
			}
			return nil
		},
	}
}

func newMCPAllowCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "allow NAME",
		Short: "Allow an MCP server the workspace configuration defines (this definition only)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, cfg, ap, _, err := mcpContext(g)
			if err != nil {
				return err
			}
			srv, ok := cfg.MCPServers[args[0]]
			if !ok {
				return fmt.Errorf("no MCP server %s is configured", args[0])
			}
			if !srv.Workspace {
				return fmt.Errorf("MCP server %s comes from the user configuration and needs no approval", args[0])
			}
			if err := ap.Allow(args[0], srv); err != nil {
				return err
			}
			fmt.Fprintf(g.stdout, "allowed MCP server %s: %s\n(a changed definition asks again)\n", args[0], srv.Describe())
			return nil
		},
	}
}
