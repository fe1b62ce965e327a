package javascan

import (
	"github.com/parleyhq/parley/index/extract"
)

// The records side of the scanner: what index/extract's generic
// tree-sitter walker (treesitter.go, treesitter_def.go) writes for a Java
// file driven by lang_java.go's table, reproduced rule by rule. The parser
// calls these in document order, as the walker visits nodes.

const (
	maxRefName = 128            // the walker's cap on a reference's name
	maxDefName = 4 * maxRefName // define's cap on a definition's name
)

// scanner is one file's lexer output, parse position and records.
type scanner struct {
	src      []byte
	toks     []tok
	i        int // the current token
	comments []comment
	ci       int // the next comment to hand to the records
	lines    []uint32
	lastLine int
	res      *extract.Result
	scopes   extract.Scopes
	doc      extract.ScanDoc
	names    extract.Names
	depth    int   // recursion depth of type declarations and bodies
	doWhiles []int // the while tokens that end pending do statements
}

// pos converts a byte offset; lookups mostly go forward a little, so the
// last line found is tried first.
func (s *scanner) pos(off uint32) extract.Pos {
	ls := s.lines
	if l := s.lastLine; l < len(ls) && ls[l] <= off {
		for k := l; k < len(ls) && k < l+4; k++ {
			if k+1 == len(ls) || ls[k+1] > off {
				s.lastLine = k
				return extract.Pos{Line: uint32(k), Col: off - ls[k]}
			}
		}
	}
	lo, hi := 0, len(ls)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if ls[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	s.lastLine = lo
	return extract.Pos{Line: uint32(lo), Col: off - ls[lo]}
}

func (s *scanner) rng(start, end uint32) extract.Range {
	return extract.Range{Start: s.pos(start), End: s.pos(end)}
}

// intern returns a shared string for b.
func (s *scanner) intern(b []byte) string { return s.names.Intern(b) }

// ref records identifier token k as a reference (the walker's ref: names
// over maxRefName bytes are dropped; the lexer's identifiers all start
// with a byte nameStart accepts). It returns the Ref's index, or -1.
func (s *scanner) ref(k int, call bool) int {
	t := s.toks[k]
	if t.end-t.start > maxRefName || t.end-t.start == 1 && s.src[t.start] == '_' && s.afterType(k) {
		// _ where a variable is declared (catch (E _), a pattern's
		// binding) is tree-sitter-java's underscore_pattern, not an
		// identifier; a lambda's parameter _ is one.
		return -1
	}
	return s.addRef(k, call)
}

// addRef records identifier token k as a reference without ref's rule
// for _: names in types and qualified names, where _ is an identifier
// to tree-sitter.
func (s *scanner) addRef(k int, call bool) int {
	t := s.toks[k]
	if t.end-t.start > maxRefName {
		return -1
	}
	s.res.Refs = append(s.res.Refs, extract.Ref{Name: s.intern(s.src[t.start:t.end]), Pos: s.pos(t.start), Call: call})
	return len(s.res.Refs) - 1
}

// afterType reports whether token k follows a type, where a declared
// name stands.
func (s *scanner) afterType(k int) bool {
	if k == 0 {
		return false
	}
	p := s.toks[k-1]
	return p.kind == tIdent || p.kind == tKw && isPrimitive(p.kw) || p.kind == tOp && (p.op == '>' || p.op == ']')
}

// flushComments hands the records the comments before offset off: the
// walker meets comments, extras, in document order among the nodes.
func (s *scanner) flushComments(off uint32) {
	for s.ci < len(s.comments) && s.comments[s.ci].start < off {
		s.comment(s.comments[s.ci])
		s.ci++
	}
}

// comment is the walker's comment: TODO markers, and the run of
// whole-line comments that may document the next definition.
func (s *scanner) comment(c comment) {
	s.doc.Comment(s.src, c.start, c.end, s.pos(c.start).Line, s.pos(c.end-1).Line, s.res)
}

// branch counts a decision point towards the innermost scope when it is
// a method's (the walker's branch).
func (s *scanner) branch() { s.scopes.Branch(1) }

// decl is one definition the parser found: a declaration's extent and
// the facts its Symbol needs.
type decl struct {
	kind      extract.SymbolKind
	start     uint32 // the declaration node's first byte (annotations included)
	sig       uint32 // the first byte not in an annotation
	name      int    // the name's token
	private   bool
	scopeKind extract.ScopeKind
}

// define records d's symbol with its range still open (end fixes it) and
// opens its scope; it returns the symbol's index, or -1 when the name is
// too long to be one (define's cap), in which case no scope opens either.
// nodeStart is where the walker visits the defining node: comments
// before it are seen first.
func (s *scanner) define(d *decl, nodeStart uint32) int32 {
	nt := s.toks[d.name]
	if nt.end-nt.start > maxDefName {
		return -1
	}
	s.flushComments(nodeStart)
	name := s.intern(s.src[nt.start:nt.end])
	container, parent := "", int32(-1)
	if sc := s.scopes.Inner(); sc != nil {
		container, parent = sc.Qual, sc.Sym
	}
	sym := extract.Symbol{
		Name: name, Kind: d.kind, Container: container, Parent: parent,
		Range:     extract.Range{Start: s.pos(d.start)},
		Selection: s.rng(nt.start, nt.end),
		Signature: extract.SignatureAt(s.src, int(d.sig)),
		Doc:       s.doc.For(s.src, s.pos(d.start).Line, d.start),
	}
	if !s.scopes.InFunc() {
		sym.Exported = !d.private
	}
	idx := int32(len(s.res.Symbols))
	s.res.Symbols = append(s.res.Symbols, sym)
	if d.scopeKind != extract.ScopeNone {
		s.scopes = append(s.scopes, extract.Scope{Sym: idx, Qual: extract.JoinQual(container, name), Kind: d.scopeKind})
	}
	return idx
}

// end closes symbol idx at byte end, and its scope when it opened one.
func (s *scanner) end(idx int32, d *decl, end uint32) {
	if idx < 0 {
		return
	}
	s.res.Symbols[idx].Range.End = s.pos(end)
	if d.scopeKind != extract.ScopeNone {
		s.scopes.Close(s.res.Symbols)
	}
}
