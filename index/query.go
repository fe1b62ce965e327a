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
	id, idx uint32
	match   int
	nameLen int
}

// SearchSymbols finds symbols whose names match query: exact, then
// case-insensitive exact, prefix, camel-case, substring and fuzzy matches.
// Within a class, exported symbols and shorter names come first. limit <= 0
// means no limit.
func (s *Store) SearchSymbols(query string, limit int) ([]SymbolHit, error) {
	lq := appendLower(nil, query)
	var cands []candidate
	// Camel-case, substring and fuzzy matches can be anywhere in the key
	// space, so this is a full scan of the name index (keys only, no values
	// decoded): about 20 ms per 400k symbols.
	err := s.scan([]byte{prefixSymName}, func(k, v []byte) error {
		lower, id, idx, ok := parseSymNameKey(k)
		if !ok {
			return nil
		}
		name := string(lower)
		if len(v) > 0 {
			name = string(v)
		}
		if m := classify(name, lower, query, lq); m != matchNone {
			cands = append(cands, candidate{id: id, idx: idx, match: m, nameLen: len(name)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("search symbols %q: %w", query, err)
	}
	slices.SortFunc(cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.match, b.match), cmp.Compare(a.nameLen, b.nameLen))
	})
	// Exported-first ordering needs the records; decode a margin beyond the
	// limit so the final order is right within the returned prefix.
	if limit > 0 && len(cands) > 4*limit+64 {
		cut := 4*limit + 64
		for cut < len(cands) && cands[cut].match == cands[cut-1].match && cands[cut].nameLen == cands[cut-1].nameLen {
			cut++
		}
		cands = cands[:cut]
	}
	hits, err := s.loadHits(cands)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(hits, func(a, b SymbolHit) int {
		return cmp.Or(
			cmp.Compare(a.Match, b.Match),
			-cmpBool(a.Symbol.Exported, b.Symbol.Exported),
			cmp.Compare(len(a.Symbol.Name), len(b.Symbol.Name)),
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Symbol.Selection.Start.Line, b.Symbol.Selection.Start.Line))
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, nil
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
		path, ok := s.pathOf(c.id)
		if !ok {
			continue // stale index key of a deleted file
		}
		sym, ok, err := l.symbol(c.id, c.idx)
		if err != nil {
			return nil, fmt.Errorf("load symbol of %s: %w", path, err)
		}
		if ok {
			hits = append(hits, SymbolHit{Path: path, Symbol: sym, Match: c.match})
		}
	}
	return hits, nil
}

// Definitions returns the symbols named exactly name. When none match with
// the same case, case-insensitive matches are returned instead. Results are
// ordered by path and line.
func (s *Store) Definitions(name string) ([]SymbolHit, error) {
	var exact, folded []candidate
	err := s.scan(namePrefix(prefixSymName, name, true), func(k, v []byte) error {
		lower, id, idx, ok := parseSymNameKey(k)
		if !ok {
			return nil
		}
		spelled := string(lower)
		if len(v) > 0 {
			spelled = string(v)
		}
		c := candidate{id: id, idx: idx}
		if spelled == name {
			exact = append(exact, c)
		} else {
			c.match = matchExactFold
			folded = append(folded, c)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("definitions of %q: %w", name, err)
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
	defs, err := s.Definitions(name)
	if err != nil {
		return nil, err
	}
	type loc struct {
		path string
		pos  extract.Pos
	}
	decl := map[loc]bool{}
	for _, d := range defs {
		if d.Symbol.Name == name {
			decl[loc{d.Path, d.Symbol.Selection.Start}] = true
		}
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
