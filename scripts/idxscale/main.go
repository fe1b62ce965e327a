// Command idxscale estimates how a cold index of a tree scales with
// cores (issue 26): it extracts every file the indexer would, one at a
// time, measuring the process's CPU time each file takes
// (CLOCK_PROCESS_CPUTIME_ID: the tree-sitter parse runs on a thread of
// its own, and other processes' load does not count), then replays those
// costs on N simulated workers in two orders: the walk's (first come,
// first served, as the indexer) and largest file first. It prints, per
// N, the simulated extraction time, its speedup over one worker and its
// efficiency (speedup / N), and the files that cost the most: a file
// whose cost is a large share of total/N holds the run at that N.
//
// It models extraction only (the store's writes and the walk are not
// replayed), so it is a trend, not a prediction; `GOMAXPROCS=1` and `=2`
// runs of `parley index` give the real figures on a 2-core machine.
//
//	go run ./scripts/idxscale [-n 1,2,4,8,16,32] [-exclude PATTERN] DIR
package main

import (
	"bytes"
	"container/heap"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/nav"
	"github.com/parleyhq/parley/workspace"
)

// file is one extracted file and its cost.
type file struct {
	rel  string
	size int64
	cost time.Duration
}

func main() {
	ns := flag.String("n", "1,2,4,8,16,32", "worker counts to simulate")
	top := flag.Int("top", 5, "costliest files to list")
	var excludes []string
	flag.Func("exclude", "gitignore-style pattern to exclude, as parley index --exclude (repeatable)", func(s string) error {
		excludes = append(excludes, s)
		return nil
	})
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: idxscale [-n 1,2,4] DIR")
		os.Exit(2)
	}
	files, err := measure(flag.Arg(0), excludes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "idxscale:", err)
		os.Exit(1)
	}
	var total time.Duration
	for _, f := range files {
		total += f.cost
	}
	fmt.Printf("%d files, extraction CPU %.2f s, one file at a time\n", len(files), total.Seconds())
	fmt.Printf("%4s %12s %12s %8s %8s %12s %8s\n", "N", "ideal s", "walk order s", "speedup", "eff", "largest 1st", "speedup")
	bySize := append([]file(nil), files...)
	sort.SliceStable(bySize, func(i, j int) bool { return bySize[i].size > bySize[j].size })
	one := makespan(files, 1)
	for _, s := range strings.Split(*ns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintln(os.Stderr, "idxscale: bad -n", s)
			os.Exit(2)
		}
		fifo, lpt := makespan(files, n), makespan(bySize, n)
		fmt.Printf("%4d %12.2f %12.2f %7.2fx %7.0f%% %12.2f %7.2fx\n", n, (total / time.Duration(n)).Seconds(),
			fifo.Seconds(), ratio(one, fifo), 100*ratio(one, fifo)/float64(n), lpt.Seconds(), ratio(one, lpt))
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].cost > files[j].cost })
	for _, f := range files[:min(*top, len(files))] {
		fmt.Printf("  %8.3f s  %5.1f%%  %8d B  %s\n", f.cost.Seconds(), 100*ratio(f.cost, total), f.size, f.rel)
	}
}

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// measure extracts every file under root that the indexer would extract
// (its walk, its size limit and minified rule, every language's
// extractor with the index-time descriptors), one file at a time.
func measure(root string, excludes []string) ([]file, error) {
	var entries []workspace.Entry
	err := workspace.Walk(context.Background(), root, workspace.WalkOptions{MaxFileSize: -1, Excludes: excludes}, func(e workspace.Entry) error {
		entries = append(entries, e)
		return nil
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	var files []file
	desc := nav.Describers()
	for _, e := range entries {
		src, err := os.ReadFile(e.Abs)
		if err != nil || bytes.IndexByte(src, 0) >= 0 {
			continue
		}
		lang := workspace.DetectLanguage(e.Rel, src[:min(len(src), 256)])
		ex := extract.For(lang)
		if _, optIn := index.OptInLanguages[lang]; ex == nil || optIn || index.Unparsed(e.Rel, src) {
			continue
		}
		before := processCPU()
		_, _ = ex.Extract(context.Background(), e.Rel, src, extract.Options{Budget: extract.BudgetFor(len(src)), Describe: desc})
		files = append(files, file{e.Rel, e.Size, processCPU() - before})
	}
	return files, nil
}

// processCPU is the CPU time of all the process's threads.
func processCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// makespan replays files in order on n workers, each taking the next
// file when it is free, and returns when the last one finishes.
func makespan(files []file, n int) time.Duration {
	free := make(workers, n)
	for _, f := range files {
		free[0] += f.cost
		heap.Fix(&free, 0)
	}
	return slices.Max(free)
}

// workers is a min-heap of the times the simulated workers become free.
type workers []time.Duration

func (w workers) Len() int           { return len(w) }
func (w workers) Less(i, j int) bool { return w[i] < w[j] }
func (w workers) Swap(i, j int)      { w[i], w[j] = w[j], w[i] }
func (w *workers) Push(x any)        { *w = append(*w, x.(time.Duration)) }
func (w *workers) Pop() any {
	old := *w
	x := old[len(old)-1]
	*w = old[:len(old)-1]
	return x
}
