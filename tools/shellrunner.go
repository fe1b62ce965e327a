package tools

import (
	"context"
	"maps"
	"slices"
	"time"
)

// ShellRunner runs the shell tool's commands somewhere other than a local
// process group: in the editor's terminal, for an ACP client that offers
// terminals (package agent/acp). With Env.Shell set, the shell tool still
// parses, judges and asks about each command as always; only the running
// moves.
type ShellRunner interface {
	// RunShell runs cmd to its end, its timeout or ctx's cancellation
	// (then it stops the command) and reports how it ended. An error is
	// an infrastructure failure (the terminal could not be created).
	RunShell(ctx context.Context, cmd ShellCommand) (ShellOutcome, error)
}

// ShellCommand is one command for a ShellRunner.
type ShellCommand struct {
	Command string // a bash command line
	Dir     string // absolute working directory
	Timeout time.Duration
	// Env is what the command's environment must add or override (name to
	// value): the pager settings the shell tool always sets, and parley's
	// own credentials emptied, as the local shell leaves them out.
	Env map[string]string
}

// ShellOutcome is how a command run by a ShellRunner ended.
type ShellOutcome struct {
	Output    string // stdout and stderr, as the runner kept them
	ExitCode  int    // -1 when killed by a signal
	Signal    string
	TimedOut  bool
	Cancelled bool
}

// shellCommandEnv is the environment a ShellCommand sets.
func shellCommandEnv() map[string]string {
	env := map[string]string{"GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat"}
	for _, name := range slices.Sorted(maps.Keys(secretEnv)) {
		env[name] = ""
	}
	return env
}

// runShellWith runs p through r.
func runShellWith(ctx context.Context, r ShellRunner, p *ShellParams) (shellOutcome, error) {
	out, err := r.RunShell(ctx, ShellCommand{Command: p.Command, Dir: p.dir, Timeout: p.timeout, Env: shellCommandEnv()})
	if err != nil {
		return shellOutcome{}, err
	}
	return shellOutcome{
		output: out.Output, exitCode: out.ExitCode, signal: out.Signal,
		timedOut: out.TimedOut, cancelled: out.Cancelled,
	}, nil
}
