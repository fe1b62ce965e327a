package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/internal/wire"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

type acpFlags struct {
	noWatch bool
}

func newACPCmd(g *globals) *cobra.Command {
	f := &acpFlags{}
	cmd := &cobra.Command{
		Use:   "acp",
		Short: "Serve the coding agent to editors over the Agent Client Protocol (Zed, JetBrains, CodeCompanion)",
		Long: `acp runs the coding agent for an editor that speaks the Agent Client
Protocol (agentclientprotocol.com) on stdin and stdout: Zed's agent_servers,
JetBrains AI Assistant, Neovim's CodeCompanion. The editor starts it.

The workspace is the project holding the first session's working directory
(--root overrides); its configuration, index, sessions and memory are the
ones parley chat uses, and so are the permission rules and modes (the
editor's mode menu switches them). When the editor offers its file system
the agent reads and edits its buffers, unsaved changes included; when it
offers terminals, shell commands run in them. Logs go to stderr.

Without a model API key, sessions are refused with ACP's auth_required and
the editor shows parley's auth methods: the environment variables
(PARLEY_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, GOOGLE_API_KEY; set them where the
editor starts parley acp, then restart it) and the user config file (read
again when the editor authenticates, no restart needed).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runACP(g, f, os.Stdin, os.Stdout)
		},
	}
	cmd.Flags().BoolVar(&f.noWatch, "no-watch", false, "do not watch the workspace: files changed outside the agent reach the index at the next start")
	return cmd
}

// runACP serves one client on r and w until it goes away or a signal.
func runACP(g *globals, f *acpFlags, r io.Reader, w io.Writer) error {
	// The SDK logs malformed frames (Error) and every closed connection
	// (Info) through slog's default logger: the first belong on stderr.
	slog.SetDefault(slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	h := &acpHost{g: g, watch: !f.noWatch}
	defer h.close()
	srv := acp.New(acp.Options{
		Open: h.open, Version: version, CheckKey: h.checkKey,
		Warn: func(err error) { fmt.Fprintln(g.stderr, "parley:", err) },
	})
	ctx, stop := signalContext()
	defer stop()
	// An endless line would otherwise end the SDK's connection silently,
	// and the process with status 0.
	lr := wire.LimitLines(r, acp.MaxLine)
	if err := srv.Serve(ctx, lr, w); err != nil {
		return err
	}
	if err := lr.Err(); err != nil {
		return fmt.Errorf("acp: %w", err)
	}
	return nil
}

// acpHost opens the workspace on the first session's cwd and keeps it:
// one process serves one project, as parley chat does. A workspace that
// could not be opened (no model configured) is tried again with the next
// session, so a fixed configuration needs no restart.
type acpHost struct {
	g     *globals
	watch bool

	mu      sync.Mutex
	ws      *acp.Workspace
	cwd     string // of the last session that tried to open ws
	closers []func() error
}

func (h *acpHost) warn(err error) { fmt.Fprintln(h.g.stderr, "parley:", err) }

func (h *acpHost) open(cwd string) (*acp.Workspace, error) {
	if !filepath.IsAbs(cwd) {
		return nil, fmt.Errorf("cwd %q is not an absolute path", cwd)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ws == nil {
		h.cwd = cwd
		ws, err := h.openLocked(cwd)
		if err != nil {
			return nil, fmt.Errorf("workspace of %s: %w", cwd, err)
		}
		h.ws = ws
	}
	if _, _, _, err := h.ws.Roots.Resolve(cwd); err != nil {
		return nil, fmt.Errorf("this parley acp serves %s; %s is outside it (start another parley acp there)", h.ws.Roots.Paths()[0], cwd)
	}
	return h.ws, nil
}

func (h *acpHost) openLocked(cwd string) (*acp.Workspace, error) {
	g := *h.g
	if g.root == "" {
		g.root = findProjectRoot(cwd)
	}
	root, err := g.workspaceRoot()
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(config.Options{Workspace: root})
	if err != nil {
		return nil, err
	}
	if err := cfg.Ready(); err != nil {
		return nil, err
	}
	key, _ := cfg.Key()
	prov, err := provider.New(provider.Config{
		Provider: cfg.Provider, APIURL: cfg.APIURL, APIKey: key, Model: cfg.Model, MaxTokens: cfg.MaxTokens,
	})
	if err != nil {
		return nil, err
	}
	roots, err := workspace.NewRoots(root)
	if err != nil {
		return nil, err
	}
	storeDir, err := g.storeDir(root)
	if err != nil {
		return nil, err
	}
	ws := &acp.Workspace{Roots: roots, Config: cfg, Provider: prov}
	if ws.Hooks, err = hooks.FromConfig(cfg, root); err != nil {
		return nil, err
	}
	st, live, closers := openLiveIndex(&g, root, storeDir, h.watch, h.warn)
	h.closers = append(h.closers, closers...)
	if st != nil {
		ws.Index = rootIndex{root: root, st: st}
		ws.Written = live.written
		if cfg.RepoMapTokens > 0 {
			mapper := repomap.New(st, root)
			ws.RepoMap = func() *repomap.Focus {
				return repomap.NewFocus(mapper, repomap.Options{Tokens: cfg.RepoMapTokens, Count: tokcount.Counter(cfg.Model)})
			}
		}
	}
	wsDir := filepath.Dir(storeDir)
	if sessions, err := agent.OpenSessions(filepath.Join(wsDir, "sessions")); err != nil {
		h.warn(fmt.Errorf("sessions will not be saved: %w", err))
	} else {
		ws.Sessions = sessions
		h.closers = append(h.closers, sessions.Close)
	}
	ws.Memory = openMemorySet(&g, wsDir, h.warn)
	h.closers = append(h.closers, ws.Memory.Close)
	ws.Memory.Anchors = tools.AnchorHasher(&tools.Env{Roots: roots, Files: &tools.DiskView{}, Index: ws.Index})
	// ACP has no update for an MCP server's trouble outside a session:
	// the client's log (stderr) hears of it.
	ws.MCP = startMCP(&g, root, cfg, h.warn, func(e agent.Event) { h.warn(errors.New(e.Text)) })
	h.closers = append(h.closers, ws.MCP.Close)
	if m := startLSP(cfg, h.warn); m != nil {
		ws.Diagnostics = m
		h.closers = append(h.closers, m.Close)
	}
	return ws, nil
}

// checkKey reads the configuration again, as opening the workspace
// would, for authenticate: nil when a key is there (or none is needed).
// The workspace file counts (its api_url decides which key is sent), so
// the root is the one the last session would have opened.
func (h *acpHost) checkKey() error {
	h.mu.Lock()
	open, cwd := h.ws != nil, h.cwd
	h.mu.Unlock()
	if open {
		return nil // it was opened with a key, or needs none
	}
	g := *h.g
	if g.root == "" && cwd != "" {
		g.root = findProjectRoot(cwd)
	}
	root, err := g.workspaceRoot()
	if err != nil {
		return err
	}
	cfg, err := config.Load(config.Options{Workspace: root})
	if err != nil {
		return err
	}
	return cfg.Ready()
}

func (h *acpHost) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := len(h.closers) - 1; i >= 0; i-- {
		if err := h.closers[i](); err != nil {
			h.warn(err)
		}
	}
	h.closers = nil
}
