package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/index"
)

func newIndexCmd(g *globals) *cobra.Command {
	var (
		asJSON   bool
		verbose  bool
		maxSize  int64
		excludes []string
		langs    []string
	)
	cmd := &cobra.Command{
		Use:   "index [PATH]",
		Short: "Build or update the index of a workspace",
		Long: `Index walks the workspace (honouring .gitignore, .ignore and .parleyignore),
extracts symbols, references, imports and TODO markers from every source
file and stores them. Unchanged files are skipped, so re-running is cheap.
PATH overrides --root.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				g.root, g.rootExplicit = args[0], true
			}
			st, root, err := g.openStore()
			if err != nil {
				return err
			}
			defer st.Close()
			ctx, stop := signalContext()
			defer stop()
			opts := index.Options{MaxFileSize: maxSize, Excludes: excludes, EnableLanguages: langs}
			sum, err := runIndex(ctx, g, st, root, opts, !asJSON)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdout, sum)
			}
			printSummary(g.stdout, root, sum, verbose)
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print the summary as JSON")
	f.BoolVarP(&verbose, "verbose", "v", false, "list every skipped and partial file")
	f.Int64Var(&maxSize, "max-file-size", index.DefaultMaxFileSize, "files larger than this many bytes are listed but not parsed (Go files: 8 times this)")
	f.StringArrayVar(&excludes, "exclude", nil, "extra gitignore-style pattern to exclude (repeatable)")
	f.StringSliceVar(&langs, "enable-lang", nil, "extract a language that is off by default (swift: its grammar costs ~9 s and ~1.2 GB to load)")
	return cmd
}

// ensureIndexed indexes the workspace when the store is empty, so query
// commands work on a fresh checkout without a separate `parley index`.
func ensureIndexed(ctx context.Context, g *globals, st *index.Store, root string) error {
	if len(st.Files()) > 0 {
		return nil
	}
	_, err := runIndex(ctx, g, st, root, index.Options{}, true)
	return err
}

// runIndex runs one indexing pass, with progress on stderr if asked, and
// words an interruption as what it is.
func runIndex(ctx context.Context, g *globals, st *index.Store, root string, opts index.Options, progress bool) (*index.Summary, error) {
	if progress {
		opts.Progress = newProgressPrinter(g.stderr, isTTY(os.Stderr))
	}
	opts.MaxFiles = g.indexLimit()
	sum, err := st.Index(ctx, root, opts)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("index %s: interrupted; the files indexed so far are kept and the next run continues", root)
		}
		if lerr := limitError(err); lerr != nil {
			return nil, lerr
		}
		return nil, fmt.Errorf("index %s: %w", root, err)
	}
	return sum, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printSummary(w io.Writer, root string, s *index.Summary, verbose bool) {
	fmt.Fprintf(w, "indexed %s in %.2fs\n", root, s.Seconds)
	if s.Rebuilt != "" {
		fmt.Fprintf(w, "  (store rebuilt: %s)\n", s.Rebuilt)
	}
	fmt.Fprintf(w, "  files    %d (%d changed, %d unchanged, %d removed)\n", s.Files, s.Changed, s.Unchanged, s.Removed)
	fmt.Fprintf(w, "  bytes    %s\n", humanBytes(s.Bytes))
	fmt.Fprintf(w, "  symbols  %d\n", s.Symbols)
	fmt.Fprintf(w, "  refs     %d\n", s.Refs)
	printSkips(w, "skipped", s.Skipped, verbose)
	printSkips(w, "partial", s.Partial, verbose)
}

func printSkips(w io.Writer, label string, list []index.Skipped, verbose bool) {
	fmt.Fprintf(w, "  %-8s %d\n", label, len(list))
	const shown = 10
	for i, sk := range list {
		if !verbose && i == shown {
			fmt.Fprintf(w, "    ... and %d more (--verbose lists all)\n", len(list)-shown)
			break
		}
		fmt.Fprintf(w, "    %s: %s\n", sk.Path, sk.Reason)
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// newProgressPrinter draws a one-line bar with rate and ETA on a terminal,
// and a plain line every few seconds otherwise (logs, CI).
func newProgressPrinter(w io.Writer, tty bool) func(index.Progress) {
	// Start the clock now so short runs print nothing at all.
	last := time.Now()
	printed := false
	interval := 2 * time.Second
	if tty {
		interval = 100 * time.Millisecond
	}
	return func(p index.Progress) {
		done := p.Done == p.Total
		if (!done || !printed) && time.Since(last) < interval {
			return
		}
		last, printed = time.Now(), true
		secs := p.Elapsed.Seconds()
		rate := 0.0
		if secs > 0 {
			rate = float64(p.Done) / secs
		}
		eta := "?"
		if p.DoneBytes > 0 && p.TotalBytes > 0 {
			left := secs * float64(p.TotalBytes-p.DoneBytes) / float64(p.DoneBytes)
			eta = time.Duration(left * float64(time.Second)).Round(time.Second).String()
		}
		pct := 100.0
		if p.Total > 0 {
			pct = 100 * float64(p.Done) / float64(p.Total)
		}
		if !tty {
			fmt.Fprintf(w, "indexing: %d/%d files (%.0f%%), %.0f files/s, ETA %s\n", p.Done, p.Total, pct, rate, eta)
			return
		}
		const width = 30
		fill := int(pct / 100 * width)
		bar := make([]byte, width)
		for i := range bar {
			bar[i] = '-'
			if i < fill {
				bar[i] = '#'
			}
		}
		fmt.Fprintf(w, "\r[%s] %3.0f%% %d/%d files  %.0f files/s  ETA %s   ", bar, pct, p.Done, p.Total, rate, eta)
		if done {
			fmt.Fprintln(w)
		}
	}
}
