package main

// @-mentions in parley chat: the message's inline mentions (@path,
// @Symbol, @diagnostics, @changes, @url:ADDR) expanded by package
// mentions before the turn, each shown as a dim line, and Tab after "@"
// at the prompt completing paths and the special mentions.

import (
	"context"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/mentions"
)

// withMentions returns msg with the context of its mentions appended
// (read through the agent's tools, so the ledger and the permission
// policy see them), and prints a line per mention.
func (app *chatApp) withMentions(ctx context.Context, msg string) string {
	if len(mentions.Parse(msg)) == 0 {
		return msg
	}
	r := &mentions.Resolver{Tools: mentions.Tools{Agent: app.agent, Session: app.session}}
	extra, reports := r.Expand(ctx, msg, nil)
	for _, rep := range reports {
		app.out.mention(rep)
	}
	return msg + extra
}

// mention prints one expanded mention: "@label · N tokens", or its error.
func (p *chatPrinter) mention(r mentions.Report) {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("@%s · %d tokens", r.Label, r.Tokens)
	if r.Error != "" {
		line = fmt.Sprintf("@%s: %s", r.Label, firstLineOf(r.Error))
	}
	fmt.Fprintln(p.stderr, p.dimmed(line))
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
