// Command completionbench measures the context agent/complete.Build
// gives an inline completion, and what building it costs, on three real
// corpora: GOROOT/src, the Python standard library and rxjs's
// TypeScript sources (scripts/navcompare/judges: npm ci). It prints
// three tables and writes them as JSON (-out):
//
//  1. Context recall, as CrossCodeEval measures retrieval. Sites are
//     calls x.Name(...) whose Name is a function or method declared in
//     another file, drawn with a fixed seed from one half of the
//     non-test files (-half: "dev", the files looked at while this
//     benchmark was written, or "held", the reported ones; the halves
//     split the paths by hash). The ground truth is the declaration
//     nav.DefinitionsAt resolves from the syntax at the unmodified site
//     (the go-to-definition path; parley's Go definitions agree with
//     gopls's on 99% of navcompare's sites): a candidate it does not
//     resolve to exactly one function or method in another file is
//     dropped, and the drops are counted by reason. At each site the
//     cursor is put right after `x.`, the rest of the line removed, and
//     the context is searched for the declaration (a snippet of its
//     file with its line, its stored signature, or its text up to the
//     declared name): (a) parley's Build with the default budget
//     (1,024 tokens, o200k_base); (b) BM25 over 20-line windows every
//     10 lines of every other indexed file of the language, queried
//     with the prefix's last 20 lines, filled to the same budget
//     (bm25.go); (c) no retrieval: the prefix and suffix alone, path
//     aside. parley's misses are classified (miss.go).
//  2. Latency of Build on each corpus's sites as the language server
//     sees it: the edited buffer written with Store.PutContent (which
//     bumps Store.WriteGen, as every keystroke does), then Build timed
//     (cold), then again at the same site (warm); wall time and the
//     building thread's CPU time, which other work on the machine does
//     not inflate. A panic in Build is caught and counted as a miss.
//  3. Typing through the real Engine (Go only): a keystroke every 80 ms
//     (and every 50 ms, faster than the debounce) with a 400 ms pause
//     every 1.2 s for 5 s, each keystroke a Complete on its own
//     goroutine after the buffer is queued for the store, against a
//     model that records the prefixes it is asked: how many requests
//     reached it, and whether each was for a position where typing
//     paused at least the debounce.
//
// The stores live under -data, one per language, indexed (or brought up
// to date) first; every buffer written is restored afterwards.
//
// docs/performance.md ("Inline completion context") has the figures.
//
//	completionbench -data DIR [-n 300] [-seed 1] [-half held] [-langs go,python,typescript] [-out FILE] [-cpuprofile FILE]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/internal/tokcount"
)

type options struct {
	data, half, out, tsSrc string
	langs                  []string
	n, misses              int
	seed                   uint64
	typing, open           bool
}

// report is the -out JSON.
type report struct {
	Seed     uint64         `json:"seed"`
	Half     string         `json:"half"`
	N        int            `json:"n"`
	Budget   int            `json:"context_budget"`
	Load     string         `json:"load_average"`
	Commit   string         `json:"commit"`
	Started  time.Time      `json:"started"`
	Langs    []*langResult  `json:"languages"`
	Typing   []typingReport `json:"typing,omitempty"`
	Warnings []string       `json:"warnings,omitempty"`
}

func main() {
	var o options
	langs := flag.String("langs", "go,python,typescript", "corpora to measure")
	flag.StringVar(&o.data, "data", "bench_out/completion", "directory of the stores (and of the copy of rxjs)")
	flag.StringVar(&o.half, "half", "held", "files the sites are drawn from: held (reported) or dev")
	flag.StringVar(&o.out, "out", "", "write the results as JSON to FILE")
	flag.StringVar(&o.tsSrc, "ts-src", "scripts/navcompare/judges/node_modules/rxjs/src", "rxjs's TypeScript sources")
	flag.IntVar(&o.n, "n", 300, "sites per language")
	flag.IntVar(&o.misses, "misses", 15, "parley's misses to print per language")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the site sample")
	flag.BoolVar(&o.typing, "typing", true, "run the typing simulation")
	flag.BoolVar(&o.open, "open", true, "warm each site's file as the language server does when the editor opens it (complete.Warm) before the cold Build")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the sites' measurements to FILE")
	flag.Parse()
	if *cpuprofile != "" {
		stop, err := startProfile(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "completionbench:", err)
			os.Exit(1)
		}
		defer stop()
	}
	o.langs = strings.Split(*langs, ",")
	if o.half != "held" && o.half != "dev" {
		fmt.Fprintln(os.Stderr, "completionbench: -half is held or dev")
		os.Exit(2)
	}
	rep, err := run(context.Background(), o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "completionbench:", err)
		os.Exit(1)
	}
	fmt.Printf("parley %s; seed %d, %s files, %d sites per language\n", rep.Commit, rep.Seed, rep.Half, rep.N)
	printRecall(os.Stdout, rep.Langs, rep.Budget)
	printMisses(os.Stdout, rep.Langs, o.misses)
	printLatency(os.Stdout, rep.Langs, rep.Load)
	printTyping(os.Stdout, rep.Typing)
	if o.out != "" {
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(o.out, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "completionbench:", err)
			os.Exit(1)
		}
	}
}

func run(ctx context.Context, o options) (*report, error) {
	tsRoot, err := rxjsCopy(o)
	if err != nil {
		return nil, err
	}
	cs, err := corpora(tsRoot)
	if err != nil {
		return nil, err
	}
	rep := &report{Seed: o.seed, Half: o.half, N: o.n, Budget: complete.DefaultContextTokens, Started: time.Now()}
	if tsRoot == "" && contains(o.langs, "typescript") {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("TypeScript skipped: %s not found (cd scripts/navcompare/judges && npm ci)", o.tsSrc))
		warn("%s", rep.Warnings[0])
	}
	for _, c := range cs {
		if !contains(o.langs, c.Lang) {
			continue
		}
		r, typing, err := measureCorpus(ctx, o, c)
		if err != nil {
			return nil, err
		}
		rep.Langs = append(rep.Langs, r)
		rep.Typing = append(rep.Typing, typing...)
	}
	rep.Load, rep.Commit = loadAverage(), commit()
	return rep, nil
}

// measureCorpus indexes c, draws its sites and measures each.
func measureCorpus(ctx context.Context, o options, c corpus) (*langResult, []typingReport, error) {
	t := time.Now()
	st, sum, err := c.open(ctx, o.data)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	warn("%s: indexed %s (%d files, %d changed) in %.1fs %s", c.Lang, c.Root, sum.Files, sum.Changed, time.Since(t).Seconds(), sum.Rebuilt)
	files := c.files(st)
	t = time.Now()
	b := &bench{c: c, st: st, open: o.open, budget: complete.Budget{Context: complete.DefaultContextTokens, Count: complete.MemoCount(tokcount.For(""))}}
	b.win = newWindowIndex(files, c.read)
	warn("%s: %d BM25 windows over %d files in %.1fs", c.Lang, len(b.win.fileOf), len(b.win.paths), time.Since(t).Seconds())
	t = time.Now()
	sites, dropped := sample(c, st, files, o.half, o.n, o.seed)
	warn("%s: %d sites (%s dropped) in %.1fs", c.Lang, len(sites), counts(dropped), time.Since(t).Seconds())
	r := &langResult{Corpus: c, Files: len(b.win.paths), Windows: len(b.win.fileOf), Dropped: dropped}
	b.warmUp(files)
	for i, s := range sites {
		out, err := b.measure(ctx, s)
		if err != nil {
			return nil, nil, err
		}
		r.Outcomes = append(r.Outcomes, out)
		if (i+1)%50 == 0 {
			warn("%s: %d of %d sites", c.Lang, i+1, len(sites))
		}
	}
	r.summarize()
	var typing []typingReport
	if i := typingSite(c, r.Outcomes); o.typing && c.Lang == "go" && i >= 0 {
		for _, sc := range scenarios {
			tr, err := b.simulate(ctx, sites[i], sc, complete.DefaultDebounce, 30*time.Millisecond)
			if err != nil {
				return nil, nil, err
			}
			typing = append(typing, tr)
		}
	}
	return r, typing, nil
}

// typingSite is the first site where Build did not panic with room to
// type after it (the scenarios type fewer than 100 characters); -1 for
// none.
func typingSite(c corpus, outs []outcome) int {
	for i, o := range outs {
		if o.Miss != nil && o.Miss.Class == missPanic {
			continue
		}
		if src, err := c.read(o.Site.File); err == nil && len(src)-o.Site.Off >= 200 {
			return i
		}
	}
	return -1
}

// scenarios are the typing rhythms simulated.
var scenarios = []scenario{
	{Name: "80 ms keystrokes, 400 ms pause every 1.2 s", Interval: 80 * time.Millisecond, PauseEvery: 1200 * time.Millisecond, Pause: 400 * time.Millisecond, Duration: 5 * time.Second},
	{Name: "50 ms keystrokes, 400 ms pause every 1.2 s", Interval: 50 * time.Millisecond, PauseEvery: 1200 * time.Millisecond, Pause: 400 * time.Millisecond, Duration: 5 * time.Second},
}

// rxjsCopy copies rxjs's sources under the data directory once (the
// index walk skips node_modules) and returns the copy; "" when the
// sources are not there.
func rxjsCopy(o options) (string, error) {
	if !contains(o.langs, "typescript") {
		return "", nil
	}
	if _, err := os.Stat(o.tsSrc); err != nil {
		return "", nil
	}
	dst := filepath.Join(o.data, "rxjs-src")
	if _, err := os.Stat(dst); err == nil {
		return filepath.Abs(dst)
	}
	tmp := dst + ".tmp"
	os.RemoveAll(tmp)
	if err := copyTree(o.tsSrc, tmp); err != nil {
		return "", fmt.Errorf("copy rxjs: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return "", err
	}
	return filepath.Abs(dst)
}

// startProfile starts a CPU profile into path; stop ends it.
func startProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if strings.TrimSpace(l) == s {
			return true
		}
	}
	return false
}

// commit is the working tree's commit, marked "+changes" when what Build
// runs (agent/complete, index) has uncommitted changes.
func commit() string {
	out, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--", "agent/complete", "index").Output(); err == nil && len(st) > 0 {
		c += "+changes"
	}
	return c
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}
