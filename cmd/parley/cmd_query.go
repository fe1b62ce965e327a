package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/workspace"
)

// queryFunc runs one query against an opened, non-empty index.
type queryFunc func(st *index.Store, root string, args []string) error

// runQuery opens the store, indexes first when it is empty, and runs q.
func runQuery(g *globals, args []string, q queryFunc) error {
	st, root, err := g.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	ctx, stop := signalContext()
	defer stop()
	if err := ensureIndexed(ctx, g, st, root); err != nil {
		return err
	}
	return q(st, root, args)
}

func newSymbolsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "symbols QUERY",
		Short: "Search symbols by name (exact, prefix, camel-case, substring, fuzzy)",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runQuery(g, args, func(st *index.Store, _ string, args []string) error {
				hits, err := st.SearchSymbols(args[0], g.limit)
				if err != nil {
					return err
				}
				return printSymbols(g, hits)
			})
		},
	}
	addQueryFlags(cmd, g, 50)
	return cmd
}

func newDefsCmd(g *globals) *cobra.Command {
	var from string
	cmd := &cobra.Command{
		Use:   "defs NAME | FILE:LINE:COL",
		Short: "Show where NAME is defined (nearest to --from FILE first), or what the identifier at FILE:LINE:COL refers to, as the editor's go-to-definition answers",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runQuery(g, args, func(st *index.Store, root string, args []string) error {
				if pos, ok, err := parsePosition(st, root, args[0]); ok {
					if err != nil {
						return err
					}
					hits, err := nav.DefinitionSymbolsAt(st, pos.rel, pos.src, pos.off, pos.name, pos.read)
					if err != nil {
						return err
					}
					if g.limit > 0 && len(hits) > g.limit {
						hits = hits[:g.limit]
					}
					return printSymbols(g, hits)
				}
				hits, err := st.Definitions(args[0])
				if err != nil {
					return err
				}
				if from != "" {
					rel, err := fileArg(st, root, from)
					if err != nil {
						return err
					}
					ctx, err := st.DefinitionContext(rel)
					if err != nil {
						return err
					}
					index.SortDefinitions(hits, func(h index.SymbolHit) index.DefinitionRank { return ctx.Rank(h.Path) })
				}
				if g.limit > 0 && len(hits) > g.limit {
					hits = hits[:g.limit]
				}
				return printSymbols(g, hits)
			})
		},
	}
	addQueryFlags(cmd, g, 100)
	cmd.Flags().StringVar(&from, "from", "", "rank as seen from FILE: definitions in FILE, its directory and the files it imports first, as the editor's go-to-definition does")
	return cmd
}

func newRefsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "refs NAME | FILE:LINE:COL",
		Short: "List the occurrences of NAME; a qualified NAME naming one declaration (Type.Method, pkg.Func), or FILE:LINE:COL on a use of one, lists the references to it as the editor's find-references does",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runQuery(g, args, func(st *index.Store, root string, args []string) error {
				if pos, ok, err := parsePosition(st, root, args[0]); ok {
					if err != nil {
						return err
					}
					hits, _, err := nav.ReferencesAt(st, pos.rel, pos.src, pos.off, pos.name, g.limit, pos.read)
					if err != nil {
						return err
					}
					return printRefs(g, hits)
				}
				hits, _, err := nav.ReferencesTo(st, args[0], g.limit)
				if err != nil {
					return err
				}
				return printRefs(g, hits)
			})
		},
	}
	addQueryFlags(cmd, g, 1000)
	return cmd
}

// newFileQueryCmd builds a command whose single argument is a workspace
// file; q receives its path relative to the root.
func newFileQueryCmd(g *globals, name, short string, q func(st *index.Store, root, rel string) error) *cobra.Command {
	cmd := &cobra.Command{
		Use:   name + " FILE",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runQuery(g, args, func(st *index.Store, root string, args []string) error {
				rel, err := fileArg(st, root, args[0])
				if err != nil {
					return err
				}
				return q(st, root, rel)
			})
		},
	}
	addQueryFlags(cmd, g, 0)
	return cmd
}

func newOutlineCmd(g *globals) *cobra.Command {
	return newFileQueryCmd(g, "outline", "Show the nested symbols of a file",
		func(st *index.Store, _, rel string) error {
			tree, err := st.Outline(rel)
			if err != nil {
				return err
			}
			return printOutline(g, rel, tree)
		})
}

func newDepsCmd(g *globals) *cobra.Command {
	return newFileQueryCmd(g, "deps", "List the imports of a file and what they resolve to in the workspace",
		func(st *index.Store, root, rel string) error {
			gr, err := st.Graph(root)
			if err != nil {
				return err
			}
			return printEdges(g, gr.Deps(rel), false)
		})
}

func newDependentsCmd(g *globals) *cobra.Command {
	return newFileQueryCmd(g, "dependents", "List the files that import FILE (or, for Go, its package)",
		func(st *index.Store, root, rel string) error {
			gr, err := st.Graph(root)
			if err != nil {
				return err
			}
			return printEdges(g, gr.Dependents(rel), true)
		})
}

func newHubsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hubs",
		Short: "List the most imported files and packages",
		Args:  cobra.NoArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			return runQuery(g, args, func(st *index.Store, root string, _ []string) error {
				gr, err := st.Graph(root)
				if err != nil {
					return err
				}
				return printHubs(g, gr.Hubs(g.limit))
			})
		},
	}
	addQueryFlags(cmd, g, 20)
	return cmd
}

func newStatsCmd(g *globals) *cobra.Command {
	var tokens, completions bool
	var session string
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Show index statistics per language, with --tokens the agent sessions' tokens, or with --completions the inline completions",
		Long: `stats shows index statistics per language. With --tokens it shows, per
agent session (most recent first, or the one --session names), the model's
reported usage and the read_file tokens: sent, what full reads would have
cost, and what each re-read mechanism (unchanged stubs, diffs, edit
certificates) saved. With --completions it shows, per language, the inline
completions the editor was offered, shown, accepted (whole or in part) and
dismissed, and the time spent building requests and waiting for the
model (p50 and p99); these are counted on this machine and never sent
anywhere.`,
		Args: cobra.NoArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			if completions {
				return runStatsCompletions(g)
			}
			if tokens {
				return runStatsTokens(g, session)
			}
			if session != "" {
				return errors.New("--session needs --tokens")
			}
			return runQuery(g, args, func(st *index.Store, root string, _ []string) error {
				return printStats(g, root, st.Stats())
			})
		},
	}
	addQueryFlags(cmd, g, 0)
	cmd.Flags().BoolVar(&tokens, "tokens", false, "report the agent sessions' tokens instead")
	cmd.Flags().BoolVar(&completions, "completions", false, "report the inline completions instead")
	cmd.Flags().StringVar(&session, "session", "", "with --tokens: only this session (ID, unique prefix or \"last\")")
	return cmd
}

// fileArg maps a FILE argument to its path relative to the root. The
// argument may be absolute, relative to the current directory, or relative
// to the root; it must stay inside the root (symlinks included).
func fileArg(st *index.Store, root, arg string) (string, error) {
	roots, err := workspace.NewRoots(root)
	if err != nil {
		return "", err
	}
	p := arg
	if !filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			if cand := filepath.Join(wd, p); exists(cand) {
				p = cand
			}
		}
	}
	_, _, rel, err := roots.Resolve(p)
	if err != nil {
		return "", err
	}
	if _, ok := st.Header(rel); !ok {
		return "", fmt.Errorf("%s is not in the index (ignored, excluded, or created after the last `parley index`)", rel)
	}
	return rel, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
