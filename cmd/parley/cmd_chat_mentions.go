package main

// @-mentions in parley chat: the message's inline mentions (@path,
// @Symbol, @diagnostics, @changes, @url:ADDR) expanded by package
// mentions before the turn, each shown as a dim line, and Tab after "@"
// at the prompt completing paths and the special mentions.

import (
	"context"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/mentions"
)

// withMentions returns msg with the context of its mentions appended,
// and prints a line per mention.
func (app *chatApp) withMentions(ctx context.Context, msg string) string {
	return expandMentions(ctx, app.agent, app.session, msg, app.out.mention)
}

// expandMentions returns msg with the context of its mentions appended,
// read through a's tools for the next turn of s (so the ledger and the
// permission policy see them), and shows each with show. parley loop
// uses it for its prompts.
func expandMentions(ctx context.Context, a *agent.Agent, s *agent.Session, msg string, show func(mentions.Report)) string {
	if len(mentions.Parse(msg)) == 0 {
		return msg
	}
	r := &mentions.Resolver{Tools: mentions.Tools{Agent: a, Session: s}}
	extra, reports := r.Expand(ctx, msg, nil)
	for _, rep := range reports {
		show(rep)
	}
	return msg + extra
}

// mentionLine is how an expanded mention is shown: "@label · N tokens",
// or its error.
func mentionLine(r mentions.Report) string {
	if r.Error != "" {
		return fmt.Sprintf("@%s: %s", r.Label, firstLineOf(r.Error))
	}
	return fmt.Sprintf("@%s · %d tokens", r.Label, r.Tokens)
}

// mention prints one expanded mention, dim.
func (p *chatPrinter) mention(r mentions.Report) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.stderr, p.dimmed(mentionLine(r)))
}

// completeInput is the prompt's Tab: a /command at the start of the
// line, else the mention word before the cursor.
func (app *chatApp) completeInput(line string, pos int, key rune) (string, int, bool) {
	if strings.HasPrefix(line, "/") {
		return app.completeSlash(line, pos, key)
	}
	return app.completeMention(line, pos, key)
}

// completeMention completes the "@word" that ends at the cursor from the
// index's files and the special mentions (mentions.Complete).
func (app *chatApp) completeMention(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' || pos > len(line) {
		return "", 0, false
	}
	start := strings.LastIndexAny(line[:pos], " \t") + 1
	word, ok := strings.CutPrefix(line[start:pos], "@")
	if !ok {
		return "", 0, false
	}
	var roots []mentions.Root
	if app.index != nil {
		roots = append(roots, mentions.Root{Dir: app.root, Store: app.index})
	}
	c, ok := mentions.Complete(roots, word)
	if !ok {
		return "", 0, false
	}
	out := line[:start] + "@" + c + line[pos:]
	return out, start + 1 + len(c), true
}
