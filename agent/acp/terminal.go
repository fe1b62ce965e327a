package acp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/tools"
)

// terminalOutputLimit is the output a client terminal keeps for the model
// (the client drops the start beyond it), as much as the local shell keeps.
const terminalOutputLimit = 30 << 10

// terminalGrace bounds the requests that stop and release a terminal after
// the command's time is up or the prompt was cancelled.
const terminalGrace = 10 * time.Second

// clientShell runs the shell tool's commands in the client's terminals
// (terminal/create, wait_for_exit, output, kill, release), so the user
// watches them in the editor: the terminal is embedded in the tool call's
// content as soon as it exists.
type clientShell struct{ ss *session }

func (c *clientShell) RunShell(ctx context.Context, cmd tools.ShellCommand) (tools.ShellOutcome, error) {
	conn, sid := c.ss.srv.conn, c.ss.id()
	var env []sdk.EnvVariable
	for _, k := range slices.Sorted(maps.Keys(cmd.Env)) {
		env = append(env, sdk.EnvVariable{Name: k, Value: cmd.Env[k]})
	}
	// The create request is not cancelled with the prompt: a cancel that
	// arrived while the client was creating the terminal would drop its
	// ID, and the command would run on in the editor, never killed or
	// released. A cancelled prompt ends below, at the wait, with a kill.
	after, cancel := context.WithTimeout(context.WithoutCancel(ctx), terminalGrace)
	defer cancel()
	created, err := conn.CreateTerminal(after, sdk.CreateTerminalRequest{
		SessionId: sid, Command: "bash", Args: []string{"-c", cmd.Command},
		Cwd: sdk.Ptr(cmd.Dir), Env: env, OutputByteLimit: sdk.Ptr(terminalOutputLimit),
	})
	if err != nil {
		if ctx.Err() != nil {
			return tools.ShellOutcome{Cancelled: true, ExitCode: -1}, nil
		}
		return tools.ShellOutcome{}, fmt.Errorf("terminal/create: %w", err)
	}
	term := created.TerminalId
	if id := agent.ToolCallID(ctx); id != "" {
		ref := sdk.ToolTerminalRef(term)
		c.ss.addContent(id, ref)
		c.ss.update(ctx, sdk.UpdateToolCall(sdk.ToolCallId(id), sdk.WithUpdateContent([]sdk.ToolCallContent{ref})))
	}
	defer func() {
		if _, err := conn.ReleaseTerminal(after, sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: term}); err != nil {
			c.ss.srv.opts.Warn(fmt.Errorf("terminal/release %s: %w", term, err))
		}
	}()

	var out tools.ShellOutcome
	wctx, wcancel := context.WithTimeout(ctx, cmd.Timeout)
	exit, err := conn.WaitForTerminalExit(wctx, sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: term})
	wcancel()
	switch {
	case err == nil:
		out.ExitCode, out.Signal = exitOf(exit.ExitCode, exit.Signal)
	case ctx.Err() != nil || wctx.Err() != nil:
		out.Cancelled = ctx.Err() != nil
		out.TimedOut = !out.Cancelled
		out.ExitCode = -1
		if _, err := conn.KillTerminal(after, sdk.KillTerminalRequest{SessionId: sid, TerminalId: term}); err != nil {
			c.ss.srv.opts.Warn(fmt.Errorf("terminal/kill %s: %w", term, err))
		}
	default:
		return tools.ShellOutcome{}, fmt.Errorf("terminal/wait_for_exit: %w", err)
	}
	got, err := conn.TerminalOutput(after, sdk.TerminalOutputRequest{SessionId: sid, TerminalId: term})
	if err != nil {
		return tools.ShellOutcome{}, fmt.Errorf("terminal/output: %w", err)
	}
	out.Output = got.Output
	if got.Truncated {
		out.Output = fmt.Sprintf("[... earlier output dropped by the editor's terminal ...]\n%s", got.Output)
	}
	return out, nil
}

// exitOf reads a terminal's exit status: a signal makes the code -1.
func exitOf(code *int, signal *string) (int, string) {
	if signal != nil && *signal != "" {
		return -1, *signal
	}
	if code == nil {
		return -1, ""
	}
	return *code, ""
}
