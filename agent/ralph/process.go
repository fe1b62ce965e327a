package ralph

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// KillGrace is how long a process group gets between SIGTERM and SIGKILL.
var KillGrace = 3 * time.Second

// procResult is how a child process ended.
type procResult struct {
	exitCode int // -1 when it did not exit on its own
	timedOut bool
	err      error // could not start, or stopped by ctx
}

// runProcess runs argv in dir in its own process group with stdin and
// out (stdout and stderr together). At timeout (0: none) or when ctx ends
// the group gets SIGTERM, then SIGKILL after KillGrace; once the process
// has exited, whatever it left in its group is killed too.
func runProcess(ctx context.Context, argv []string, dir string, stdin io.Reader, out io.Writer, timeout time.Duration) procResult {
	tctx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		tctx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(tctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = KillGrace
	err := cmd.Run()
	res := procResult{exitCode: -1}
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if cmd.ProcessState != nil {
		res.exitCode = cmd.ProcessState.ExitCode()
	}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.err = context.Cause(ctx)
	case tctx.Err() != nil:
		res.timedOut = true
	case errors.As(err, &ee) || errors.Is(err, exec.ErrWaitDelay):
	case err != nil:
		res.err = fmt.Errorf("run %s: %w", argv[0], err)
	}
	return res
}
