package tools

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// recordingRunner is a ShellRunner that answers with a fixed outcome and
// records the command it got.
type recordingRunner struct {
	got ShellCommand
	out ShellOutcome
	err error
}

func (r *recordingRunner) RunShell(_ context.Context, c ShellCommand) (ShellOutcome, error) {
	r.got = c
	return r.out, r.err
}

// TestShellThroughRunner: with Env.Shell set the command runs there, with
// the tool's directory, timeout and environment, and its outcome is
// reported like a local one.
func TestShellThroughRunner(t *testing.T) {
	env, root := shellTestEnv(t)
	for _, tc := range []struct {
		name string
		out  ShellOutcome
		want string
		err  bool
	}{
		{name: "exit", out: ShellOutcome{Output: "hello\n", ExitCode: 2}, want: "hello\n[exit code 2]"},
		{name: "signal", out: ShellOutcome{Output: "x", ExitCode: -1, Signal: "SIGKILL"}, want: "x\n[killed by signal: SIGKILL]"},
		{name: "timeout", out: ShellOutcome{TimedOut: true}, want: "(no output)\n[timed out after 7s", err: true},
		{name: "cancelled", out: ShellOutcome{Cancelled: true}, want: "(no output)\n[cancelled", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recordingRunner{out: tc.out}
			env.Shell = r
			res := runShellTool(t, env, ShellParams{Command: "make test", TimeoutSeconds: 7})
			if !strings.HasPrefix(res.Content, tc.want) || res.IsError != tc.err {
				t.Errorf("result %q (error %v), want prefix %q (error %v)", res.Content, res.IsError, tc.want, tc.err)
			}
			if r.got.Command != "make test" || r.got.Dir != root || r.got.Timeout != 7*time.Second {
				t.Errorf("command %+v", r.got)
			}
			if v, ok := r.got.Env["ANTHROPIC_API_KEY"]; !ok || v != "" || r.got.Env["GIT_PAGER"] != "cat" {
				t.Errorf("environment %v: parley's keys must be emptied, pagers off", r.got.Env)
			}
		})
	}
	env.Shell = &recordingRunner{err: errors.New("no terminal")}
	if _, err := runTool(context.Background(), shellTool, env, shellInput(t, ShellParams{Command: "ls"})); err == nil {
		t.Error("a failed runner is not an infrastructure error")
	}
}
