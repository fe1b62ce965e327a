package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/internal/tokcount"
)

func newMapCmd(g *globals) *cobra.Command {
	var tokens int
	var focus []string
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Print the repo map the agent sees: the most central files with their key symbols",
		Long: `map prints the ranked map of the workspace that the agent's system prompt
carries: files ranked by PageRank over the import graph, each with its
exported (or top-level) symbols and their signatures, within a token budget
counted with o200k_base. --focus personalises the ranking toward files, as
the files mentioned in a conversation and open in the editor do for the
agent.`,
		Args: cobra.NoArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			return runQuery(g, args, func(st *index.Store, root string, _ []string) error {
				rels := make([]string, 0, len(focus))
				for _, f := range focus {
					rel, err := fileArg(st, root, f)
					if err != nil {
						return err
					}
					rels = append(rels, rel)
				}
				m, err := repomap.New(st, root).Build(repomap.Options{Tokens: tokens, Focus: rels, Count: tokcount.Counter("")})
				if err != nil {
					return err
				}
				fmt.Print(m)
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&tokens, "tokens", config.DefaultRepoMapTokens, "token budget of the map (0 prints nothing)")
	cmd.Flags().StringSliceVar(&focus, "focus", nil, "rank toward FILE (repeatable)")
	return cmd
}
