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
		err = memoryList(w, set, rest)
	case "search":
		err = memorySearch(w, set, rest)
	case "show":
		var m memory.Memory
		if m, err = set.Get(rest); err == nil {
			fmt.Fprint(w, memory.FormatDetail(memory.Hit{Memory: m, Stale: set.Stale(m)}))
		}
	case "edit":
		err = memoryEdit(w, set, rest)
	case "forget":
		var m memory.Memory
		if m, err = set.Forget(rest); err == nil {
			fmt.Fprintf(w, "forgot %s\n", memory.FormatLine(m))
		}
	case "stale":
		err = memoryStale(w, set)
	case "stats":
		memoryStats(w, set)
	default:
		err = fmt.Errorf("unknown subcommand %q; /memory help lists them", sub)
	}
	if err != nil {
		fmt.Fprintln(w, "memory:", err)
	}
}

func memoryList(w io.Writer, set *memory.Set, typ string) error {
	var types []memory.Type
	if typ != "" {
		t, err := memory.ParseType(typ)
		if err != nil {
			return err
		}
		types = append(types, t)
	}
	list, err := set.List(types...)
	if err != nil {
		return err
	}
	printMemories(w, list)
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
	m, err := set.Get(ref)
	if err != nil {
		return err
	}
	m.Content = text
	if m, err = set.Update(ref, m); err != nil {
		return err
	}
	fmt.Fprintf(w, "edited %s\n", memory.FormatLine(m))
	return nil
}

func memoryStats(w io.Writer, set *memory.Set) {
	for _, st := range []*memory.Store{set.Workspace, set.User} {
		if st == nil {
			continue
		}
		list, err := st.List()
		if err != nil {
			fmt.Fprintf(w, "%s memories: %v\n", st.Scope(), err)
			continue
		}
		byType := map[memory.Type]int{}
		for _, m := range list {
			byType[m.Type]++
		}
		var parts []string
		for _, t := range memory.Types {
			if byType[t] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", byType[t], t))
			}
		}
		fmt.Fprintf(w, "%s memories: %d (%s) in %s\n", st.Scope(), len(list), strings.Join(parts, ", "), st.Dir())
	}
	if set.Workspace == nil {
		fmt.Fprintln(w, "workspace memories: unavailable")
	}
	if set.User == nil {
		fmt.Fprintln(w, "user memories: unavailable")
	}
}

func memoryStale(w io.Writer, set *memory.Set) error {
	stale, err := set.ListStale()
	if err != nil {
		return err
	}
	writeHits(w, stale, "no stale memories")
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
