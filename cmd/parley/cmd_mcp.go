package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/mcpserve"
	"github.com/parleyhq/parley/workspace"
)

// mcpTokenEnv holds the bearer token of `parley mcp --http` (an
// environment variable, not a flag, so that it is not in ps output).
const mcpTokenEnv = "PARLEY_MCP_TOKEN"

type mcpFlags struct {
	http         string
	allowEdits   bool
	memoryWrites bool
	noWatch      bool
}

func newMCPCmd(g *globals) *cobra.Command {
	f := &mcpFlags{}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the code index and file tools to other agents over the Model Context Protocol",
		Long: `mcp serves the workspace's code index (the ranked repo map, symbol
search, definitions, references, outlines, dependencies, dependents and
hubs), read_file, recall_memories (the long-term memory) and the
vector_db_* tools that read (list, get, search) to any MCP client: over stdio by default (the client starts parley mcp), or
over streamable HTTP with --http HOST:PORT. An address other than loopback
needs a bearer token in $` + mcpTokenEnv + `, which clients send as
"Authorization: Bearer TOKEN" (with the variable set, loopback needs it
too).

The index is the one parley index and parley chat use, brought up to date
in the background from the start (the server answers at once; the index
tools wait for that first run up to 20 s, then say how far it got) and kept
current while the server runs. Edits are off unless --allow-edits, and then
go through the permission rules of the configuration (permission_mode
default becomes acceptEdits; plan refuses to start); the shell is never
served. remember, forget_memory and the vector_db_* tools that write
(create and delete indices, add, update and delete vectors, add text,
chunked text and PDFs), which change what every later session is told,
are served only with --allow-memory-writes. The memory stores are opened
for each memory call only, so a parley chat started meanwhile gets them;
the vector indices belong to one parley process at a time (the first to
use them, until it exits), so while another holds them a vector call says
so.

The subcommands manage the MCP servers whose tools parley chat and the
editor's agent use (mcpServers in the configuration).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCPServe(g, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.http, "http", "", "serve streamable HTTP on HOST:PORT (e.g. 127.0.0.1:8808) instead of stdio")
	fs.BoolVar(&f.allowEdits, "allow-edits", false, "also serve the edit tools (write_file, edit_file, multi_edit, delete_file, move_file)")
	fs.BoolVar(&f.memoryWrites, "allow-memory-writes", false, "also serve remember, forget_memory and the vector_db_* tools that write (long-term memory writes)")
	fs.BoolVar(&f.noWatch, "no-watch", false, "do not watch the workspace: changes reach the index at the next start")
	cmd.AddCommand(mcpManageCmds(g)...)
	return cmd
}

// runMCPServe serves until the client goes away (stdio) or a signal.
func runMCPServe(g *globals, f *mcpFlags) error {
	token := os.Getenv(mcpTokenEnv)
	if f.http != "" {
		if err := mcpserve.CheckListen(f.http, token); err != nil {
			return err
		}
	}
	root, err := g.workspaceRoot()
	if err != nil {
		return err
	}
	cfg, policy, err := mcpPolicy(root, f.allowEdits)
	if err != nil {
		return err
	}
	roots, err := workspace.NewRoots(root)
	if err != nil {
		return err
	}
	storeDir, err := g.storeDir(root)
	if err != nil {
		return err
	}
	warn := func(err error) { fmt.Fprintln(g.stderr, "parley:", err) }
	st, live, ready, closers := openMCPIndex(g, root, storeDir, !f.noWatch, warn)
	defer func() {
		for i := len(closers) - 1; i >= 0; i-- {
			if err := closers[i](); err != nil {
				warn(err)
			}
		}
	}()
	opts := mcpserve.Options{
		Roots: roots, Files: policy.GuardFiles(&tools.DiskView{}, roots), Policy: policy,
		AllowEdits: f.allowEdits, Version: version, Ready: ready,
		MemoryWrites: f.memoryWrites,
	}
	mem := openMemorySet(g, filepath.Dir(storeDir), warn)
	defer mem.Close()
	if mem.Workspace != nil || mem.User != nil {
		if err := agent.ConfigureMemory(mem, cfg); err != nil {
			return err
		}
		opts.Memory = mem
	}
	edOpts := tools.DiskEditorOptions{Warn: warn}
	if st != nil {
		opts.Index = rootIndex{root: root, st: st}
		edOpts.Written = live.written
	}
	opts.Editor = tools.NewDiskEditorWith(roots, edOpts)
	srv, err := mcpserve.New(opts)
	if err != nil {
		return err
	}
	ctx, stop := signalContext()
	defer stop()
	if f.http == "" {
		return srv.Run(ctx, mcpserve.StdioTransport(os.Stdin, os.Stdout))
	}
	return serveMCPHTTP(ctx, g, f.http, srv.HTTPHandler(token))
}

// mcpPolicy is the configured permission policy; with allowEdits the
// default mode becomes acceptEdits, since nobody on this side can answer
// a question (the MCP client asks its own user before calling).
func mcpPolicy(root string, allowEdits bool) (*config.Config, *permission.Policy, error) {
	cfg, err := config.Load(config.Options{Workspace: root})
	if err != nil {
		return nil, nil, err
	}
	if allowEdits && cfg.PermissionMode == string(permission.ModeDefault) {
		mode := string(permission.ModeAcceptEdits)
		if err := cfg.Merge(config.Layer{PermissionMode: &mode}, "--allow-edits"); err != nil {
			return nil, nil, err
		}
	}
	policy, err := permission.FromConfig(cfg)
	return cfg, policy, err
}

// serveMCPHTTP serves h on addr until ctx ends, then shuts down.
func serveMCPHTTP(ctx context.Context, g *globals, addr string, h http.Handler) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcp --http: %w", err)
	}
	// The bound address (an ephemeral port with :0) for the user and tests.
	fmt.Fprintf(g.stderr, "parley mcp: serving http://%s/\n", ln.Addr())
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("mcp --http: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("mcp --http: shutdown: %w", err)
	}
	return nil
}
