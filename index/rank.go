package index

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// DefinitionRank says how close a definition is to the file a lookup
// starts from; lower is closer. The language server's go-to-definition,
// `parley defs --from` and the agent's find_definition all order
// definitions by it (SortDefinitions), so they agree.
type DefinitionRank uint8

const (
	RankResolved           DefinitionRank = iota // the declaration the use's syntax names (RankUse)
	RankResolvedOtherBuild                       // the same, in a file for another GOOS or GOARCH
	RankSameFile                                 // in the file itself
	RankSameDir                                  // in its directory (its package)
	RankImported                                 // in a file or package it imports
	RankElsewhere                                // anywhere else, or no starting file
)

// DefinitionContext ranks definitions as seen from one file of a store.
// The zero value has no file and ranks everything RankElsewhere, which
// leaves the workspace-wide (path) order.
type DefinitionContext struct {
	from, dir string
	imports   []ImportPath
	build     goBuildOf // nil: file names alone decide the build
	port      GoPort    // the build from is checked in (PortOf)
}

// ImportPath is an import as a slash-separated path (see importPathOf).
type ImportPath struct {
	Path     string
	Relative bool   // written relative to the importing file ("./x")
	Name     string // the name it binds in a Go file (goImportName)
}

// NewDefinitionContext ranks from the store-relative file from, whose
// imports (FileDetail.Imports) decide RankImported.
func NewDefinitionContext(from string, imports []extract.Import) DefinitionContext {
	c := DefinitionContext{from: from, dir: path.Dir(from), port: PortOf(from, "")}
	goFile := strings.HasSuffix(from, ".go")
	for _, imp := range imports {
		if ip := importPathOf(imp.Path, c.dir); ip.Path != "" {
			if goFile {
				ip.Name = goImportName(ip.Path, imp.Name)
			}
			c.imports = append(c.imports, ip)
		}
	}
	return c
}

// DefinitionContext returns the context of the indexed file from. A file
// the index does not know (yet) still ranks its own path and directory;
// its error matches ErrNotIndexed.
func (s *Store) DefinitionContext(from string) (DefinitionContext, error) {
	det, err := s.Detail(from)
	if err != nil {
		if errors.Is(err, ErrNotIndexed) {
			c := NewDefinitionContext(from, nil)
			c.build, c.port = s.goBuild, PortOf(from, s.goBuild(from))
			return c, err
		}
		return DefinitionContext{}, fmt.Errorf("definition context: %w", err)
	}
	c := NewDefinitionContext(from, det.Imports)
	c.build, c.port = s.goBuild, PortOf(from, s.goBuild(from))
	return c, nil
}

// Rank classifies a definition at the store-relative path p, which must be
// in the same store as the context's file (a definition in another store
// is RankElsewhere; the caller knows which store a hit came from).
func (c DefinitionContext) Rank(p string) DefinitionRank {
	switch {
	case c.from == "":
		return RankElsewhere
	case p == c.from:
		return RankSameFile
	case path.Dir(p) == c.dir:
		return RankSameDir
	case importsFile(c.imports, p):
		return RankImported
	}
	return RankElsewhere
}

// SortDefinitions orders hits by rank, stably: callers pass hits in path
// order (as Definitions and DefinitionSites return them, store after
// store), so the result is by rank, then path. It returns how many hits
// share the best rank: a go-to-definition answer keeps just those.
func SortDefinitions[T any](hits []T, rank func(T) DefinitionRank) (best int) {
	// A counting sort: linear, and rank runs once per hit.
	const n = RankElsewhere + 1
	ranks := make([]DefinitionRank, len(hits))
	var counts [n]int
	sorted := true
	for i, h := range hits {
		r := min(rank(h), RankElsewhere)
		ranks[i] = r
		counts[r]++
		sorted = sorted && (i == 0 || ranks[i-1] <= r)
	}
	for _, c := range counts {
		if c > 0 {
			best = c
			break
		}
	}
	if sorted {
		return best
	}
	var next [n]int
	for r := 1; r < int(n); r++ {
		next[r] = next[r-1] + counts[r-1]
	}
	out := make([]T, len(hits))
	for i, h := range hits {
		out[next[ranks[i]]] = h
		next[ranks[i]]++
	}
	copy(hits, out)
	return best
}

// importPathOf writes an import (in the language's own syntax) as a
// slash-separated path: quotes and brackets dropped, a relative one joined
// to the importing file's directory fromDir, Rust "::" and dotted module
// names ("os.path", "com.acme.Widget") as path elements. Done once per
// import, not per definition ranked.
func importPathOf(imp, fromDir string) ImportPath {
	p := strings.Trim(imp, "\"'<> ")
	switch {
	case p == "":
	case strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../"):
		return ImportPath{Path: path.Join(fromDir, p), Relative: true}
	case strings.Contains(p, "::"):
		p = strings.TrimPrefix(strings.ReplaceAll(p, "::", "/"), "crate/")
	case !strings.Contains(p, "/") && strings.Contains(p, "."):
		p = strings.ReplaceAll(p, ".", "/")
	}
	return ImportPath{Path: p}
}

// importsFile reports whether one of the imports plausibly names target, a
// root-relative file path: an import that ends with the target's
// directory, its path without extension or its path ("./util",
// "util/str.h", "os.path"), or, for a non-relative import, one the
// target's directory ends (a Go module path, "example.com/m/lib" for
// lib/). It is a heuristic on purpose: the full import graph costs tens of
// milliseconds to build, a definition answer must take a few.
func importsFile(imports []ImportPath, target string) bool {
	if len(imports) == 0 {
		return false
	}
	targetDir := path.Dir(target)
	targetNoExt := strings.TrimSuffix(target, path.Ext(target))
	for _, ip := range imports {
		if hasPathSuffix(targetDir, ip.Path) || hasPathSuffix(targetNoExt, ip.Path) || hasPathSuffix(target, ip.Path) {
			return true
		}
		if !ip.Relative && targetDir != "." && hasPathSuffix(ip.Path, targetDir) {
			return true
		}
	}
	return false
}

func hasPathSuffix(p, suffix string) bool {
	return p == suffix || strings.HasSuffix(p, "/"+suffix)
}
