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
	RankSameFile  DefinitionRank = iota // in the file itself
	RankSameDir                         // in its directory (its package)
	RankImported                        // in a file or package it imports
	RankElsewhere                       // anywhere else, or no starting file
)

// DefinitionContext ranks definitions as seen from one file of a store.
// The zero value has no file and ranks everything RankElsewhere, which
// leaves the workspace-wide (path) order.
type DefinitionContext struct {
	from, dir string
	imports   []extract.Import
}

// NewDefinitionContext ranks from the store-relative file from, whose
// imports (FileDetail.Imports) decide RankImported.
func NewDefinitionContext(from string, imports []extract.Import) DefinitionContext {
	return DefinitionContext{from: from, dir: path.Dir(from), imports: imports}
}

// DefinitionContext returns the context of the indexed file from. A file
// the index does not know (yet) still ranks its own path and directory;
// its error matches ErrNotIndexed.
func (s *Store) DefinitionContext(from string) (DefinitionContext, error) {
	det, err := s.Detail(from)
	if err != nil {
		if errors.Is(err, ErrNotIndexed) {
			return NewDefinitionContext(from, nil), err
		}
		return DefinitionContext{}, fmt.Errorf("definition context: %w", err)
	}
	return NewDefinitionContext(from, det.Imports), nil
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
	case importsFile(c.imports, c.dir, p):
		return RankImported
	}
	return RankElsewhere
}

// SortDefinitions orders hits by rank, stably: callers pass hits in path
// order (as Definitions and DefinitionSites return them, store after
// store), so the result is by rank, then path. It returns how many hits
// share the best rank: a go-to-definition answer keeps just those.
func SortDefinitions[T any](hits []T, rank func(T) DefinitionRank) (best int) {
	if len(hits) == 0 {
		return 0
	}
	// A bucket per rank: linear, and rank runs once per hit.
	var buckets [RankElsewhere + 1][]T
	for _, h := range hits {
		r := min(rank(h), RankElsewhere)
		buckets[r] = append(buckets[r], h)
	}
	out := hits[:0]
	for _, b := range buckets {
		if best == 0 {
			best = len(b)
		}
		out = append(out, b...)
	}
	return best
}

// importsFile reports whether one of a file's imports (written in the
// language's own syntax) plausibly names target, a root-relative file
// path: an import that ends with the target's directory, its path without
// extension or its path ("./util", "util/str.h", "os.path" and
// "com.acme.Widget" as paths, Rust "::" paths likewise), or, for a
// non-relative import, one the target's directory ends (a Go module path,
// "example.com/m/lib" for lib/). It is a heuristic on purpose: the full
// import graph costs tens of milliseconds to build, a definition answer
// must take a few.
func importsFile(imports []extract.Import, fromDir, target string) bool {
	targetDir := path.Dir(target)
	targetNoExt := strings.TrimSuffix(target, path.Ext(target))
	for _, imp := range imports {
		p := strings.Trim(imp.Path, "\"'<> ")
		relative := false
		switch {
		case p == "":
			continue
		case strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../"):
			p, relative = path.Join(fromDir, p), true
		case strings.Contains(p, "::"):
			p = strings.TrimPrefix(strings.ReplaceAll(p, "::", "/"), "crate/")
		case !strings.Contains(p, "/") && strings.Contains(p, "."):
			p = strings.ReplaceAll(p, ".", "/")
		}
		if hasPathSuffix(targetDir, p) || hasPathSuffix(targetNoExt, p) || hasPathSuffix(target, p) {
			return true
		}
		if !relative && targetDir != "." && hasPathSuffix(p, targetDir) {
			return true
		}
	}
	return false
}

func hasPathSuffix(p, suffix string) bool {
	return p == suffix || strings.HasSuffix(p, "/"+suffix)
}
