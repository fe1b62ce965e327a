// Package nvimtest holds what the headless-Neovim tests of the language
// server (lsp) and of the Neovim plugin (editors/nvim) share: finding nvim
// under the CI policy, an environment that cannot point the editor or the
// server elsewhere, and reading the server's log for failure messages.
// It is for tests only.
package nvimtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
