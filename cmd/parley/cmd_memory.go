package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

// openMemoryStrict opens the workspace and user memory stores for a CLI
// command; unlike a chat, a command fails when one cannot be opened (a
// store of another schema version, an unwritable directory). The
// caller must call the returned close.
func openMemoryStrict(g *globals) (_ *memory.Set, close func() error, err error) {
	root, err := g.workspaceRoot()
	if err != nil {
		return nil, nil, err
	}
	storeDir, err := g.storeDir(root)
	if err != nil {
		return nil, nil, err
	}
	wsPath, userPath, err := g.memoryDirs(filepath.Dir(storeDir))
	if err != nil {
		return nil, nil, err
	}
	set := &memory.Set{}
	if set.Workspace, err = memory.Open(wsPath, memory.Workspace); err != nil {
		return nil, nil, err
	}
	if set.User, err = memory.Open(userPath, memory.User); err != nil {
		set.Close()
		return nil, nil, err
	}
	roots, err := workspace.NewRoots(root)
	if err != nil {
		set.Close()
		return nil, nil, err
	}
	env := &tools.Env{Roots: roots, Files: &tools.DiskView{}}
	// The index finds anchored symbols; without it (another process holds
	// it) symbol anchors go unjudged, file anchors still work.
	close = set.Close
	if st, err := nav.Open(storeDir); err == nil {
		ctx, stop := signalContext()
		err = ensureIndexed(ctx, g, st, root)
		stop()
		if err != nil {
			st.Close()
			set.Close()
			return nil, nil, err
		}
		env.Index = rootIndex{root: root, st: st}
		close = func() error { return errors.Join(set.Close(), st.Close()) }
	}
	set.Anchors = tools.AnchorHasher(env)
	if cfg, err := config.Load(config.Options{Workspace: root}); err != nil {
		fmt.Fprintf(g.stderr, "parley: memory search stays lexical: %v\n", err)
	} else if err := agent.ConfigureMemory(set, cfg); err != nil {
		fmt.Fprintf(g.stderr, "parley: memory search stays lexical: %v\n", err)
	}
	return set, close, nil
}

// withMemory runs f with the opened set and closes it.
func withMemory(g *globals, f func(*memory.Set) error) error {
	set, close, err := openMemoryStrict(g)
	if err != nil {
		return err
	}
	err = f(set)
	if cerr := close(); err == nil {
		err = cerr
	}
	return err
}

func parseTypes(names []string) ([]memory.Type, error) {
	var out []memory.Type
	for _, n := range names {
		t, err := memory.ParseType(n)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func newMemoryCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "memory",
		Short: "List, search, add, forget, export and import the agent's long-term memories",
	}
	cmd.AddCommand(newMemoryListCmd(g), newMemorySearchCmd(g), newMemoryAddCmd(g), newMemoryForgetCmd(g),
		newMemoryExportCmd(g), newMemoryImportCmd(g))
	return cmd
}

func newMemoryListCmd(g *globals) *cobra.Command {
	var types, tags []string
	var stale bool
	var scope string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List memories (workspace, then user), oldest first",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			ts, err := parseTypes(types)
			if err != nil {
				return err
			}
			f := memory.Filter{Types: ts, Scope: memory.Scope(scope), Tags: tags, Stale: stale}
			return withMemory(g, func(set *memory.Set) error {
				list, err := set.Select(f)
				if err != nil {
					return err
				}
				if g.json {
					return writeJSON(g.stdout, orEmpty(list))
				}
				none := "no memories"
				if stale {
					none = "no stale memories"
				}
				writeHits(g.stdout, list, none)
				return nil
			})
		},
	}
	cmd.Flags().StringSliceVar(&types, "type", nil, "only memories of these types")
	cmd.Flags().StringSliceVar(&tags, "tag", nil, "only memories carrying all these tags")
	cmd.Flags().StringVar(&scope, "scope", "", "only workspace or only user memories")
	cmd.Flags().BoolVar(&stale, "stale", false, "only memories whose anchored files or symbols changed since they were written, with why")
	cmd.Flags().BoolVar(&g.json, "json", false, "print JSON")
	return cmd
}

func newMemorySearchCmd(g *globals) *cobra.Command {
	var types []string
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search memories by words (BM25), best first",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			ts, err := parseTypes(types)
			if err != nil {
				return err
			}
			return withMemory(g, func(set *memory.Set) error {
				hits, err := set.Recall(args[0], g.limit, ts...)
				if err != nil {
					return err
				}
				if n := set.Notice(); n != "" {
					fmt.Fprintln(g.stderr, "parley: "+n)
				}
				if g.json {
					return writeJSON(g.stdout, orEmpty(hits))
				}
				writeHits(g.stdout, hits, "no memory matches")
				return nil
			})
		},
	}
	cmd.Flags().StringSliceVar(&types, "type", nil, "only memories of these types")
	addQueryFlags(cmd, g, 10)
	return cmd
}

func newMemoryAddCmd(g *globals) *cobra.Command {
	var m memory.Memory
	var typ, scope string
	var anchors []string
	cmd := &cobra.Command{
		Use:   "add TEXT",
		Short: "Add a memory",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			m.Content, m.Type, m.Scope = args[0], memory.Type(typ), memory.Scope(scope)
			for _, a := range anchors {
				path, sym, _ := strings.Cut(a, "#")
				m.Anchors = append(m.Anchors, memory.Anchor{Path: filepath.ToSlash(path), Symbol: sym})
			}
			return withMemory(g, func(set *memory.Set) error {
				added, err := set.Add(m)
				if err != nil {
					return err
				}
				fmt.Fprintf(g.stdout, "added %s\n", memory.Ref(added))
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&typ, "type", "fact", "fact, preference, decision, code_pattern, error_solution, project_context, instruction or note")
	f.IntVar(&m.Importance, "importance", memory.DefaultImportance, "1-10")
	f.StringSliceVar(&m.Tags, "tag", nil, "a tag (repeatable, or comma-separated)")
	f.StringArrayVar(&anchors, "anchor", nil, "a root-relative file, or FILE#SYMBOL, the memory is about (repeatable)")
	f.StringVar(&scope, "scope", "workspace", "workspace or user")
	return cmd
}

func newMemoryForgetCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "forget ID...",
		Short: "Delete memories (12, or u12 for a user memory)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return withMemory(g, func(set *memory.Set) error {
				for _, ref := range args {
					m, err := set.Forget(ref)
					if err != nil {
						return err
					}
					fmt.Fprintf(g.stdout, "forgot %s\n", memory.Ref(m))
				}
				return nil
			})
		},
	}
}

func newMemoryExportCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "export",
		Short: "Write every memory as JSON lines to stdout",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			return withMemory(g, func(set *memory.Set) error {
				list, err := set.List()
				if err != nil {
					return err
				}
				enc := json.NewEncoder(g.stdout)
				for _, m := range list {
					if err := enc.Encode(m); err != nil {
						return err
					}
				}
				return nil
			})
		},
	}
}

func newMemoryImportCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Add the memories of a JSON lines file (from export; - for stdin), with new ids",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			var r io.Reader = os.Stdin
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			return withMemory(g, func(set *memory.Set) error {
				n, err := importMemories(set, r)
				fmt.Fprintf(g.stdout, "imported %d memories\n", n)
				return err
			})
		},
	}
}

// importMemories adds each line's memory with a new id (times, scope and
// the rest kept), importBatch lines per write. It stops at the first bad
// line, naming it; the lines before it stay imported.
func importMemories(set *memory.Set, r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	n, line := 0, 0
	var batch []memory.Memory
	var lines []int
	add := func() error {
		k, err := set.AddAll(batch)
		n += k
		if err != nil && k < len(lines) {
			err = fmt.Errorf("line %d: %w", lines[k], err)
		}
		batch, lines = batch[:0], lines[:0]
		return err
	}
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var m memory.Memory
		if err := dec.Decode(&m); err != nil {
			return n, errors.Join(add(), fmt.Errorf("line %d: %w", line, err))
		}
		m.ID = 0
		batch, lines = append(batch, m), append(lines, line)
		if len(batch) == importBatch {
			if err := add(); err != nil {
				return n, err
			}
		}
	}
	if err := add(); err != nil {
		return n, err
	}
	return n, sc.Err()
}

// importBatch bounds the memories one import write holds.
const importBatch = 1000

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
