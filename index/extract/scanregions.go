package extract

import (
	"bytes"
	"fmt"
	"sort"
)

// A scanner that cannot read one declaration of a file need not give
// the whole file up: tree-sitter's cost grows with the bytes it reads
// (and far more than linearly around its error recovery), and on the
// C and C++ headers a scanner declined, the construct it could not read
// (an __asm__ statement, a GNU extension) was a few hundred bytes of a
// file of tens of kilobytes. Regions carries the records of the rest.

// Span is the byte range [Start, End) of a file.
type Span struct{ Start, End uint32 }

// Regions is a scanner's answer for a file it read in part; it is
// returned as the scanner's error, so that every caller not prepared
// for it declines the whole file as before. Res holds the records of
// everything outside Spans, which are whole top-level items (with the
// comments before them) in document order, disjoint. Tree-sitter parses
// a copy of the file in which only the bytes of Spans and of Keep (the
// directive lines of the conditionals enclosing a span, so that each
// span is parsed nested as in the file) are left, every other byte but
// a line break blanked (compact); the walker's records inside Spans
// are merged into Res in document order. Where tree-sitter's tree of the whole
// file has no error, the merged result equals the whole file's: a
// top-level item's subtree does not depend on the items around it.
type Regions struct {
	Res *Result
	// Masked is the source as the scanner read it, the language's mask
	// applied (CMask, CppMask), which tree-sitter then reads blanked:
	// the mask is not computed twice.
	Masked []byte
	Spans  []Span
	Keep   []Span
	// Dedupe lists the kinds the language's walker records once per
	// parent and name (the topOnly rules: a redeclared variable), which
	// the merge applies again across the two halves.
	Dedupe []SymbolKind
	Why    string // why the first span was not read
}

func (r *Regions) Error() string {
	return fmt.Sprintf("scanner read all but %d regions (first: %s)", len(r.Spans), r.Why)
}

// compact returns what tree-sitter parses of a file read in part
// (masked: the source as the language's mask leaves it, every byte
// outside Spans and Keep blanked) and the text the walker reads names,
// signatures and docs from (orig), both without the blanks of the
// lines left empty: each such line is a bare line break, and every
// other line whole, so that a node's line and column are those of the
// file. Blank lines made up 3/4 of the bytes tree-sitter read of Boost's
// headers, and it lexes blanks one by one: parsing the compacted
// copies took 15-20% less time.
func (r *Regions) compact(orig, masked []byte) (o, m []byte) {
	b := make([]byte, len(masked))
	for i, c := range masked {
		if c == '\n' {
			b[i] = '\n'
		} else {
			b[i] = ' '
		}
	}
	kept := 0
	for _, set := range [][]Span{r.Spans, r.Keep} {
		for _, s := range set {
			copy(b[s.Start:s.End], masked[s.Start:s.End])
			kept += int(s.End - s.Start)
		}
	}
	o, m = make([]byte, 0, 2*kept), make([]byte, 0, 2*kept)
	for ls := 0; ls < len(b); {
		le := len(b)
		if i := bytes.IndexByte(b[ls:], '\n'); i >= 0 {
			le = ls + i + 1
		}
		if len(bytes.TrimSpace(b[ls:le])) > 0 {
			o, m = append(o, orig[ls:le]...), append(m, b[ls:le]...)
		} else if b[le-1] == '\n' {
			o, m = append(o, '\n'), append(m, '\n')
		}
		ls = le
	}
	return o, m
}

// key places offset off among the spans: 2k for the gap before span k,
// 2k+1 inside span k. Records merge in key order, each half keeping its
// own order within a key.
func (r *Regions) key(off uint32) int {
	k := sort.Search(len(r.Spans), func(i int) bool { return r.Spans[i].Start > off })
	if k > 0 && off < r.Spans[k-1].End {
		return 2*(k-1) + 1
	}
	return 2 * k
}

// merge returns the scanner's records with the walker's (w, from the
// blanked copy of src) inside the spans.
func (r *Regions) merge(w *Result, src []byte) *Result {
	lines := LineStarts(src, nil)
	off := func(p Pos) uint32 {
		if int(p.Line) >= len(lines) {
			return uint32(len(src))
		}
		return lines[p.Line] + p.Col
	}
	in := func(p Pos) bool { return r.key(off(p))&1 == 1 }
	res := r.Res
	res.Symbols = r.mergeSymbols(res.Symbols, w.Symbols, off, in)
	res.Refs = mergeBy(res.Refs, filter(w.Refs, func(x Ref) bool { return in(x.Pos) }),
		func(x Ref) int { return r.key(off(x.Pos)) })
	keepOnly := r.keepOnlyLines(src, lines)
	byLine := func(line uint32) int { return int(line) }
	res.Imports = mergeBy(res.Imports, filter(w.Imports, func(x Import) bool { return !keepOnly[x.Line] }),
		func(x Import) int { return byLine(x.Line) })
	res.Todos = mergeBy(res.Todos, filter(w.Todos, func(x Todo) bool { return !keepOnly[x.Line] }),
		func(x Todo) int { return byLine(x.Line) })
	if res.Package == "" {
		res.Package = w.Package
	}
	return res
}

// keepOnlyLines are the lines of Keep that no span touches: what the
// walker records there (a TODO in an #endif's comment) is the scanner's.
func (r *Regions) keepOnlyLines(src []byte, lines []uint32) map[uint32]bool {
	if len(r.Keep) == 0 {
		return nil
	}
	m := map[uint32]bool{}
	for _, s := range r.Keep {
		if s.End <= s.Start {
			continue
		}
		a, b := PosOf(lines, s.Start).Line, PosOf(lines, s.End-1).Line
		for l := a; l <= b; l++ {
			m[l] = true
		}
	}
	for _, s := range r.Spans {
		if s.End <= s.Start {
			continue
		}
		a, b := PosOf(lines, s.Start).Line, PosOf(lines, s.End-1).Line
		for l := a; l <= b; l++ {
			delete(m, l)
		}
	}
	return m
}

// mergeSymbols merges the scanner's symbols (sc) with the walker's
// inside the spans, by their names' keys, remapping parents: a walker
// symbol's parent outside the spans (a C++ namespace whose braces were
// kept) is the scanner's symbol of the same name range.
func (r *Regions) mergeSymbols(sc, wk []Symbol, off func(Pos) uint32, in func(Pos) bool) []Symbol {
	keepW := make([]int32, len(wk)) // new index, or -1
	bySel := map[Range]int32{}
	for i := range sc {
		bySel[sc[i].Selection] = int32(i)
	}
	out := make([]Symbol, 0, len(sc)+len(wk))
	newSc := make([]int32, len(sc))
	i, j := 0, 0
	for i < len(sc) || j < len(wk) {
		if j < len(wk) && !in(wk[j].Selection.Start) {
			keepW[j] = -1
			j++
			continue
		}
		takeW := i >= len(sc) || j < len(wk) && r.key(off(wk[j].Selection.Start)) < r.key(off(sc[i].Selection.Start))
		if takeW {
			keepW[j] = int32(len(out))
			s := wk[j]
			switch p := s.Parent; {
			case p < 0:
			case keepW[p] >= 0:
				s.Parent = keepW[p]
			default:
				s.Parent = -1
				if q, ok := bySel[wk[p].Selection]; ok {
					s.Parent = newSc[q]
				}
			}
			out = append(out, s)
			j++
			continue
		}
		newSc[i] = int32(len(out))
		s := sc[i]
		if s.Parent >= 0 {
			s.Parent = newSc[s.Parent]
		}
		out = append(out, s)
		i++
	}
	return dedupe(out, r.Dedupe)
}

// dedupe drops the second and later symbols of a kind in kinds with one
// parent and name, as the walker's topOnly rules do, renumbering
// parents.
func dedupe(syms []Symbol, kinds []SymbolKind) []Symbol {
	if len(kinds) == 0 {
		return syms
	}
	type key struct {
		parent int32
		name   string
	}
	seen := map[key]bool{}
	idx := make([]int32, len(syms))
	out := syms[:0]
	for i, s := range syms {
		if s.Parent >= 0 {
			s.Parent = idx[s.Parent] // -1 for a dropped parent, which has no children
		}
		if containsKind(kinds, s.Kind) {
			k := key{s.Parent, s.Name}
			if seen[k] {
				idx[i] = -1
				continue
			}
			seen[k] = true
		}
		idx[i] = int32(len(out))
		out = append(out, s)
	}
	return out
}

func containsKind(kinds []SymbolKind, k SymbolKind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

func filter[T any](xs []T, keep func(T) bool) []T {
	out := xs[:0:0]
	for _, x := range xs {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}

// mergeBy merges a and b, each in non-decreasing key order, keeping
// each one's order within a key; a's come first on equal keys.
func mergeBy[T any](a, b []T, key func(T) int) []T {
	if len(b) == 0 {
		return a
	}
	out := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if key(b[j]) < key(a[i]) {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}
