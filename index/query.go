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

type candidate struct {
	id, idx  uint32
	match    int
	nameLen  int
	exported bool
	path     string
	sel      extract.Pos
	// Filled by rankNames for SearchNames.
	kind      extract.SymbolKind
	container string
	name      string
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
// Camel-case, substring and fuzzy matches can be anywhere in the name
// space, so every distinct name is classified, from the resident name
// table (names.go); symbol records are decoded for the returned hits
// alone.
func (s *Store) SearchSymbols(query string, limit int) ([]SymbolHit, error) {
	cands, err := s.rankNames(query, limit)
	if err != nil {
		return nil, err
	}
	return s.loadHits(cands)
}

// NameHit is a light SearchNames result: what a workspace-symbol answer
// shows, without the symbol's full record.
type NameHit struct {
	Path      string
	Name      string
	Kind      extract.SymbolKind
	Container string
	// Selection is the name's range (one line).
	Selection extract.Range
	Exported  bool
	Match     int
}

// SearchNames ranks like SearchSymbols but answers from the resident name
// table alone, without decoding any symbol record: the path for
// as-you-type symbol pickers.
func (s *Store) SearchNames(query string, limit int) ([]NameHit, error) {
	cands, err := s.rankNames(query, limit)
	if err != nil {
		return nil, err
	}
	hits := make([]NameHit, len(cands))
	for i := range cands {
		hits[i] = cands[i].nameHit()
	}
	return hits, nil
}

// rankNames returns the best limit candidates for query, in result order.
func (s *Store) rankNames(query string, limit int) ([]candidate, error) {
	lq := appendLower(nil, query)
	t := &s.names
	t.mu.Lock()
	if err := t.current(s); err != nil {
		t.mu.Unlock()
		return nil, fmt.Errorf("search symbols %q: %w", query, err)
	}
	// Pass 1 classifies each distinct name and counts postings per rank
	// key; pass 2 emits only the candidates at or above the cutoff, so a
	// one-letter query does not build a candidate per workspace symbol.
	// Exact and prefix classes are cheap; the camel-case, substring and
	// fuzzy tests run only when the cheap classes leave room under limit.
	qmask := charMask(lq)
	classes := make([]uint8, len(t.entries))
	var counts [rankKeys]int
	cheap, maybe := 0, 0
	for i := range t.entries {
		e := &t.entries[i]
		m := matchNone
		if len(e.posts) > 0 && e.mask&qmask == qmask {
			m = classifyCheap(e.name, e.lower, query, lq)
		}
		classes[i] = uint8(m)
		switch m {
		case matchNone:
			continue
		case matchLater:
			maybe++
			continue
		}
		for _, p := range e.posts {
			counts[rankKey(m, p.exported, len(e.name))]++
			cheap++
		}
	}
	if maybe > 0 {
		skip := limit > 0 && cheap >= limit
		for i := range t.entries {
			if classes[i] != matchLater {
				continue
			}
			e := &t.entries[i]
			m := matchNone
			if !skip {
				m = classify(e.name, e.lower, query, lq)
			}
			classes[i] = uint8(m)
			if m == matchNone {
				continue
			}
			for _, p := range e.posts {
				counts[rankKey(m, p.exported, len(e.name))]++
			}
		}
	}
	cut := rankKeys
	if limit > 0 {
		n := 0
		for k, c := range counts {
			if n += c; n >= limit {
				cut = k
				break
			}
		}
	}
	var cands []candidate
	for i := range t.entries {
		m := int(classes[i])
		if m == matchNone {
			continue
		}
		e := &t.entries[i]
		for _, p := range e.posts {
			if rankKey(m, p.exported, len(e.name)) <= cut {
				cands = append(cands, candidate{id: p.id, idx: p.idx, match: m, nameLen: len(e.name), exported: p.exported, sel: p.sel,
					kind: p.kind, container: p.container, name: string(e.name)})
			}
		}
	}
	t.mu.Unlock()
	cands = s.withPaths(cands)
	slices.SortFunc(cands, cmpCandidates)
	if limit > 0 && len(cands) > limit {
		cands = cands[:limit]
	}
	return cands, nil
}

// rankKey orders candidates like cmpCandidates up to the path: match
// class, exported first, shorter names first (lengths above rankLens-1
// tie). It takes few values, so a count per key finds the cutoff for a
// limit without sorting; candidates tied at the cutoff are all kept and
// the path decides among them.
func rankKey(match int, exported bool, nameLen int) int {
	k := match * 2 * rankLens
	if !exported {
		k += rankLens
	}
	return k + min(nameLen, rankLens-1)
}

const (
	rankLens = 256
	rankKeys = (matchNone + 1) * 2 * rankLens
)

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
	// One decode per file, keeping only the strings of the hits.
	want := map[uint32]map[uint32]bool{}
	for _, c := range cands {
		if want[c.id] == nil {
			want[c.id] = map[uint32]bool{}
		}
		want[c.id][c.idx] = true
	}
	syms := make(map[uint32][]extract.Symbol, len(want))
	for id, keep := range want {
		v, err := s.get(idKey(prefixSymbols, id))
		if err != nil {
			return nil, fmt.Errorf("load symbols of file %d: %w", id, err)
		}
		if v == nil {
			continue
		}
		if syms[id], err = decodeSymbolsKeep(v, keep); err != nil {
			return nil, fmt.Errorf("load symbols of file %d: %w", id, err)
		}
	}
	hits := make([]SymbolHit, 0, len(cands))
	for _, c := range cands {
		if ss := syms[c.id]; int(c.idx) < len(ss) {
			hits = append(hits, SymbolHit{Path: c.path, Symbol: ss[c.idx], Match: c.match})
		}
	}
	return hits, nil
}

// NameEntry is one declaration of a name as the name index holds it,
// without its symbol record decoded: enough for a resolver to filter a
// common name's hundreds of declarations by file, kind and container
// before decoding the few that pass (SymbolsOf, or Symbols of the file).
type NameEntry struct {
	Path      string
	Index     uint32 // the symbol's index in its file's Symbols
	Kind      extract.SymbolKind
	Container string
	id        uint32 // the file's
}

// NameEntries returns the name index's entries spelled exactly name, in
// file and symbol order: from the resident name table when a search has
// loaded it (the language server does at start), else from a scan of the
// name index.
func (s *Store) NameEntries(name string) ([]NameEntry, error) {
	exact, ok, err := s.residentEntries(name)
	if !ok {
		exact, _, err = s.definitionRefs(name)
	}
	if err != nil {
		return nil, err
	}
	out := make([]NameEntry, len(exact))
	for i, c := range exact {
		out[i] = NameEntry{Path: c.path, Index: c.idx, Kind: c.kind, Container: c.container, id: c.id}
	}
	return out, nil
}

// residentEntries is definitionRefs's exact half from the resident name
// table, ok false when no search has loaded it: a completion looks up
// two dozen names at every keystroke, and a scan of Pebble each was half
// of the request's time.
func (s *Store) residentEntries(name string) (exact []candidate, ok bool, err error) {
	t := &s.names
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.built {
		return nil, false, nil
	}
	if err := t.current(s); err != nil {
		return nil, true, fmt.Errorf("definitions of %q: %w", name, err)
	}
	i, found := t.byName[name]
	if !found {
		return nil, true, nil
	}
	posts := t.entries[i].posts
	exact = make([]candidate, len(posts))
	for j, p := range posts {
		exact[j] = candidate{id: p.id, idx: p.idx, exported: p.exported, sel: p.sel, nameLen: len(name),
			kind: p.kind, container: p.container, name: name}
	}
	slices.SortFunc(exact, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.idx, b.idx))
	})
	return s.withPaths(exact), true, nil
}

// SymbolsOf decodes the symbols entries name, one decode per file, in
// entries' order.
func (s *Store) SymbolsOf(entries []NameEntry) ([]SymbolHit, error) {
	cands := make([]candidate, len(entries))
	for i, e := range entries {
		cands[i] = candidate{id: e.id, idx: e.Index, path: e.Path}
	}
	return s.loadHits(cands)
}

// SortHits orders hits by path and position, as Definitions answers.
func SortHits(hits []SymbolHit) { sortHits(hits) }

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
		spelled := ref.Spelled
		if spelled == nil {
			spelled = lower
		}
		c := candidate{id: id, idx: idx, exported: ref.Exported, sel: ref.Sel, nameLen: len(name),
			kind: ref.Kind, container: string(ref.Container), name: string(spelled)}
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

// DefinitionSites is Definitions without the symbol records: where each
// definition's name is, from the name index alone. A language server's
// go-to-definition needs nothing more, and common names (String, Close)
// have hundreds of definitions.
func (s *Store) DefinitionSites(name string) ([]NameHit, error) {
	exact, folded, err := s.definitionRefs(name)
	if err != nil {
		return nil, err
	}
	if len(exact) == 0 {
		exact = folded
	}
	hits := make([]NameHit, len(exact))
	for i, c := range exact {
		hits[i] = c.nameHit()
	}
	slices.SortFunc(hits, func(a, b NameHit) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Selection.Start.Line, b.Selection.Start.Line),
			cmp.Compare(a.Selection.Start.Col, b.Selection.Start.Col))
	})
	return hits, nil
}

// NameHit drops what a NameHit does not carry.
func (h SymbolHit) NameHit() NameHit {
	s := &h.Symbol
	return NameHit{Path: h.Path, Name: s.Name, Kind: s.Kind, Container: s.Container,
		Selection: s.Selection, Exported: s.Exported, Match: h.Match}
}

func (c *candidate) nameHit() NameHit {
	end := c.sel
	end.Col += uint32(len(c.name))
	return NameHit{Path: c.path, Name: c.name, Kind: c.kind, Container: c.container,
		Selection: extract.Range{Start: c.sel, End: end}, Exported: c.exported, Match: c.match}
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
	// Sel, Import and Operand are the occurrence's (see Occurrence).
	Sel     bool
	Import  uint16
	Operand uint32
	// Uncertain is set by DeclReferences on a reference the syntax
	// allows but cannot confirm (x.F where x's type is unknown, a file
	// for another platform).
	Uncertain bool
	// Ambiguous is set with Uncertain when x's type is unknown and
	// another declaration of the name (another type's member) could be
	// meant; an unknown x.F is not ambiguous when the declaration asked
	// about is the only one it can mean.
	Ambiguous bool
}

// References returns the occurrences of name (exact spelling) across the
// workspace, ordered by path and position. limit <= 0 means no limit.
func (s *Store) References(name string, limit int) ([]RefHit, error) {
	defs, _, err := s.definitionRefs(name)
	if err != nil {
		return nil, err
	}
	// Declarations by file, looked up once per file rather than per hit.
	decl := make(map[string][]extract.Pos, len(defs))
	for _, d := range defs {
		decl[d.path] = append(decl[d.path], d.sel)
	}
	// Each file's occurrences are stored in position order, so sorting
	// the files by path orders the whole answer: thousands of files
	// rather than a hundred thousand occurrences for a name like err.
	type group struct {
		path string
		occ  []Occurrence
	}
	var groups []group
	total := 0
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
		groups = append(groups, group{path, occ})
		total += len(occ)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("references to %q: %w", name, err)
	}
	slices.SortFunc(groups, func(a, b group) int { return cmp.Compare(a.path, b.path) })
	if limit > 0 {
		total = min(total, limit)
	}
	hits := make([]RefHit, 0, total)
	for _, g := range groups {
		decls := decl[g.path]
		for _, o := range g.occ {
			if limit > 0 && len(hits) == limit {
				return hits, nil
			}
			hits = append(hits, RefHit{Path: g.path, Name: name, Pos: o.Pos, Call: o.Call, Decl: slices.Contains(decls, o.Pos), Sel: o.Sel, Import: o.Import, Operand: o.Operand})
		}
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
