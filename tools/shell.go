package tools

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/shellcmd"
)

//go:embed desc/shell.md
var shellDescription string

const (
	// DefaultShellTimeout applies when neither the call nor the Env sets one.
	DefaultShellTimeout = 120 * time.Second
	// MaxShellTimeout caps every shell command.
	MaxShellTimeout = 300 * time.Second
)

// ShellParams is the input of the shell tool.
type ShellParams struct {
	Command        string `json:"command" jsonschema:"description=The command line, run with bash -c. Pipes, && and ; work."`
	TimeoutSeconds int    `json:"timeout_seconds,omitempty" jsonschema:"minimum=1,maximum=300,description=Kill the command after this many seconds (default 120, at most 300)."`
	Workdir        string `json:"workdir,omitempty" jsonschema:"description=Directory to run in, relative to the workspace root (default: the root)."`

	dir     string // absolute working directory
	timeout time.Duration
}

// shellTool runs a shell command in the workspace. Commands on the danger
// list (see package shellcmd) are refused when the call is prepared, so
// they never reach the permission prompt or Run.
var shellTool = New(
	Spec{Name: "shell", Description: shellDescription},
	shellAccess, shellRun)

// shellAccess parses and judges the command and resolves the working
// directory.
func shellAccess(env *Env, p *ShellParams) (access.Access, error) {
	if strings.TrimSpace(p.Command) == "" {
		return access.Access{}, inputErrorf("command is empty")
	}
	if strings.IndexByte(p.Command, 0) >= 0 {
		return access.Access{}, inputErrorf("command contains a NUL byte")
	}
	script, err := shellcmd.Parse(p.Command)
	if err != nil {
		return access.Access{}, inputErrorf("%v (the command must be valid bash syntax)", err)
	}
	if why := script.Danger(); why != "" {
		return access.Access{}, inputErrorf("refused: %s. The shell tool never runs this kind of command; do the task another way or ask the user to run it", why)
	}
	p.timeout = shellTimeout(env, p.TimeoutSeconds)
	if env == nil || env.Roots == nil {
		return access.Access{}, inputErrorf("no workspace roots are configured, so there is nowhere to run commands")
	}
	var rel string
	p.dir, rel, err = env.Resolve(p.Workdir)
	if err != nil {
		return access.Access{}, inputErrorf("workdir: %v", err)
	}
	fi, err := os.Stat(p.dir)
	if err != nil {
		return access.Access{}, inputErrorf("workdir %q: %v", p.Workdir, err)
	}
	if !fi.IsDir() {
		return access.Access{}, inputErrorf("workdir %q is not a directory", p.Workdir)
	}
	summary := "run `" + clipText(p.Command, 200) + "`"
	if rel != "." {
		summary += " in " + rel
	}
	return access.Access{Kind: access.Shell, Command: p.Command, Summary: summary}, nil
}

// shellTimeout picks the call's timeout, else the Env's, else the default,
// never above MaxShellTimeout.
func shellTimeout(env *Env, seconds int) time.Duration {
	d := DefaultShellTimeout
	if env != nil && env.ShellTimeout > 0 {
		d = env.ShellTimeout
	}
	if seconds > 0 {
		d = time.Duration(seconds) * time.Second
	}
	return min(d, MaxShellTimeout)
}

func shellRun(ctx context.Context, env *Env, p *ShellParams) (*Result, error) {
	var stream func(string)
	if env.Output != nil {
		stream = func(chunk string) { env.Output("shell", chunk) }
	}
	var res shellOutcome
	var err error
	if env.Shell != nil {
		res, err = runShellWith(ctx, env.Shell, p)
	} else {
		res, err = execShell(ctx, p.Command, p.dir, p.timeout, stream)
	}
	if err != nil {
		return nil, err
	}
	r := shellResult(res, p.timeout)
	r.Content += unsavedNote(env)
	return r, nil
}

// unsavedNote tells the model which files the command could not see as
// the editor holds them.
func unsavedNote(env *Env) string {
	if env.Unsaved == nil {
		return ""
	}
	paths := env.Unsaved()
	if len(paths) == 0 {
		return ""
	}
	rels := make([]string, len(paths))
	for i, p := range paths {
		rels[i] = p
		if _, _, rel, err := env.Roots.Resolve(p); err == nil {
			rels[i] = rel
		}
	}
	return "\n[note: these files have unsaved changes in the editor that this command did not see (it reads the disk): " +
		strings.Join(rels, ", ") + "; ask the user to save them if the command needs them]"
}

// shellResult formats the output and how the command ended.
func shellResult(res shellOutcome, timeout time.Duration) *Result {
	var b strings.Builder
	b.WriteString(res.output)
	if res.output != "" && !strings.HasSuffix(res.output, "\n") {
		b.WriteByte('\n')
	}
	if res.output == "" {
		b.WriteString("(no output)\n")
	}
	r := &Result{}
	switch {
	case res.timedOut:
		fmt.Fprintf(&b, "[timed out after %s: the command and everything it started were killed; raise timeout_seconds (max 300) or run less at once]", timeout)
		r.IsError = true
	case res.cancelled:
		b.WriteString("[cancelled: the command and everything it started were killed]")
		r.IsError = true
	case res.signal != "":
		fmt.Fprintf(&b, "[killed by signal: %s]", res.signal)
	default:
		fmt.Fprintf(&b, "[exit code %d]", res.exitCode)
	}
	if res.leftovers && !res.timedOut && !res.cancelled {
		b.WriteString("\n[background processes it left running were terminated]")
	}
	r.Content = b.String()
	return r
}
