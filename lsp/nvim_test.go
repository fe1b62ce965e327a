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
)

// TestMain lets the test binary act as `parley serve` for a real editor:
// TestNeovimE2E starts Neovim with this binary as the server command.
func TestMain(m *testing.M) {
	if os.Getenv("PARLEY_LSP_TEST_SERVE") != "" {
		os.Exit(serveStdioForTest())
	}
	os.Exit(m.Run())
}

func serveStdioForTest() int {
	data := os.Getenv("PARLEY_TEST_DATA")
	logf, _ := os.Create(filepath.Join(data, "serve.log"))
	srv := New(Options{
		StoreDir: func(root string) (string, error) { return filepath.Join(data, "index"), nil },
		LogFile:  logf,
	})
	return srv.Serve(context.Background(), jsonrpc2.NewStream(stdioRWC{}))
}

type stdioRWC struct{}

func (stdioRWC) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdioRWC) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdioRWC) Close() error                { return os.Stdin.Close() }

// TestNeovimE2E: headless Neovim attaches to the server on a fixture
// workspace, asks for workspace symbols, a definition, references and a
// hover, edits the buffer and finds the new symbol (testdata/nvim_e2e.lua).
func TestNeovimE2E(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("nvim not found; .ci/run installs Debian's neovim")
		}
		t.Skip("nvim not installed")
	}
	root := loadTxtar(t, "testdata/basic.txtar")
	data := t.TempDir()
	result := filepath.Join(data, "result")
	script, _ := filepath.Abs("testdata/nvim_e2e.lua")
	self, _ := os.Executable()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+script)
	cmd.Env = append(os.Environ(), "PARLEY_ROOT="+root, "PARLEY_CMD="+self, "PARLEY_RESULT="+result,
		"PARLEY_TEST_DATA="+data, "XDG_STATE_HOME="+data, "XDG_DATA_HOME="+data, "XDG_CACHE_HOME="+data)
	out, runErr := cmd.CombinedOutput()
	got, _ := os.ReadFile(result)
	if strings.TrimSpace(string(got)) != "ok" || runErr != nil {
		logs, _ := os.ReadFile(filepath.Join(data, "serve.log"))
		t.Fatalf("neovim: %v\nresult: %s\noutput: %s\nserver log:\n%s", runErr, got, out, logs)
	}
}
