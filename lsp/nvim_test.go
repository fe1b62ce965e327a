package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/nvimtest"
)

// TestMain lets the test binary act as `parley serve` for a real editor:
// the Neovim tests start Neovim with this binary as the server command.
func TestMain(m *testing.M) {
	if os.Getenv("PARLEY_LSP_TEST_SERVE") != "" {
		os.Exit(serveStdioForTest())
	}
	os.Exit(m.Run())
}

// serveStdioForTest serves LSP on stdio, with the index and serve.log in
// $PARLEY_TEST_DATA. The user's config file is not read, so a developer's
// own agent settings cannot change what a test sees.
func serveStdioForTest() int {
	data := os.Getenv("PARLEY_TEST_DATA")
	logf, _ := os.Create(filepath.Join(data, "serve.log"))
	srv := New(Options{
		StoreDir: func(root string) (string, error) { return filepath.Join(data, "index"), nil },
		LogFile:  logf,
		Agent:    AgentOptions{Config: config.Options{UserFile: "-"}},
	})
	return srv.Serve(context.Background(), jsonrpc2.NewStream(stdioRWC{}))
}

type stdioRWC struct{}

func (stdioRWC) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdioRWC) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdioRWC) Close() error                { return os.Stdin.Close() }

// nvimRun describes one headless Neovim run of a Lua test script.
type nvimRun struct {
	script string   // the Lua script, relative to the package directory
	root   string   // the fixture workspace ($PARLEY_ROOT)
	env    []string // more environment for Neovim, "K=V"
	// detail, if set, adds to the failure message (e.g. what a fake
	// model API received).
	detail func() string
}

// runNeovim runs headless Neovim (--clean, no swap file) with r.script,
// the test binary as the language server ($PARLEY_CMD) and
// $PARLEY_RESULT for the script's verdict, within 90 s. It fails the test
// unless the script wrote "ok" and Neovim exited cleanly; the message
// holds the verdict, Neovim's output and the server log. It returns the
// server's data directory (serve.log, index). Without nvim the test is
// skipped, or fails under CI.
func runNeovim(t *testing.T, r nvimRun) (data string) {
	t.Helper()
	nvim := nvimtest.Path(t)
	data = t.TempDir()
	result := filepath.Join(data, "result")
	script, err := filepath.Abs(r.script)
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Env = append(nvimtest.CleanEnv(), "PARLEY_ROOT="+r.root, "PARLEY_CMD="+self, "PARLEY_RESULT="+result,
		"PARLEY_TEST_DATA="+data, "XDG_STATE_HOME="+data, "XDG_DATA_HOME="+data, "XDG_CACHE_HOME="+data)
	cmd.Env = append(cmd.Env, r.env...)
	// Registered after t.TempDir, so it runs before the directory is
	// removed: the server Neovim started may still be closing its store.
	t.Cleanup(func() { nvimtest.AwaitServersGone(t, "PARLEY_TEST_DATA="+data) })
	out, runErr := cmd.CombinedOutput()
	got, _ := os.ReadFile(result)
	if strings.TrimSpace(string(got)) != "ok" || runErr != nil {
		var more string
		if r.detail != nil {
			more = "\n" + r.detail()
		}
		t.Fatalf("neovim (%s): %v\nresult: %s\noutput: %s%s\nserver log:\n%s", r.script, runErr, got, out, more, nvimtest.ServerLog(data))
	}
	return data
}

// TestNeovimE2E: headless Neovim attaches to the server on a fixture
// workspace, asks for workspace symbols, a definition, references and a
// hover, edits the buffer and finds the new symbol (testdata/nvim_e2e.lua).
func TestNeovimE2E(t *testing.T) {
	runNeovim(t, nvimRun{script: "testdata/nvim_e2e.lua", root: fixture.Workspace(t, "shop")})
}
