package extract

import "sync"

// Go extraction in two passes, because parsing function bodies into an AST
// was two thirds of the cost of indexing GOROOT and bodies contribute no
// symbols:
//
//  1. One lexer pass (goLexer) over the whole file collects what needs only
//     tokens: every identifier (each IDENT token is exactly one ast.Ident),
//     whether it is followed by "(", the branch tokens that cyclomatic
//     complexity counts (if, for, case, &&, ||; the same set the AST
//     version counted), comments for TODO markers, and the byte ranges of
//     top-level function bodies.
//  2. go/parser then parses a copy of the file with those bodies emptied
//     for declarations, doc comments, fields and signatures; an offsetMap
//     takes its positions back to the original text.

// goTokens is what the scan pass found.
type goTokens struct {
	idents   []goIdent
	branches []int    // offsets of complexity tokens
	bodies   [][2]int // [lbrace, rbrace] offsets of top-level func bodies
	comments []goComment
	defs     []goDef    // local declarations, in source order
	keys     [][2]int32 // composite literal keys (golang_keys.go)
	// lines are the offsets of every line start. They come from the scan,
	// which always reads the whole input, unlike the parser, which gives up
	// early on broken files.
	lines []int
	// scratch holds the pooled buffers that idents, defs and lines live
	// in until release.
	scratch *goScratch
}

// goScratch is the per-file working memory of scanGo.
type goScratch struct {
	idents []goIdent
	defs   []goDef
	lines  []int
}

// release returns the buffers to their pool; t's slices must not be used
// afterwards. Callers that never release merely leave the buffers to the
// garbage collector.
func (t *goTokens) release() {
	if sc := t.scratch; sc != nil {
		sc.idents, sc.defs, sc.lines = t.idents[:0], t.defs[:0], t.lines[:0]
		scanScratch.Put(sc)
		t.scratch, t.idents, t.defs, t.lines = nil, nil, nil, nil
	}
}

// goIdent's fields are ordered so that it packs into 32 bytes (40 with
// qual after the flags): a file has one per ~19 bytes of source.
type goIdent struct {
	name string
	off  int
	// qual is the index of the identifier right before the "." (x in
	// x.F), or -1. qualCall says that identifier was called: x() in
	// x().F, a.m() in a.m().F.
	qual     int32
	paren    bool // next token is "("
	sel      bool // previous token is "." (x.F)
	qualCall bool
}

type goComment struct {
	text string
	off  int
}

// scanScratch holds the identifiers, local declarations and line starts
// of a file being extracted. Guessing their counts from the file size
// either over-allocated (half the files have one identifier per 19 bytes
// or more) or grew the slices by copying (a tenth have more than one per
// 12), and the identifiers alone were a third of the bytes Go extraction
// allocates. Nothing keeps these past extraction (refs copies the names,
// which are interned strings, and positions), so the buffers go back to
// the pool when extractGo is done rather than being copied out: a copy
// of the identifiers at their exact length was still a seventh of the
// bytes allocated, and growing defs and lines a tenth.
var scanScratch = sync.Pool{New: func() any { return new(goScratch) }}

// scanGo tokenizes src with goLexer. Lexical errors are ignored here: the
// parse pass reports syntax problems.
func scanGo(src []byte) *goTokens {
	scratch := scanScratch.Get().(*goScratch)
	l := newGoLexer(src, scratch.lines[:0])
	t := &goTokens{idents: scratch.idents[:0], scratch: scratch}
	var b bodyFinder
	d := declScanner{src: src, defs: scratch.defs[:0]}
	prev := tOther
	// brackets remembers, per open "[", the identifier before it (or -1),
	// so that f[T](x) marks f like f(x).
	var brackets []int
	closed := -1
	// parens remembers, per open "(", the identifier called by it (or
	// -1), so that f().F knows its operand is f's result.
	var parens []int
	called := -1    // the callee whose ")" was the previous token
	prevIdent := -1 // index of the identifier just scanned, if any
	dotQual := -1   // after a ".": the identifier before it, if any
	dotCall := false
	names := newInterner(len(src))
	var keys keyScan
	for {
		tok, off, end := l.next()
		switch tok {
		case tEOF:
			t.lines, t.defs, t.keys = l.lines, d.defs, keys.keys
			names.release()
			return t
		case tComment:
			if text := src[off:end]; hasTodoTag(text) {
				t.comments = append(t.comments, goComment{text: string(text), off: off})
			}
			continue // comments do not separate an identifier from its "("
		case tIdent:
			if end-off != 1 || src[off] != '_' {
				id := goIdent{name: names.intern(src[off:end]), off: off, qual: -1}
				if prev == tDot {
					id.sel, id.qual, id.qualCall = true, int32(dotQual), dotCall
				}
				t.idents = append(t.idents, id)
				prevIdent = len(t.idents) - 1
				keys.ident(prev)
				d.step(tok, off, end, prevIdent, prev)
				prev = tok
				continue
			}
		case tLParen:
			callee := prevIdent
			if prevIdent >= 0 {
				t.idents[prevIdent].paren = true
			} else if prev == tRBrack && closed >= 0 {
				t.idents[closed].paren = true
				callee = closed
			}
			parens = append(parens, callee)
		case tRParen:
			called = -1
			if n := len(parens); n > 0 {
				called, parens = parens[n-1], parens[:n-1]
			}
		case tLBrack:
			brackets = append(brackets, prevIdent)
		case tRBrack:
			closed = -1
			if n := len(brackets); n > 0 {
				closed, brackets = brackets[n-1], brackets[:n-1]
			}
		case tBranch:
			t.branches = append(t.branches, off)
		case tDot:
			dotQual, dotCall = prevIdent, false
			if prev == tRParen && called >= 0 {
				dotQual, dotCall = called, true
			}
		}
		d.step(tok, off, end, -1, prev)
		keys.step(tok, src, off, end, len(parens)+len(brackets), prevIdent, prev)
		if body, ok := b.step(tok, off); ok {
			t.bodies = append(t.bodies, body)
		}
		prev, prevIdent = tok, -1
	}
}

// interner gives every occurrence of a name in one file the same string: a
// name recurs ~15 times on average. It is an open-addressing table with
// linear probing and FNV-1a over the identifier's few bytes. The Go map
// keyed by the converted []byte that it replaces was about a fifth of
// scanGo (general-purpose hashing and probing, and rehashing as the map
// grew); with this table scanGo is 8% faster over GOROOT/src.
type interner struct {
	slots []internSlot // len is a power of two, at most half full
	n     int
}

type internSlot struct {
	hash uint32
	name string
}

// newInterner sizes the table for the distinct names of a file of the
// given size (an identifier every ~12 bytes, each name recurring ~15
// times), so that it rarely grows. The slots come from a pool (see
// internSlots) when one large enough is free.
func newInterner(size int) *interner {
	n := 64
	for n < size/90 {
		n <<= 1
	}
	if p := internSlots.Get(); p != nil {
		if slots := *p.(*[]internSlot); cap(slots) >= n {
			// Up to four times the estimate, when the pooled table has
			// it, for the price of clearing it: 46% of GOROOT/src's Go
			// files outgrow the estimate, 2% four times it.
			slots = slots[:min(cap(slots), 4*n)]
			clear(slots)
			return &interner{slots: slots}
		}
	}
	return &interner{slots: make([]internSlot, n)}
}

// internSlots recycles interner tables between files: allocating them
// afresh (and again as they grew) was a tenth of the bytes Go extraction
// allocated. Only the table is reused; the strings it hands out are new
// for each file and outlive it in the refs.
var internSlots sync.Pool

// release gives the table back to internSlots; t must not be used after.
func (t *interner) release() {
	slots := t.slots[:cap(t.slots)]
	t.slots = nil
	internSlots.Put(&slots)
}

func (t *interner) intern(b []byte) string {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	mask := uint32(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.name == "" {
			s.hash, s.name = h, string(b)
			if t.n++; 2*t.n > len(t.slots) {
				t.grow()
			}
			return s.name
		}
		if s.hash == h && s.name == string(b) {
			return s.name
		}
	}
}

func (t *interner) grow() {
	old := t.slots
	t.slots = make([]internSlot, 2*len(old))
	mask := uint32(len(t.slots) - 1)
	for _, s := range old {
		if s.name == "" {
			continue
		}
		i := s.hash & mask
		for t.slots[i].name != "" {
			i = (i + 1) & mask
		}
		t.slots[i] = s
	}
}

// bodyFinder recognises the spans the parser can skip: the body of each
// top-level func declaration (the first "{" after "func" at nesting depth
// zero that does not open a struct or interface type literal), and the
// braces of composite literals in top-level var and const values, which in
// table-heavy code (unicode tables, syscall constants) outweigh everything
// else. Both kinds are emptied the same way.
type bodyFinder struct {
	depth     int  // brace depth
	inSig     bool // after a top-level "func", before its body
	nest      int  // parens and brackets inside the signature
	typeLit   int  // open struct/interface braces inside a signature or value
	pendingTL bool // saw struct/interface; its "{" is a type literal
	bodyStart int
	inBody    bool
	inVar     bool // inside a top-level var or const declaration
	inValue   bool // after its "="
}

func (b *bodyFinder) step(tok lexTok, off int) (body [2]int, done bool) {
	switch {
	case b.inBody:
		switch tok {
		case tLBrace:
			b.depth++
		case tRBrace:
			b.depth--
			if b.depth == 0 {
				b.inBody = false
				return [2]int{b.bodyStart, off}, true
			}
		}
	case b.inSig:
		b.signature(tok, off)
	case b.depth == 0 && b.inValue:
		b.value(tok, off)
	default:
		b.topLevel(tok)
	}
	return [2]int{}, false
}

func (b *bodyFinder) topLevel(tok lexTok) {
	switch tok {
	case tFunc:
		if b.depth == 0 {
			b.inSig, b.nest, b.typeLit, b.pendingTL = true, 0, 0, false
			b.inVar, b.inValue = false, false
		}
	case tVar:
		if b.depth == 0 {
			b.inVar = true
		}
	case tType:
		if b.depth == 0 {
			b.inVar = false
		}
	case tAssign:
		if b.depth == 0 && b.inVar {
			b.inValue, b.typeLit, b.pendingTL = true, 0, false
		}
	case tLBrace:
		b.depth++
	case tRBrace:
		if b.depth > 0 {
			b.depth--
		}
	}
}

// value handles tokens of a top-level var/const value: a "{" that does not
// open a type literal starts a composite literal to empty.
func (b *bodyFinder) value(tok lexTok, off int) {
	// Inside a type literal ("[...]struct{ a int; f func() }{...}") a
	// field's ";" or "func" belongs to the type, not to the value.
	if b.typeLiteral(tok) || b.typeLit > 0 {
		return
	}
	switch tok {
	case tLBrace:
		b.inBody, b.depth, b.bodyStart = true, 1, off
		// A literal is a body without a signature; when it closes, depth
		// is back to zero and inValue still holds for what follows
		// ("T{...}, U{...}").
	case tFunc:
		// A func literal value: its body is found like a declaration's.
		b.inSig, b.nest, b.typeLit, b.pendingTL = true, 0, 0, false
	case tSemi:
		b.inValue = false
	case tType:
		b.inVar, b.inValue = false, false
	case tVar:
		b.inValue = false
	}
}

// typeLiteral tracks the braces of struct and interface type literals and
// reports whether it consumed tok.
func (b *bodyFinder) typeLiteral(tok lexTok) bool {
	switch tok {
	case tTypeLit:
		b.pendingTL = true
		return true
	case tLBrace:
		if b.pendingTL || b.typeLit > 0 {
			b.typeLit++
			b.pendingTL = false
			return true
		}
	case tRBrace:
		if b.typeLit > 0 {
			b.typeLit--
			return true
		}
	}
	return false
}

func (b *bodyFinder) signature(tok lexTok, off int) {
	if b.typeLiteral(tok) {
		return
	}
	switch tok {
	case tLParen, tLBrack:
		b.nest++
	case tRParen, tRBrack:
		b.nest--
	case tLBrace:
		if b.nest <= 0 {
			b.inSig, b.inBody, b.depth, b.bodyStart = false, true, 1, off
		}
	case tSemi:
		// A declaration without a body (assembly-implemented functions).
		if b.nest <= 0 && b.typeLit == 0 {
			b.inSig = false
		}
	}
}

// compactBodies returns a copy of src with the inside of every body
// removed ("{...}" becomes "{}") and the map from offsets in the copy back
// to offsets in src. Removing rather than blanking matters: the parser's
// scanner otherwise still walks every byte of whitespace.
func compactBodies(src []byte, bodies [][2]int) ([]byte, *offsetMap) {
	m := &offsetMap{}
	if len(bodies) == 0 {
		return src, m
	}
	size, prev := len(src), 0
	for _, b := range bodies {
		if lb, rb := b[0], b[1]; lb >= prev && rb <= len(src) && rb > lb {
			size -= rb - lb - 1
			prev = rb
		}
	}
	out := make([]byte, 0, size) // exact: regrowing it cost a copy of the file
	prev, removed := 0, 0
	for _, b := range bodies {
		lb, rb := b[0], b[1]
		if lb < prev || rb > len(src) || rb <= lb {
			continue
		}
		out = append(out, src[prev:lb+1]...)
		m.at = append(m.at, len(out)) // the offset of "}" in the copy
		removed += rb - lb - 1
		m.shift = append(m.shift, removed)
		prev = rb
	}
	out = append(out, src[prev:]...)
	return out, m
}

// offsetMap translates offsets in a compacted copy back to the original.
type offsetMap struct {
	at    []int // copy offsets at which a removal took effect, ascending
	shift []int // total bytes removed up to and including that removal
}

func (m *offsetMap) orig(c int) int {
	i := searchInts(m.at, c+1) // removals at or before c
	if i == 0 {
		return c
	}
	return c + m.shift[i-1]
}

// countBranches returns 1 plus the branch tokens inside [lo, hi], using the
// sorted offsets from the scan pass.
func countBranches(branches []int, lo, hi int) uint16 {
	i := searchInts(branches, lo)
	n := 1
	for ; i < len(branches) && branches[i] <= hi; i++ {
		n++
	}
	if n > 0xffff {
		n = 0xffff
	}
	return uint16(n)
}

// searchInts returns the index of the first element >= x.
func searchInts(a []int, x int) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
