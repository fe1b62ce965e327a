package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/lsp"
)

func newServeCmd(g *globals) *cobra.Command {
	var logFile, logLevel string
	var exclude, enable []string
	var noWatch bool
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the language server on stdin/stdout (what editors launch)",
		Long: `serve speaks the Language Server Protocol on stdin and stdout. It is
also what parley does when started without a command and stdin is not a
terminal. Logs go to the client (window/logMessage) and to --log-file,
never to stdout.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			code, err := runServe(g, serveFlags{logFile, logLevel, exclude, enable, noWatch})
			if err != nil {
				return err
			}
			if code != 0 {
				return exitCode(code)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&logFile, "log-file", "", "append logs to this file (default: serve.log in the data directory)")
	f.StringVar(&logLevel, "log-level", "info", "minimum level sent to the editor: debug, info, warn or error")
	f.StringSliceVar(&exclude, "exclude", nil, "extra gitignore-style patterns to leave out of the index")
	f.StringSliceVar(&enable, "enable-lang", nil, "turn on opt-in extractors (swift)")
	f.BoolVar(&noWatch, "no-watch", false, "do not watch the folders for changes made outside the editor")
	return cmd
}

type serveFlags struct {
	logFile, logLevel string
	exclude, enable   []string
	noWatch           bool
}

// exitCode makes a command end the process with a code but no message.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

func runServe(g *globals, fl serveFlags) (int, error) {
	level, err := lsp.ParseLevel(fl.logLevel)
	if err != nil {
		return 0, err
	}
	logOut, closeLog, err := g.openServeLog(fl.logFile)
	if err != nil {
		return 0, err
	}
	defer closeLog()
	// The default root is only used when the client names no folder.
	root, _ := g.workspaceRoot()
	srv := lsp.New(lsp.Options{
		StoreDir:    g.storeDir,
		LogFile:     logOut,
		LogLevel:    level,
		DefaultRoot: root,
		Version:     version,
		NoWatch:     fl.noWatch,
		// The editor named the folders: over the limit the server only warns.
		Index: index.Options{Excludes: fl.exclude, EnableLanguages: fl.enable, MaxFiles: g.maxFiles},
		Agent: lsp.AgentOptions{UserMemoryDir: userMemoryDir(g)},
	})
	ctx, stop := signalContext()
	defer stop()
	return srv.Serve(ctx, lsp.NewStream(stdio{})), nil
}

// openServeLog opens the log file, by default serve.log in the data
// directory (created if needed).
func (g *globals) openServeLog(path string) (io.Writer, func(), error) {
	if path == "" {
		dir, err := g.dataBase()
		if err != nil {
			return nil, nil, err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, nil, fmt.Errorf("data directory: %w", err)
		}
		path = filepath.Join(dir, "serve.log")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("log file: %w", err)
	}
	return f, func() { f.Close() }, nil
}

// stdio joins stdin and stdout into the connection of a server launched
// by an editor.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	err := os.Stdin.Close()
	if err2 := os.Stdout.Close(); err == nil {
		err = err2
	}
	return err
}

// isTTY reports whether f is a terminal (/dev/null, a character device,
// is not). A bare `parley` serves LSP unless stdin is one.
func isTTY(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
