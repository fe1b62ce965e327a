package main

import (
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/tools/ledger"
)

// tokenKinds orders the ledger's answer kinds in reports.
var tokenKinds = []string{"full", "unchanged", "diff", "certificate"}

// sessionTokens is one session's token report (parley stats --tokens
// --json prints an array of them).
type sessionTokens struct {
	Session string                   `json:"session"`
	Title   string                   `json:"title,omitempty"`
	Usage   provider.Usage           `json:"usage"`
	Reads   map[string]mechanismJSON `json:"reads"`
	Total   mechanismJSON            `json:"reads_total"`
}

type mechanismJSON struct {
	Reads    int `json:"reads"`
	Sent     int `json:"sent"`
	Baseline int `json:"baseline"`
	Saved    int `json:"saved"`
}

func toMechanismJSON(m ledger.Mechanism) mechanismJSON {
	return mechanismJSON{Reads: m.Reads, Sent: m.Sent, Baseline: m.Baseline, Saved: m.Saved()}
}

func newSessionTokens(id, title string, usage provider.Usage, st ledger.Stats) sessionTokens {
	out := sessionTokens{Session: id, Title: title, Usage: usage, Reads: map[string]mechanismJSON{}, Total: toMechanismJSON(st.Total())}
	for k, m := range st.ByKind {
		out.Reads[k] = toMechanismJSON(m)
	}
	return out
}

// printTokens writes a session's report for a person.
func printTokens(w io.Writer, s sessionTokens) {
	title := ""
	if s.Title != "" {
		title = "  " + s.Title
	}
	fmt.Fprintf(w, "session %s%s\n", s.Session, title)
	u := s.Usage
	fmt.Fprintf(w, "  model:  %d in (cache read %d, write %d), %d out\n", u.InputTokens, u.CacheReadTokens, u.CacheWriteTokens, u.OutputTokens)
	t := s.Total
	fmt.Fprintf(w, "  reads:  %d, %d tokens sent for %d in full: %d saved (%s)\n", t.Reads, t.Sent, t.Baseline, t.Saved, percent(t.Saved, t.Baseline))
	kinds := slices.Clone(tokenKinds)
	for _, k := range slices.Sorted(maps.Keys(s.Reads)) {
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	for _, k := range kinds {
		m, ok := s.Reads[k]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "    %-12s reads %4d  sent %8d  saved %8d\n", k, m.Reads, m.Sent, m.Saved)
	}
}

func percent(part, whole int) string {
	if whole == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(part)/float64(whole))
}

// runStatsTokens reports the tokens of one session (ref: an ID, a unique
// prefix or "last") or of every session of the workspace.
func runStatsTokens(g *globals, ref string) error {
	root, err := g.workspaceRoot()
	if err != nil {
		return err
	}
	st, err := g.openSessions(root)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.List()
	if err != nil {
		return err
	}
	if ref != "" {
		id, err := (&chatApp{g: g, sessions: st}).findSession(ref)
		if err != nil {
			return err
		}
		list = slices.DeleteFunc(list, func(si agent.SessionInfo) bool { return si.ID != id })
	}
	out := []sessionTokens{}
	for _, si := range list {
		l, err := st.OpenLedger(si.ID)
		if err != nil {
			return err
		}
		out = append(out, newSessionTokens(si.ID, si.Title, si.Usage, l.Stats()))
	}
	if g.json {
		return writeJSON(g.stdout, out)
	}
	if len(out) == 0 {
		fmt.Fprintln(g.stdout, "no sessions")
	}
	for _, s := range out {
		printTokens(g.stdout, s)
	}
	return nil
}
