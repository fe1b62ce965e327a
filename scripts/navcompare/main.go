// Command navcompare measures how often parley's navigation answers agree
// with gopls's, and how fast each server answers. It starts `parley serve`
// and gopls on the same tree, picks call sites at random with a fixed seed
// (calls of exported functions and methods, `F(...)` or `x.F(...)`, in
// non-test Go files outside testdata), sends the same
// textDocument/definition and textDocument/references requests to both
// (client-side timing, the file opened in both servers first), and prints
// one JSON object:
//
//   - definition top-1: parley's first location is gopls's first location
//   - definition anywhere: gopls's location is somewhere in parley's list
//   - references precision and recall of parley's locations against gopls's
//     (mean over the sites where gopls answered; a site where both answer
//     nothing is not counted)
//   - p50 and p99 latencies of both servers per method
//
// Sites where gopls gives no definition (builtins, packages it could not
// load) are reported as skipped, not scored. Locations are compared by file
// and start position.
//
//	navcompare -parley bin/parley -gopls $(go env GOPATH)/bin/gopls -root DIR -data DIR [-n 60] [-seed 1 | -seeds LIST] [-rule R] [-save FILE | -replay FILE.gopls.json]
//
// -rule draws Go sites by other rules than the default's (sample_go.go:
// method calls on fields, calls of interface method names, sync/atomic
// methods), so that figures can be taken on sites unlike those the
// resolver was developed on; the report then scores each rule apart too.
//
// -save keeps both servers' per-site answers; -replay judges a parley
// build against recorded gopls answers (same tree, a sample no larger than
// the recorded one) without starting gopls, whose latencies are then the
// recorded ones.
//
// With -judge pyright or -judge tsserver the judge is pyright-langserver or
// typescript-language-server (the -gopls flag names its binary; both are
// pinned in judges/package.json), and the sites are calls f(...) and
// attribute uses x.a in non-test Python or TypeScript files (sample_ts.go).
//
// gopls on all of GOROOT/src needs about 7 GB of memory and minutes of
// CPU before its first answer; scripts/bench.sh runs this only when asked
// (BENCH_NAV=1).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

func main() {
	bin := flag.String("parley", "bin/parley", "parley binary")
	gopls := flag.String("gopls", "gopls", "the judge's binary (gopls v0.21.0; pyright-langserver, typescript-language-server from judges/)")
	judgeName := flag.String("judge", "gopls", "reference server: gopls, pyright, tsserver, tsserver-js or clangd")
	root := flag.String("root", "", "tree to serve (a Go module or GOROOT/src)")
	data := flag.String("data", "", "parley data directory")
	n := flag.Int("n", 60, "call sites to compare")
	seed := flag.Uint64("seed", 1, "seed of the site sample")
	seeds := flag.String("seeds", "", "several seeds, comma-separated (11,101-105): -n sites each, one judge run for all (record once with -save, then -replay any one -seed)")
	rule := flag.String("rule", "", "Go sites: exported (the default: F(...) and x.F(...) of exported F), fieldcall, iface, atomic, a comma-separated mix or all (sample_go.go)")
	verbose := flag.Bool("v", false, "print each disagreement to stderr")
	save := flag.String("save", "", "write both servers' answers to FILE.gopls.json and FILE.parley.json")
	replay := flag.String("replay", "", "read gopls's answers from a -save recording instead of running gopls")
	list := flag.Bool("list", false, "print the sampled sites, one JSON object a line, and exit")
	flag.Parse()
	if *root == "" || *data == "" {
		fmt.Fprintln(os.Stderr, "navcompare: -root and -data are required")
		os.Exit(2)
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "navcompare:", err)
		os.Exit(1)
	}
	j, err := judgeNamed(*judgeName)
	if err != nil {
		fmt.Fprintln(os.Stderr, "navcompare:", err)
		os.Exit(2)
	}
	var rules []string
	var listers []func(string) []site
	if *rule != "" {
		if j.name != "gopls" {
			fmt.Fprintln(os.Stderr, "navcompare: -rule applies to -judge gopls only")
			os.Exit(2)
		}
		if rules, listers, err = goRuleSites(abs, *rule); err != nil {
			fmt.Fprintln(os.Stderr, "navcompare:", err)
			os.Exit(2)
		}
	}
	sites, err := sampleSeeds(abs, *n, *seed, *seeds, j, rules, listers)
	if err != nil {
		fmt.Fprintln(os.Stderr, "navcompare:", err)
		os.Exit(1)
	}
	if *list {
		enc := json.NewEncoder(os.Stdout)
		for _, s := range sites {
			enc.Encode(s)
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancel()
	rep, err := compare(ctx, config{parley: *bin, gopls: *gopls, judge: j, root: abs, data: *data, verbose: *verbose, save: *save, replay: *replay}, sites)
	if err != nil {
		fmt.Fprintln(os.Stderr, "navcompare:", err)
		os.Exit(1)
	}
	out, _ := json.MarshalIndent(rep, "", "  ")
	fmt.Println(string(out))
}
