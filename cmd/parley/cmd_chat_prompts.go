package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/agent/prompts"
	"github.com/parleyhq/parley/agent/provider"
)

// replBuiltins are the REPL's own commands, which no prompt command file
// may shadow.
var replBuiltins = []string{"help", "undo", "sessions", "resume", "delete", "new", "model", "image", "cost", "lsp", "memory", "compact", "quit", "exit"}

// promptCommands reads the prompt command files again (cheap: a directory
// or two), so a file added or edited while the chat runs counts at once.
// A problem with a file is shown once per chat.
func (app *chatApp) promptCommands() *prompts.Set {
	set := prompts.Load(prompts.Dirs(app.root), replBuiltins...)
	if app.warned == nil {
		app.warned = map[string]bool{}
	}
	for _, p := range set.Problems {
		if !app.warned[p] {
			app.warned[p] = true
			fmt.Fprintln(app.g.stderr, "parley:", p)
		}
	}
	return set
}

// printPromptCommands is /help's list of prompt commands.
func printPromptCommands(w io.Writer, set *prompts.Set) {
	list := set.List()
	if len(list) == 0 {
		fmt.Fprintln(w, "\nNo prompt commands: add Markdown files to .parley/commands/ (see docs/agent.md).")
		return
	}
	fmt.Fprintln(w, "\nPrompt commands (.parley/commands/ and your config directory's parley/commands/):")
	var ap *hooks.Approvals
	if path, err := hooks.DefaultApprovalsFile(); err == nil {
		ap, _ = hooks.OpenApprovals(path) // unreadable: every workspace shell line shows as waiting
	}
	for _, c := range list {
		head := "/" + c.Name
		if c.ArgumentHint != "" {
			head += " " + c.ArgumentHint
		}
		var tags []string
		tags = append(tags, string(c.Source))
		if c.Model != "" {
			tags = append(tags, "model "+c.Model)
		}
		if len(c.AllowedTools) > 0 {
			tags = append(tags, "tools "+strings.Join(c.AllowedTools, ", "))
		}
		if n := len(c.ShellLines()); n > 0 {
			tags = append(tags, fmt.Sprintf("runs %d shell line(s)", n))
		}
		if c.NeedsApproval(ap) {
			tags = append(tags, "not approved: parley commands approve")
		}
		fmt.Fprintf(w, "  %-22s %s (%s)\n", head, c.Description, strings.Join(tags, "; "))
	}
}

// send runs one message: a prompt command when it names one, else the
// message with its @-mentions' context (cmd_chat_mentions.go).
func (app *chatApp) send(ctx context.Context, msg string) (*agent.TurnResult, error) {
	if name, args, ok := prompts.Invocation(msg); ok {
		if c := app.promptCommands().Lookup(name); c != nil {
			return app.runPromptCommand(ctx, c, args)
		}
	}
	return app.turn(ctx, app.withMentions(ctx, msg))
}

// promptCommand runs line as a prompt command; false when it names none.
func (app *chatApp) promptCommand(line string) bool {
	name, args, ok := prompts.Invocation(line)
	if !ok {
		return false
	}
	c := app.promptCommands().Lookup(name)
	if c == nil {
		return false
	}
	ctx, stop := signalContext()
	defer stop()
	if _, err := app.runPromptCommand(ctx, c, args); err != nil {
		fmt.Fprintln(app.g.stderr, "parley:", err)
	}
	return true
}

// runPromptCommand expands c and runs the turn it makes, with the
// command's model and tools for that turn only.
func (app *chatApp) runPromptCommand(ctx context.Context, c *prompts.Command, args string) (*agent.TurnResult, error) {
	x, err := c.Expand(ctx, prompts.Options{Args: args, Dir: app.root, Read: mentions.ToolReader(app.agent, app.session)})
	if err != nil {
		return nil, err
	}
	app.refreshTools(ctx)
	app.focusPrompt(x.Prompt)
	a := x.Agent(app.agent)
	app.out.promptExpanded(x, a.Model != app.agent.Model, a.Registry != app.agent.Registry)
	res, err := a.Run(ctx, app.session, x.Prompt)
	app.gate.EndTurn()
	app.out.endTurn(res)
	app.out.usage(res, app.session.Usage, provider.ContextWindow(a.Model, app.cfg.ContextWindow))
	if err != nil {
		return res, app.explain(err)
	}
	return res, nil
}

// promptExpanded says on stderr what a prompt command put in the message
// and what it changed for the turn.
func (p *chatPrinter) promptExpanded(x *prompts.Expansion, model, tools bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLine()
	var what []string
	if len(x.Files) > 0 {
		what = append(what, "attached "+strings.Join(x.Files, ", "))
	}
	if len(x.Ran) > 0 {
		what = append(what, fmt.Sprintf("ran %d shell line(s)", len(x.Ran)))
	}
	if model {
		what = append(what, "model "+x.Command.Model)
	}
	if tools {
		what = append(what, "tools limited by allowed-tools")
	}
	line := "▸ /" + x.Command.Name
	if len(what) > 0 {
		line += ": " + strings.Join(what, "; ")
	}
	fmt.Fprintln(p.stderr, line)
	for _, n := range x.Notes {
		fmt.Fprintf(p.stderr, "  ! %s\n", n)
	}
}

// completeSlash completes "/NA" to "/NAME " on Tab at the prompt, over
// the built-in and prompt commands (or to their longest common prefix
// when several match).
func (app *chatApp) completeSlash(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' || !strings.HasPrefix(line, "/") || pos != len(line) || strings.ContainsAny(line, " \t") {
		return "", 0, false
	}
	var names []string
	for _, b := range replBuiltins {
		if b != "quit" && b != "exit" { // typed without a slash
			names = append(names, b)
		}
	}
	for _, c := range app.promptCommands().List() {
		names = append(names, c.Name)
	}
	return completeName(line, names)
}

// completeName is completeSlash's answer for the names.
func completeName(line string, names []string) (string, int, bool) {
	prefix := strings.TrimPrefix(line, "/")
	var match []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			match = append(match, n)
		}
	}
	switch len(match) {
	case 0:
		return "", 0, false
	case 1:
		out := "/" + match[0] + " "
		return out, len(out), true
	}
	common := match[0]
	for _, m := range match[1:] {
		for !strings.HasPrefix(m, common) {
			common = common[:len(common)-1]
		}
	}
	out := "/" + common
	return out, len(out), len(common) > len(prefix)
}
