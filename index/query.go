package index

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/parleyhq/parley/index/extract"
)

// SymbolHit is a symbol found by a query, with the file it lives in.
type SymbolHit struct {
	Path   string
	Symbol extract.Symbol
	// Match is the match class (lower is better); see match.go.
	Match int
}

// symbolLoader decodes 'y' records once per file during a query.
type symbolLoader struct {
	s     *Store
	cache map[uint32][]extract.Symbol
}

func (l *symbolLoader) symbol(id, idx uint32) (extract.Symbol, bool, error) {
	syms, ok := l.cache[id]
	if !ok {
		v, err := l.s.get(idKey(prefixSymbols, id))
		if err != nil {
			return extract.Symbol{}, false, err
		}
		if v != nil {
			if syms, err = decodeSymbols(v); err != nil {
				return extract.Symbol{}, false, err
			}
		}
		l.cache[id] = syms
	}
	if int(idx) >= len(syms) {
		return extract.Symbol{}, false, nil
	}
	return syms[idx], true, nil
}

type candidate struct {
	id, idx  uint32
	match    int
	nameLen  int
	exported bool
	path     string
	sel      extract.Pos
}

func cmpCandidates(a, b candidate) int {
	return cmp.Or(
		cmp.Compare(a.match, b.match),
		-cmpBool(a.exported, b.exported),
		cmp.Compare(a.nameLen, b.nameLen),
		cmp.Compare(a.path, b.path),
		cmp.Compare(a.sel.Line, b.sel.Line),
		cmp.Compare(a.sel.Col, b.sel.Col))
}

// SearchSymbols finds symbols whose names match query: exact, then
// case-insensitive exact, prefix, camel-case, substring and fuzzy matches.
// Within a class, exported symbols and shorter names come first, then path
// and position. limit <= 0 means no limit.
//
// Camel-case, substring and fuzzy matches can be anywhere in the key space,
// so this scans the whole name index; ranking uses only keys and values, and
// symbol records are decoded for the returned hits alone.
func (s *Store) SearchSymbols(query string, limit int) ([]SymbolHit, error) {
	lq := appendLower(nil, query)
	var cands []candidate
	err := s.scan([]byte{prefixSymName}, func(k, v []byte) error {
		lower, id, idx, ok := parseSymNameKey(k)
		if !ok {
			return nil
		}
		ref, ok := decodeSymRef(v)
		if !ok {
			return nil
		}
		name := lower
		if ref.Spelled != nil {
			name = ref.Spelled
		}
		if m := classify(name, lower, query, lq); m != matchNone {
			cands = append(cands, candidate{id: id, idx: idx, match: m, nameLen: len(name), exported: ref.Exported, sel: ref.Sel})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("search symbols %q: %w", query, err)
	}
	cands = s.withPaths(cands)
	slices.SortFunc(cands, cmpCandidates)
	if limit > 0 && len(cands) > limit {
		cands = cands[:limit]
	}
	return s.loadHits(cands)
}

// withPaths fills in candidate paths and drops candidates whose file is
// gone (stale keys of a file deleted after the scan started).
func (s *Store) withPaths(cands []candidate) []candidate {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := cands[:0]
	for _, c := range cands {
		if h, ok := s.byID[c.id]; ok {
			c.path = h.Path
			out = append(out, c)
		}
	}
	return out
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

func (s *Store) loadHits(cands []candidate) ([]SymbolHit, error) {
	l := symbolLoader{s: s, cache: map[uint32][]extract.Symbol{}}
	hits := make([]SymbolHit, 0, len(cands))
	for _, c := range cands {
		sym, ok, err := l.symbol(c.id, c.idx)
		if err != nil {
			return nil, fmt.Errorf("load symbol of %s: %w", c.path, err)
		}
		if ok {
			hits = append(hits, SymbolHit{Path: c.path, Symbol: sym, Match: c.match})
		}
	}
	return hits, nil
}

// definitionRefs scans the name index for name. exact holds the entries
// spelled exactly like name, folded those that differ only in case.
func (s *Store) definitionRefs(name string) (exact, folded []candidate, err error) {
	err = s.scan(namePrefix(prefixSymName, name, true), func(k, v []byte) error {
		lower, id, idx, ok := parseSymNameKey(k)
		if !ok {
			return nil
		}
		ref, ok := decodeSymRef(v)
		if !ok {
			return nil
		}
		c := candidate{id: id, idx: idx, exported: ref.Exported, sel: ref.Sel, nameLen: len(name)}
		spelled := ref.Spelled
		if spelled == nil {
			spelled = lower
		}
		if string(spelled) == name {
			exact = append(exact, c)
		} else {
			c.match = matchExactFold
			folded = append(folded, c)
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("definitions of %q: %w", name, err)
	}
	return s.withPaths(exact), s.withPaths(folded), nil
}

// Definitions returns the symbols named exactly name. When none match with
// the same case, case-insensitive matches are returned instead. Results are
// ordered by path and position.
func (s *Store) Definitions(name string) ([]SymbolHit, error) {
	exact, folded, err := s.definitionRefs(name)
	if err != nil {
		return nil, err
	}
	if len(exact) == 0 {
		exact = folded
	}
	hits, err := s.loadHits(exact)
	if err != nil {
		return nil, err
	}
	sortHits(hits)
	return hits, nil
}

func sortHits(hits []SymbolHit) {
	slices.SortFunc(hits, func(a, b SymbolHit) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Symbol.Selection.Start.Line, b.Symbol.Selection.Start.Line),
			cmp.Compare(a.Symbol.Selection.Start.Col, b.Symbol.Selection.Start.Col))
	})
}

// RefHit is one occurrence of a name.
type RefHit struct {
	Path string
	Name string
	Pos  extract.Pos
	Call bool
	// Decl is set when the occurrence is the name of a definition.
	Decl bool
}

// References returns the occurrences of name (exact spelling) across the
// workspace, ordered by path and position. limit <= 0 means no limit.
func (s *Store) References(name string, limit int) ([]RefHit, error) {
	defs, _, err := s.definitionRefs(name)
	if err != nil {
		return nil, err
	}
	type loc struct {
		path string
		pos  extract.Pos
	}
	decl := make(map[loc]bool, len(defs))
	for _, d := range defs {
		decl[loc{d.path, d.sel}] = true
	}
	var hits []RefHit
	err = s.scan(namePrefix(prefixRef, name, false), func(k, v []byte) error {
		_, id, ok := parseRefKey(k)
		if !ok {
			return nil
		}
		path, ok := s.pathOf(id)
		if !ok {
			return nil
		}
		occ, err := decodeOccurrences(v)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, o := range occ {
			hits = append(hits, RefHit{Path: path, Name: name, Pos: o.Pos, Call: o.Call, Decl: decl[loc{path, o.Pos}]})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("references to %q: %w", name, err)
	}
	slices.SortFunc(hits, func(a, b RefHit) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
}

// FileReferences returns the occurrences of name in one file, for document
// highlights. It is a single point lookup.
func (s *Store) FileReferences(path, name string) ([]Occurrence, error) {
	h, ok := s.Header(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, ErrNotIndexed)
	}
	v, err := s.get(refKey(name, h.ID))
	if err != nil || v == nil {
		return nil, err
	}
	return decodeOccurrences(v)
}

// Symbols returns the symbols of one file in extractor order; Parent
// indices describe the nesting.
func (s *Store) Symbols(path string) ([]extract.Symbol, error) {
	h, ok := s.Header(path)
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, ErrNotIndexed)
	}
	v, err := s.get(idKey(prefixSymbols, h.ID))
	if err != nil || v == nil {
		return nil, err
	}
	return decodeSymbols(v)
}

// OutlineNode is a symbol with its nested children.
type OutlineNode struct {
	Symbol   extract.Symbol
	Children []*OutlineNode
}

// Outline returns the nested symbol tree of a file.
func (s *Store) Outline(path string) ([]*OutlineNode, error) {
	syms, err := s.Symbols(path)
	if err != nil {
		return nil, err
	}
	return BuildOutline(syms), nil
}

// BuildOutline nests symbols by their Parent indices. A symbol whose parent
// index is invalid (which extractors never produce) is kept at top level
// rather than dropped.
func BuildOutline(syms []extract.Symbol) []*OutlineNode {
	nodes := make([]*OutlineNode, len(syms))
	var roots []*OutlineNode
	for i := range syms {
		nodes[i] = &OutlineNode{Symbol: syms[i]}
		p := syms[i].Parent
		if p >= 0 && int(p) < i {
			nodes[p].Children = append(nodes[p].Children, nodes[i])
		} else {
			roots = append(roots, nodes[i])
		}
	}
	return roots
}
