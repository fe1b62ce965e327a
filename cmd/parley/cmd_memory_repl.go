package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/parleyhq/parley/memory"
)

const memoryHelp = `/memory commands (ids: 12 for a workspace memory, u12 for a user memory):
  /memory list [TYPE]     every memory, or those of one type
  /memory search WORDS    memories matching the words, best first
  /memory show ID         one memory in full
  /memory edit ID TEXT    replace a memory's text
  /memory forget ID       delete a memory
  /memory stale           memories whose anchored files or symbols changed
                          (review: edit them to confirm, or forget them)
  /memory stats           how many memories of each type, and where they live
`

// memoryCommand runs /memory SUB ARGS in the REPL.
func (app *chatApp) memoryCommand(arg string) {
	w := app.g.stderr
	set := app.agent.Env.Memory
	sub, rest, _ := strings.Cut(arg, " ")
	rest = strings.TrimSpace(rest)
	if set == nil || (set.Workspace == nil && set.User == nil) {
		if sub != "" && sub != "help" {
			fmt.Fprintln(w, "memory: unavailable in this chat (its stores could not be opened)")
			return
		}
	}
	var err error
	switch sub {
	case "", "help":
		fmt.Fprint(w, memoryHelp)
	case "list":
		err = memoryList(w, set, rest, false)
	case "search":
		err = memorySearch(w, set, rest)
	case "show":
		var h memory.Hit
		if h, err = set.Show(rest); err == nil {
			fmt.Fprint(w, memory.FormatDetail(h))
		}
	case "edit":
		err = memoryEdit(w, set, rest)
	case "forget":
		var m memory.Memory
		if m, err = set.Forget(rest); err == nil {
			fmt.Fprintf(w, "forgot %s\n", memory.FormatLine(m))
		}
	case "stale":
		err = memoryList(w, set, "", true)
	case "stats":
		err = memoryStats(w, set)
	default:
		err = fmt.Errorf("unknown subcommand %q; /memory help lists them", sub)
	}
	if err != nil {
		fmt.Fprintln(w, "memory:", err)
	}
}

func memoryList(w io.Writer, set *memory.Set, typ string, stale bool) error {
	f := memory.Filter{Stale: stale}
	if typ != "" {
		t, err := memory.ParseType(typ)
		if err != nil {
			return err
		}
		f.Types = append(f.Types, t)
	}
	list, err := set.Select(f)
	if err != nil {
		return err
	}
	none := "no memories"
	if stale {
		none = "no stale memories"
	}
	writeHits(w, list, none)
	return nil
}

func memorySearch(w io.Writer, set *memory.Set, query string) error {
	if query == "" {
		return fmt.Errorf("usage: /memory search WORDS")
	}
	hits, err := set.Recall(query, 10)
	if err != nil {
		return err
	}
	if n := set.Notice(); n != "" {
		fmt.Fprintln(w, n)
	}
	writeHits(w, hits, "no memory matches")
	return nil
}

func memoryEdit(w io.Writer, set *memory.Set, arg string) error {
	ref, text, _ := strings.Cut(arg, " ")
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("usage: /memory edit ID TEXT")
	}
	m, err := set.Edit(ref, memory.Edit{Content: &text})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "edited %s\n", memory.FormatLine(m))
	return nil
}

func memoryStats(w io.Writer, set *memory.Set) error {
	stats, err := set.Stats()
	if err != nil {
		return err
	}
	for _, st := range stats {
		fmt.Fprintln(w, memory.FormatStats(st))
	}
	return nil
}

// writeHits prints memories as recall shows them, or none when there are
// none (the CLI and the REPL alike).
func writeHits(w io.Writer, hits []memory.Hit, none string) {
	if len(hits) == 0 {
		fmt.Fprintln(w, none)
	}
	for _, h := range hits {
		fmt.Fprintln(w, memory.FormatHit(h))
	}
}
