package acp

import (
	"context"
	"errors"
	"slices"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/agent/prompts"
)

// advertiseDelay lets session/new's response reach the client before the
// first available_commands_update, which names the session it creates.
const advertiseDelay = 100 * time.Millisecond

// promptCommands reads the workspace's prompt command files again (a
// directory or two: cheap enough for every prompt, so an edited file
// counts at once). ACP has no built-in commands of parley's to protect.
func (ss *session) promptCommands() *prompts.Set {
	return prompts.Load(prompts.Dirs(ss.ws.Roots.Paths()...))
}

// availableCommands is the set as ACP advertises it.
func availableCommands(set *prompts.Set) []sdk.AvailableCommand {
	out := []sdk.AvailableCommand{}
	for _, c := range set.List() {
		ac := sdk.AvailableCommand{Name: c.Name, Description: c.Description}
		if c.ArgumentHint != "" {
			ac.Input = &sdk.AvailableCommandInput{Unstructured: &sdk.UnstructuredCommandInput{Hint: c.ArgumentHint}}
		}
		out = append(out, ac)
	}
	return out
}

// advertise sends available_commands_update when the commands differ
// from what the client was last told (always the first time).
func (ss *session) advertise(ctx context.Context, set *prompts.Set) {
	cmds := availableCommands(set)
	ss.mu.Lock()
	// A workspace without commands is not advertised until it has some.
	same := (ss.advertised == nil && len(cmds) == 0) || (ss.advertised != nil && slices.EqualFunc(ss.advertised, cmds, sameCommand))
	if !same {
		ss.advertised = cmds
	}
	ss.mu.Unlock()
	if same {
		return
	}
	for _, p := range set.Problems {
		ss.srv.opts.Warn(errors.New(p))
	}
	ss.update(ctx, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{AvailableCommands: cmds}})
}

func sameCommand(a, b sdk.AvailableCommand) bool {
	hint := func(c sdk.AvailableCommand) string {
		if c.Input == nil || c.Input.Unstructured == nil {
			return ""
		}
		return c.Input.Unstructured.Hint
	}
	return a.Name == b.Name && a.Description == b.Description && hint(a) == hint(b)
}

// advertiseLater advertises the commands of a new session once its
// response is on its way.
func (ss *session) advertiseLater(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	go func() {
		time.Sleep(advertiseDelay)
		ss.advertise(ctx, ss.promptCommands())
	}()
}

// expandCommand makes a prompt "/NAME args" that names a prompt command
// into its message and the agent of its turn. ok is false for any other
// prompt; a refused command (shell lines not approved, arguments that
// do not split) is said to the user as the turn's answer.
func (ss *session) expandCommand(ctx context.Context, a *agent.Agent, msg string) (_ *agent.Agent, prompt string, ok bool) {
	set := ss.promptCommands()
	ss.advertise(ctx, set)
	name, args, isCmd := prompts.Invocation(msg)
	c := set.Lookup(name)
	if !isCmd || c == nil {
		return a, msg, false
	}
	x, err := c.Expand(ctx, prompts.Options{Args: args, Dir: ss.ws.Roots.Paths()[0], Read: mentions.ToolReader(a, ss.s)})
	if err != nil {
		ss.update(ctx, sdk.UpdateAgentMessageText("parley: "+err.Error()+"\n"))
		return a, "", true
	}
	turn := x.Agent(a)
	for _, n := range x.Notes {
		ss.update(ctx, sdk.UpdateAgentThoughtText("[parley] "+n+"\n"))
	}
	return turn, x.Prompt, true
}
