package cscan

import "github.com/parleyhq/parley/index/extract"

// A top-level item the parser cannot read (an __asm__ statement, a GNU
// extension) need not cost the whole file: its records are rolled back,
// the item's extent is found by its brackets alone (itemEnd), and the
// file is returned as extract.Regions, whose spans tree-sitter reads.

// regions is what the parser keeps for extract.Regions.
type regions struct {
	spans []extract.Span
	keep  []extract.Span
	why   string
	// The top-level conditionals open at the parser's position: the
	// directive lines of one that encloses a span are kept, so that
	// tree-sitter reads the span inside it.
	conds []*condFrame
}

type condFrame struct {
	lines   []extract.Span
	spanned bool
}

// mark is the parser's state before a top-level item.
type mark struct {
	i                          int
	syms, refs, imports, todos int
	scopes, nextCom, varLog    int
	spans, keep, conds         int
	doc                        extract.ScanDoc
}

func (p *parser) mark() mark {
	e := p.e
	return mark{i: p.i, syms: len(e.res.Symbols), refs: len(e.res.Refs), imports: len(e.res.Imports),
		todos: len(e.res.Todos), scopes: len(e.scopes), nextCom: e.nextCom, varLog: len(e.varLog),
		spans: len(p.reg.spans), keep: len(p.reg.keep), conds: len(p.reg.conds), doc: e.doc}
}

// rollback forgets what was recorded since m.
func (p *parser) rollback(m mark) {
	e := p.e
	e.res.Symbols, e.res.Refs = e.res.Symbols[:m.syms], e.res.Refs[:m.refs]
	e.res.Imports, e.res.Todos = e.res.Imports[:m.imports], e.res.Todos[:m.todos]
	e.scopes, e.nextCom, e.doc = e.scopes[:m.scopes], m.nextCom, m.doc
	for _, k := range e.varLog[m.varLog:] {
		delete(e.vars, k)
	}
	e.varLog = e.varLog[:m.varLog]
	p.reg.spans, p.reg.keep, p.reg.conds = p.reg.spans[:m.spans], p.reg.keep[:m.keep], p.reg.conds[:m.conds]
	p.i, p.dry, p.declTop, p.closedCall = m.i, false, false, false
	p.callParens, p.parenAfter, p.closedAfter = p.callParens[:0], p.parenAfter[:0], tok{}
}

// topItem reads one top-level item with read; if the parser declines
// it, the item becomes a span and reading goes on after it. A failure
// whose extent cannot be told (an unclosed #if) still declines the file.
func (p *parser) topItem(read func()) {
	if p.dry {
		read()
		return
	}
	m := p.mark()
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		why, ok := r.(*errFallback)
		if !ok {
			panic(r)
		}
		p.rollback(m)
		last, ok := p.itemEnd(m.i)
		if !ok {
			panic(r)
		}
		p.addSpan(m.i, last, why.why)
	}()
	read()
	p.noOldStyle(m.i)
}

// noOldStyle declines the item from token s to p.i if it holds an
// old-style definition's parameter names (int f(a, b) T a; ...), whose
// declarations the parser would read as items of their own.
func (p *parser) noOldStyle(s int) {
	depth := 0
	for k := s; k < p.i; k++ {
		switch t := p.toks[k]; {
		case p.is(t, "(") || p.is(t, "{") || p.is(t, "["):
			depth++
		case p.is(t, ")") || p.is(t, "}") || p.is(t, "]"):
			depth--
			if depth == 0 && p.oldStyleParams(k) {
				fail("an old-style definition at %d", t.Start)
			}
		}
	}
}

// addSpan makes tokens first to last, with the comments before them, a
// span, and moves the parser and the emitter past it.
func (p *parser) addSpan(first, last int, why string) {
	var start uint32
	if first > 0 {
		start = p.toks[first-1].End
	}
	end := p.toks[last].End
	if len(p.reg.spans) == 0 {
		p.reg.why = why
	}
	p.reg.spans = append(p.reg.spans, extract.Span{Start: start, End: end})
	if n := len(p.reg.conds); n > 0 {
		p.reg.conds[n-1].spanned = true
	}
	e := p.e
	e.flushComments(start)
	for e.nextCom < len(e.comments) && e.comments[e.nextCom].Start < end {
		e.nextCom++
	}
	e.doc = extract.ScanDoc{}
	p.i = last + 1
}

// condOpen and condLine record a top-level conditional's directive
// lines (the directive token at t, through the line's end just read);
// condClose pops it, keeping its lines when it encloses a span.
func (p *parser) condOpen(t tok) {
	p.reg.conds = append(p.reg.conds, &condFrame{})
	p.condLine(t)
}

func (p *parser) condLine(t tok) {
	if n := len(p.reg.conds); n > 0 {
		f := p.reg.conds[n-1]
		f.lines = append(f.lines, extract.Span{Start: t.Start, End: p.toks[p.i-1].End})
	}
}

func (p *parser) condClose(t tok) {
	n := len(p.reg.conds)
	if n == 0 {
		return
	}
	p.condLine(t)
	f := p.reg.conds[n-1]
	p.reg.conds = p.reg.conds[:n-1]
	if f.spanned {
		p.reg.keep = append(p.reg.keep, f.lines...)
		if n > 1 {
			p.reg.conds[n-2].spanned = true
		}
	}
}

// itemEnd finds the last token of the top-level item starting at token
// s by its brackets and conditionals alone: a directive's line, an #if's
// group through its #endif, a declaration's ";" or a function body's
// "}" at depth 0, or the token before an #else, #elif or #endif of the
// conditional the item is in. ok is false when the brackets do not
// balance.
func (p *parser) itemEnd(s int) (last int, ok bool) {
	if t := p.toks[s]; t.Kind == tDir {
		return p.directiveEnd(s)
	}
	depth, cond := 0, 0
	fnBody, assigned, oldStyle := false, false, false
	for k := s; k < len(p.toks); k++ {
		t := p.toks[k]
		if t.Kind == tDir {
			switch t.Dir {
			case "if", "ifdef", "ifndef":
				if depth == 0 && cond == 0 && p.linkageClose(k) {
					return k - 1, k > s
				}
				cond++
			case "else", "elif", "endif":
				if cond == 0 {
					return k - 1, k > s
				}
				if t.Dir == "endif" {
					cond--
				}
			}
			for k < len(p.toks) && p.toks[k].Kind != tEOL {
				k++
			}
			continue
		}
		if t.Kind != tPunct || t.End-t.Start != 1 {
			continue
		}
		switch p.src[t.Start] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 && k == p.macroCallEnd(s, k) {
				return k, true
			}
			if depth == 0 && !assigned && !oldStyle {
				oldStyle = p.oldStyleParams(k)
			}
		case '{':
			if depth == 0 {
				fnBody = k > s && (p.is(p.toks[k-1], ")") || oldStyle) && !assigned
			}
			depth++
		case '}':
			depth--
			if depth == 0 && cond == 0 && fnBody {
				return k, true
			}
		case ';':
			if depth == 0 && cond == 0 && !oldStyle {
				return k, true
			}
		case '=':
			if depth == 0 {
				assigned = true
			}
		}
		if depth < 0 {
			return 0, false
		}
	}
	return len(p.toks) - 1, depth == 0 && cond == 0
}

// oldStyleParams reports whether the ")" at k closes an old-style
// definition's parameter names, NAME(a, b) followed by a type: its
// declarations' ";" do not end the item.
func (p *parser) oldStyleParams(k int) bool {
	if k+1 >= len(p.toks) || p.toks[k+1].Kind != tIdent {
		return false
	}
	j := k - 1 // names and commas, alternating, back to the "("
	for ; j > 0 && p.toks[j].Kind == tIdent && words[p.text(p.toks[j])] == wIdent; j -= 2 {
		if !p.is(p.toks[j-1], ",") {
			j--
			break
		}
	}
	if j >= k-1 || j <= 0 || !p.is(p.toks[j], "(") || p.toks[j-1].Kind != tIdent {
		return false
	}
	// The parameters' declarations, then the body right after a ";"
	// (F(x) y; is a macro type's declaration).
	for j = k + 1; j < len(p.toks); j++ {
		switch t := p.toks[j]; {
		case p.is(t, "{"):
			return p.is(p.toks[j-1], ";")
		case t.Kind == tIdent || p.is(t, "*") || p.is(t, ",") || p.is(t, ";"):
		default:
			return false
		}
	}
	return false
}

// macroCallEnd returns k when the item at s is a macro's call alone
// on its lines, NAME(...) with its ")" at k followed on a later line by
// the next call of the same macro (OSSL_CORE_MAKE_FUNC(int, f, (...))
// with no ";"), else -1.
func (p *parser) macroCallEnd(s, k int) int {
	if k+2 >= len(p.toks) || p.toks[s].Kind != tIdent || !p.is(p.toks[s+1], "(") {
		return -1
	}
	if next := p.toks[k+1]; next.Kind == tIdent && next.Line > p.toks[k].Line &&
		p.text(next) == p.text(p.toks[s]) && p.is(p.toks[k+2], "(") {
		for j := s + 2; j < k; j++ {
			if p.is(p.toks[j], "{") {
				return -1
			}
		}
		return k
	}
	return -1
}

// linkageClose reports whether the tokens at k are the closing half of
// a header's C++ linkage (parser.linkage), which ends any item before.
func (p *parser) linkageClose(k int) bool {
	at := func(j int) tok {
		if k+j < len(p.toks) {
			return p.toks[k+j]
		}
		return tok{}
	}
	return at(0).Dir == "ifdef" && at(1).Kind == tIdent && at(2).Kind == tEOL &&
		p.is(at(3), "}") && at(4).Dir == "endif"
}

// directiveEnd is the last token of the directive at s: its line's
// end, or an #if's matching #endif's.
func (p *parser) directiveEnd(s int) (int, bool) {
	nest := 0
	for k := s; k < len(p.toks); k++ {
		t := p.toks[k]
		if t.Kind != tDir {
			continue
		}
		switch t.Dir {
		case "if", "ifdef", "ifndef":
			nest++
		case "endif":
			nest--
		}
		for k < len(p.toks) && p.toks[k].Kind != tEOL {
			k++
		}
		if nest <= 0 {
			return k, k < len(p.toks) && nest == 0
		}
	}
	return 0, false
}
