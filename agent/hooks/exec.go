package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// maxOutput caps what is kept of a hook's stdout and of its stderr.
const maxOutput = 1 << 20

// waitDelay bounds the wait for a hook's pipes after it exited or was
// killed: a background child may still hold them open.
const waitDelay = 2 * time.Second

// execResult is how one hook command ended.
type execResult struct {
	stdout, stderr []byte
	exitCode       int // -1 when killed or not started
	timedOut       bool
	err            error // could not start, or killed by a signal
}

// execHook runs command with `sh -c` in dir, in its own process group,
// input on stdin. At the timeout or when ctx ends, the whole group is
// killed with SIGKILL: a hook is a short check, and one that hangs
// gets no grace period to ignore.
func execHook(ctx context.Context, command, dir string, env []string, input []byte, timeout time.Duration) execResult {
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, "sh", "-c", command)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = bytes.NewReader(input)
	stdout, stderr := &capped{}, &capped{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = waitDelay
	err := cmd.Run()
	res := execResult{stdout: stdout.Bytes(), stderr: stderr.Bytes(), exitCode: -1}
	if cmd.ProcessState != nil {
		res.exitCode = cmd.ProcessState.ExitCode()
		// Background children of a hook that exited are not ours to
		// keep either.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	var ee *exec.ExitError
	switch {
	case tctx.Err() != nil && ctx.Err() == nil:
		res.timedOut = true
	case ctx.Err() != nil:
		res.err = context.Cause(ctx)
	case errors.As(err, &ee) && res.exitCode >= 0:
		// An exit status: the caller reads it.
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		res.err = fmt.Errorf("run hook: %w", err)
	}
	return res
}

// capped is a bytes.Buffer that keeps the first maxOutput bytes and
// discards the rest, so a chatty hook cannot exhaust memory.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
