package prompts

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/parleyhq/parley/tools"
)

// maxShellOutput caps what one shell line puts in the prompt.
const maxShellOutput = 16 << 10

// runShell runs one shell line in dir: `sh -c line /name args...`, so the
// arguments are the shell's $1... and "$@" and never part of the command
// text, with $ARGUMENTS in the environment. It returns the output for the
// prompt (stdout and stderr as they came, capped) and a note for the user
// when the line failed.
func runShell(ctx context.Context, dir, name, line, args string, words []string, timeout time.Duration) (string, string) {
	if timeout <= 0 {
		timeout = DefaultShellTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "sh", append([]string{"-c", line, "/" + name}, words...)...)
	cmd.Dir = dir
	cmd.Env = append(childEnv(), "ARGUMENTS="+args)
	var out capped
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		// Background children are not left running either.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	text := strings.TrimRight(out.String(), "\n")
	if out.cut {
		text += fmt.Sprintf("\n[output cut at %d bytes]", maxShellOutput)
	}
	var note string
	switch {
	case tctx.Err() != nil && ctx.Err() == nil:
		note = fmt.Sprintf("/%s: `%s` timed out after %s", name, line, timeout)
		text += fmt.Sprintf("\n[timed out after %s]", timeout)
	case err != nil:
		note = fmt.Sprintf("/%s: `%s`: %v", name, line, err)
		text += fmt.Sprintf("\n[%v]", err)
	}
	return text, note
}

// childEnv is ours without parley's credentials (tools.SecretEnv): the
// output goes to the model and the session, as a shell tool call's does.
func childEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !tools.SecretEnv(name) {
			out = append(out, kv)
		}
	}
	return out
}

// capped keeps the first maxShellOutput bytes written to it.
type capped struct {
	bytes.Buffer
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := maxShellOutput - c.Len()
	if room < len(p) {
		c.cut = true
	}
	if room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
