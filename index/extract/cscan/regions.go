package cscan

import (
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/cregion"
)

// A top-level item the parser cannot read (an __asm__ statement, a GNU
// extension) need not cost the whole file: its records are rolled back,
// the item's extent is found by its brackets alone (cregion's End), and
// the file is returned as extract.Regions, whose spans tree-sitter
// reads.

// mark is the parser's state before a top-level item.
type mark struct {
	i                          int
	syms, refs, imports, todos int
	scopes, nextCom, varLog    int
	reg                        cregion.Mark
	doc                        extract.ScanDoc
}

func (p *parser) mark() mark {
	e := p.e
	return mark{i: p.i, syms: len(e.res.Symbols), refs: len(e.res.Refs), imports: len(e.res.Imports),
		todos: len(e.res.Todos), scopes: len(e.scopes), nextCom: e.nextCom, varLog: len(e.varLog),
		reg: p.reg.Mark(), doc: e.doc}
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
	p.reg.Reset(m.reg)
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
		last, ok := p.itemToks().End(m.i, cregion.C)
		if !ok {
			panic(r)
		}
		p.addSpan(m.i, last, why.why)
	}()
	read()
	p.noOldStyle(m.i)
}

func (p *parser) itemToks() *cregion.Toks {
	return &cregion.Toks{Src: p.src, Toks: p.toks, Keyword: func(w string) bool { return words[w] != wIdent }}
}

// noOldStyle declines the item from token s to p.i if it holds an
// old-style definition's parameter names (int f(a, b) T a; ...), whose
// declarations the parser would read as items of their own.
func (p *parser) noOldStyle(s int) {
	depth := 0
	var t *cregion.Toks
	for k := s; k < p.i; k++ {
		switch x := p.toks[k]; {
		case p.is(x, "(") || p.is(x, "{") || p.is(x, "["):
			depth++
		case p.is(x, ")") || p.is(x, "}") || p.is(x, "]"):
			depth--
			if t == nil {
				t = p.itemToks()
			}
			if depth == 0 && t.OldStyleParams(k) {
				fail("an old-style definition at %d", x.Start)
			}
		}
	}
}

// addSpan makes tokens first to last, with the doc comments before
// them, a span, and moves the parser and the emitter past it.
func (p *parser) addSpan(first, last int, why string) {
	var after uint32
	if first > 0 {
		after = p.toks[first-1].End
	}
	start := cregion.SpanStart(after, p.toks[first], p.e.comments)
	end := p.toks[last].End
	p.reg.Add(extract.Span{Start: start, End: end}, why)
	e := p.e
	e.flushComments(start)
	for e.nextCom < len(e.comments) && e.comments[e.nextCom].Start < end {
		e.nextCom++
	}
	e.doc = extract.ScanDoc{}
	p.i = last + 1
}

// lineSpan is the directive at t through the line's end just read.
func (p *parser) lineSpan(t tok) extract.Span {
	return extract.Span{Start: t.Start, End: p.toks[p.i-1].End}
}
