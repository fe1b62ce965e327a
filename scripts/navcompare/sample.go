package main

import (
	"fmt"
	"go/ast"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// site is one call site: a root-relative file and the 0-based line and
// UTF-16 column of the called name. Sampled files are ASCII up to the
// site, so byte and UTF-16 columns agree.
type site struct {
	File string `json:"file"`
	Line uint32 `json:"line"`
	Col  uint32 `json:"col"`
	Name string `json:"name"`
	// Rule is the -rule that drew the site when several were asked for.
	Rule string `json:"rule,omitempty"`
}

// sample picks n call sites: a random file of the judge's language, then a
// random site in it (j.sites), until n distinct sites are found or the tree
// has too few. With rules (sample_go.go), each try first picks one of
// them at random, and its lister replaces j.sites; a single rule draws
// the same sites as j.sites would for the same seed.
func sample(root string, n int, seed uint64, j judge, rules []string, listers []func(string) []site) ([]site, error) {
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && j.skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if rel = filepath.ToSlash(rel); j.source(rel) && d.Type().IsRegular() {
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no %s source files under %s", j.name, root)
	}
	slices.Sort(files)
	rng := rand.New(rand.NewPCG(seed, 0x6e6176))
	seen := map[site]bool{}
	var out []site
	for tries := 0; len(out) < n && tries < 50*n; tries++ {
		list, rule := j.sites, ""
		if len(listers) == 1 {
			list = listers[0]
		} else if len(listers) > 1 {
			i := rng.IntN(len(listers))
			list, rule = listers[i], rules[i]
		}
		rel := files[rng.IntN(len(files))]
		calls := list(filepath.Join(root, filepath.FromSlash(rel)))
		if len(calls) == 0 {
			continue
		}
		s := calls[rng.IntN(len(calls))]
		s.File, s.Rule = rel, rule
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// sampleSeeds is sample with seed, or with each seed of list (a
// comma-separated list of seeds and ranges lo-hi) in turn, duplicates
// dropped: one judge run can then record the answers of development and
// held-out samples alike.
func sampleSeeds(root string, n int, seed uint64, list string, j judge, rules []string, listers []func(string) []site) ([]site, error) {
	if list == "" {
		return sample(root, n, seed, j, rules, listers)
	}
	var out []site
	seen := map[site]bool{}
	for _, part := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.ParseUint(lo, 10, 64)
		b := a
		if err == nil && isRange {
			b, err = strconv.ParseUint(hi, 10, 64)
		}
		if err != nil {
			return nil, fmt.Errorf("-seeds %q: %w", list, err)
		}
		for s := a; s <= b; s++ {
			sites, err := sample(root, n, s, j, rules, listers)
			if err != nil {
				return nil, err
			}
			for _, st := range sites {
				if !seen[st] {
					seen[st] = true
					out = append(out, st)
				}
			}
		}
	}
	return out, nil
}

// exportedCalls lists the called names of F(...) and x.F(...) calls where F
// is exported, skipping any on a line with a non-ASCII byte before it.
func exportedCalls(path string) []site {
	return callSites(path, func(_ *ast.File, call *ast.CallExpr) *ast.Ident {
		var id *ast.Ident
		switch fn := call.Fun.(type) {
		case *ast.Ident:
			id = fn
		case *ast.SelectorExpr:
			id = fn.Sel
		}
		if id == nil || !id.IsExported() {
			return nil
		}
		return id
	})
}
