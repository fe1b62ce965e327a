package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/workspace"
)

// `parley complete FILE:LINE:COL` is what the language server does for an
// inline completion at that position (an invoked one: no debounce, and
// comments and strings are completed too), from the CLI: how users debug
// their completion setup, and how completion context is benchmarked.

type completeFlags struct {
	stdin, contextOnly bool
}

func newCompleteCmd(g *globals) *cobra.Command {
	var f completeFlags
	cmd := &cobra.Command{
		Use:   "complete FILE:LINE:COL",
		Short: "Show the inline completion the editor would get at FILE:LINE:COL (1-based, COL in bytes), or with --context-only the request without calling a model",
		Long: `complete builds the fill-in-the-middle request the language server builds
for an inline completion at FILE:LINE:COL: the prefix and suffix, and the
context the index resolves for the cursor, each snippet with its path,
lines and why it was chosen. Without --context-only it sends the request
to the completion model of the configuration ("completion" in
~/.config/parley/config.json or .parley/config.json) and prints the
completion as the editor would insert it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return runQuery(g, args, func(st *index.Store, root string, args []string) error {
				return runComplete(g, f, st, root, args[0])
			})
		},
	}
	cmd.Flags().BoolVar(&g.json, "json", false, "print JSON")
	cmd.Flags().BoolVar(&f.stdin, "stdin", false, "read the buffer's text from standard input (an editor's unsaved buffer) instead of FILE on disk")
	cmd.Flags().BoolVar(&f.contextOnly, "context-only", false, "print the request without calling a model")
	return cmd
}

func runComplete(g *globals, f completeFlags, st *index.Store, root, arg string) error {
	m := posArg.FindStringSubmatch(arg)
	if m == nil {
		return fmt.Errorf("%s: want FILE:LINE:COL", arg)
	}
	rel, err := fileArg(st, root, m[1])
	if err != nil {
		return err
	}
	var src []byte
	if f.stdin {
		src, err = io.ReadAll(os.Stdin)
	} else {
		src, err = os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	off, err := index.LineColOffset(src, line, col)
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	cfg, err := config.Load(config.Options{Workspace: root})
	if err != nil {
		return err
	}
	set, err := complete.FromConfig(cfg)
	if err != nil && !f.contextOnly {
		return err
	}
	if set.Budget.Count == nil {
		set.Budget.Count = tokcount.For("")
	}
	srcOf := complete.Source{
		Store: st, Path: rel, Language: workspace.DetectLanguage(rel, src[:min(len(src), 512)]),
		Text: src, Offset: off,
		Read: func(p string) ([]byte, error) { return os.ReadFile(filepath.Join(root, filepath.FromSlash(p))) },
	}
	if f.contextOnly {
		return printCompletionContext(g, complete.Build(srcOf, set.Budget).Report())
	}
	if set.Model == nil {
		return errors.New("no completion model is configured: set \"completion\" in ~/.config/parley/config.json (see docs/completion.md), or use --context-only")
	}
	ctx, stop := signalContext()
	defer stop()
	res, err := complete.NewEngine(set, nil).Complete(ctx, complete.Request{Source: srcOf, Doc: rel, Invoked: true})
	if err != nil {
		return err
	}
	return printCompletion(g, res)
}

func printCompletionContext(g *globals, r complete.Report) error {
	if g.json {
		return writeJSON(g.stdout, r)
	}
	for _, sn := range r.Context {
		fmt.Fprintf(g.stdout, "── %s:%d-%d (%s)\n%s\n", sn.Path, sn.StartLine, sn.EndLine, sn.Why, strings.TrimRight(sn.Text, "\n"))
	}
	fmt.Fprintf(g.stdout, "── prefix (%d lines) and suffix (%d lines); %d tokens in all\n", strings.Count(r.Prefix, "\n")+1, strings.Count(r.Suffix, "\n")+1, r.Tokens)
	return nil
}

func printCompletion(g *globals, res complete.Result) error {
	if g.json {
		out := struct {
			Text      string  `json:"text"`
			Reason    string  `json:"reason,omitempty"`
			ContextMS float64 `json:"context_ms"`
			ModelMS   float64 `json:"model_ms"`
		}{Reason: res.Reason, ContextMS: float64(res.Context.Microseconds()) / 1000, ModelMS: float64(res.Model.Microseconds()) / 1000}
		if len(res.Items) > 0 {
			out.Text = res.Items[0].Text
		}
		return writeJSON(g.stdout, out)
	}
	if len(res.Items) == 0 {
		fmt.Fprintf(g.stderr, "parley: no completion: %s\n", res.Reason)
		return nil
	}
	fmt.Fprintln(g.stdout, res.Items[0].Text)
	return nil
}

// runStatsCompletions prints the workspace's completion stats log
// (written by the language server beside the index).
func runStatsCompletions(g *globals) error {
	root, err := g.workspaceRoot()
	if err != nil {
		return err
	}
	dir, err := g.storeDir(root)
	if err != nil {
		return err
	}
	stats, err := complete.ReadStats(complete.StatsPath(dir))
	if err != nil {
		return err
	}
	if g.json {
		if stats == nil {
			stats = []complete.LangStats{}
		}
		return writeJSON(g.stdout, stats)
	}
	if len(stats) == 0 {
		fmt.Fprintf(g.stdout, "no inline completions recorded for %s yet\n", root)
		return nil
	}
	fmt.Fprintf(g.stdout, "%-12s %8s %6s %9s %8s %10s %16s %16s %12s\n", "language", "offered", "shown", "accepted", "partial", "dismissed", "context p50/p99", "model p50/p99", "next edits")
	for _, s := range stats {
		fmt.Fprintf(g.stdout, "%-12s %8d %6d %9d %8d %10d %16s %16s %12s\n", s.Language, s.Offered, s.Shown, s.Accepted, s.Partial, s.Dismissed,
			fmt.Sprintf("%.1f/%.1f ms", s.ContextP50, s.ContextP99), fmt.Sprintf("%.0f/%.0f ms", s.ModelP50, s.ModelP99),
			fmt.Sprintf("%d/%d", s.NextAccepted, s.NextOffered))
	}
	return nil
}
