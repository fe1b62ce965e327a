package main

import (
	"fmt"

	"github.com/parleyhq/parley/agent"
)

// compactHelp is the /compact line of the REPL's help.
const compactHelp = "  /compact [FOCUS] summarise the conversation so far to free context\n"

// compact runs /compact [FOCUS]: the agent summarises the session so far,
// keeping its most recent messages; the sink prints what it did.
func (app *chatApp) compact(focus string) {
	ctx, stop := signalContext()
	defer stop()
	rec, err := app.agent.Compact(ctx, app.session, focus)
	switch {
	case err != nil:
		fmt.Fprintln(app.g.stderr, "compact:", err)
	case rec == nil:
		fmt.Fprintln(app.g.stderr, "nothing to compact yet")
	}
}

// compactionLine is the terminal's line for a compaction event.
func compactionLine(e agent.Event) string {
	return "⟳ " + e.Text + "\n"
}
