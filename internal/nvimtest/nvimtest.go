// Package nvimtest holds what the headless-Neovim tests of the language
// server (lsp) and of the Neovim plugin (editors/nvim) share: finding nvim
// under the CI policy, an environment that cannot point the editor or the
// server elsewhere, and reading the server's log for failure messages.
// It is for tests only.
package nvimtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/testenv"
)

// Path returns the nvim binary. Without one the test is skipped, or fails
// under CI=true (.ci/run installs Debian's neovim).
func Path(t testing.TB) string {
	t.Helper()
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		testenv.Need(t, "nvim not found; .ci/run installs Debian's neovim")
	}
	return nvim
}

// CleanEnv is the environment without settings that could point the
// server or Neovim somewhere else (the developer's keys, models, config,
// XDG directories, Neovim init files).
func CleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "PARLEY_"), strings.HasPrefix(k, "XDG_"),
			strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "OPENAI_"),
			strings.HasPrefix(k, "NVIM"), k == "VIMINIT", k == "MYVIMRC":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// ServerLog is the server's log (serve.log in its data directory), or why
// it cannot be read.
func ServerLog(data string) string {
	b, err := os.ReadFile(filepath.Join(data, "serve.log"))
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// AwaitServersGone waits (up to 15 s) until no process whose environment
// holds the entry marker ("PARLEY_TEST_DATA=DIR") runs: the servers
// Neovim started outlive it by the time they take to close their stores,
// and a test's temporary directory removed under them fails its cleanup
// ("directory not empty"). Where /proc cannot be read it returns at once.
func AwaitServersGone(t testing.TB, marker string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if !processWithEnv(marker) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("a process with %s still runs after 15 s", marker)
}

// processWithEnv reports whether another process has the environment
// entry marker (Linux's /proc; false elsewhere).
func processWithEnv(marker string) bool {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	self := strconv.Itoa(os.Getpid())
	want := []byte(marker + "\x00")
	for _, d := range dirs {
		if d.Name() == self || d.Name()[0] < '0' || d.Name()[0] > '9' {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", d.Name(), "environ"))
		if err == nil && bytes.Contains(env, want) {
			return true
		}
	}
	return false
}
