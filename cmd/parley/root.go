package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
)

// globals are the flags every subcommand shares.
type globals struct {
	root    string
	dataDir string
	json    bool
	limit   int
	stdout  io.Writer
	stderr  io.Writer
	// rootExplicit: the user named the root (--root, index PATH), which
	// lifts the file limit, maxFiles.
	rootExplicit bool
	maxFiles     int
	rootNoted    bool // the automatic root's choice was explained on stderr
}

func newRootCmd() *cobra.Command {
	g := &globals{}
	cmd := &cobra.Command{
		Use:   "parley",
		Short: "A language server with a persistent code index and an in-process coding agent",
		Long: `parley keeps a persistent syntax index of a workspace (Go, Python,
JavaScript, TypeScript, Java, Rust, C, C++, C#, Ruby, PHP, Kotlin, Lua,
Bash; Swift with index --enable-lang swift) and answers symbol, reference
and dependency queries from it.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRun: func(cmd *cobra.Command, _ []string) {
			g.stdout, g.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
			g.rootExplicit = cmd.Flags().Changed("root")
		},
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&g.root, "root", "", "workspace root (default: the nearest enclosing directory with .git, .hg or .parley below your home directory, else the nearest with a project file such as go.mod, else the current directory)")
	pf.IntVar(&g.maxFiles, "max-files", defaultMaxFiles, "stop indexing a root parley chose itself when it has more files than this (0: no limit; an explicit --root has none); serve indexes anyway and warns")
	pf.StringVar(&g.dataDir, "data-dir", "", "where parley keeps its data (default: $PARLEY_DATA_DIR, else the user cache directory)")
	cmd.AddCommand(
		newIndexCmd(g), newChatCmd(g),
		newSymbolsCmd(g), newDefsCmd(g), newRefsCmd(g), newOutlineCmd(g), newCompleteCmd(g),
		newDepsCmd(g), newDependentsCmd(g), newHubsCmd(g), newMapCmd(g), newStatsCmd(g),
		newVersionCmd(), newServeCmd(g), newReadCmd(g), newHooksCmd(g), newCommandsCmd(g), newLoopCmd(g), newMCPCmd(g), newACPCmd(g), newMemoryCmd(g), newVectorCmd(g), newLSPCmd(g),
	)
	// An editor launches the binary with stdin on a pipe: serve LSP.
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if isTTY(os.Stdin) {
			return cmd.Help()
		}
		code, err := runServe(g, serveFlags{logLevel: "info"})
		if err == nil && code != 0 {
			err = exitCode(code)
		}
		return err
	}
	return cmd
}

// addQueryFlags adds the output flags of query commands.
func addQueryFlags(cmd *cobra.Command, g *globals, defLimit int) {
	cmd.Flags().BoolVar(&g.json, "json", false, "print JSON")
	cmd.Flags().IntVar(&g.limit, "limit", defLimit, "maximum number of results (0: no limit)")
}

// workspaceRoot resolves the root flag (or the automatic root, see
// chooseRoot) to an absolute, symlink-free directory path. The first time
// an automatic choice may surprise, it says on stderr which root it took
// and why (never on stdout, which tools parse).
func (g *globals) workspaceRoot() (string, error) {
	root := g.root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("current directory: %w", err)
		}
		c, err := chooseRoot(wd, homeDir())
		if err != nil {
			return "", err
		}
		if c.say && !g.rootNoted && g.stderr != nil {
			fmt.Fprintf(g.stderr, "parley: workspace root %s (%s)\n", c.dir, c.why)
			g.rootNoted = true
		}
		root = c.dir
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("workspace root %s does not exist", root)
		}
		return "", fmt.Errorf("workspace root %s: %w", root, err)
	}
	if !info.IsDir() {
		return "", fmt.Errorf("workspace root %s is not a directory", root)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return abs, nil
}

// findProjectRoot is the automatic root for dir (see chooseRoot), so that
// a command run in a subdirectory uses the project's index, as git does.
// When chooseRoot chooses none (dir is the home directory) it is dir
// itself: this is for a dir a client named (an ACP session's cwd), and the
// file limit still applies.
func findProjectRoot(dir string) string {
	c, err := chooseRoot(dir, homeDir())
	if err != nil {
		return dir
	}
	return c.dir
}

// storeDir is where the index of root lives: one directory per workspace,
// named after the root's base name plus a hash of its full path so that two
// checkouts called "app" do not collide.
func (g *globals) storeDir(root string) (string, error) {
	base, err := g.dataBase()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	name := filepath.Base(root) + "-" + hex.EncodeToString(sum[:6])
	return filepath.Join(base, name, "index"), nil
}

// openSessions opens the session store of the workspace at root (beside
// its index). The caller must close it.
func (g *globals) openSessions(root string) (*agent.SessionStore, error) {
	storeDir, err := g.storeDir(root)
	if err != nil {
		return nil, err
	}
	return agent.OpenSessions(filepath.Join(filepath.Dir(storeDir), "sessions"))
}

// dataBase is the data directory: --data-dir, $PARLEY_DATA_DIR, else
// parley/ in the user cache directory.
func (g *globals) dataBase() (string, error) {
	if g.dataDir != "" {
		return g.dataDir, nil
	}
	if d := os.Getenv("PARLEY_DATA_DIR"); d != "" {
		return d, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no data directory: set --data-dir or PARLEY_DATA_DIR (%w)", err)
	}
	return filepath.Join(cache, "parley"), nil
}

// openStore opens the index of the workspace with a clear message for the
// usual failures (unwritable data directory, another process holding it).
func (g *globals) openStore() (*index.Store, string, error) {
	root, err := g.workspaceRoot()
	if err != nil {
		return nil, "", err
	}
	dir, err := g.storeDir(root)
	if err != nil {
		return nil, "", err
	}
	st, err := nav.Open(dir)
	if err != nil {
		if errors.Is(err, index.ErrLocked) {
			return nil, "", fmt.Errorf("%w; wait for it to finish or use another --data-dir", err)
		}
		if errors.Is(err, os.ErrPermission) {
			return nil, "", fmt.Errorf("data directory is not writable: %w", err)
		}
		return nil, "", err
	}
	return st, root, nil
}

// signalContext is cancelled by SIGINT or SIGTERM so that an interrupted
// index run commits what it has and exits cleanly.
func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
