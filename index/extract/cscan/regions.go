package cscan

import (
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/cregion"
)

// A top-level item the parser cannot read (an __asm__ statement, a GNU
// extension) need not cost the whole file: its records are rolled back,
// the item's extent is found by its brackets alone (cregion's End), and
// the file is returned as extract.Regions, whose spans tree-sitter
// reads. cppscan/regions.go is C++'s, around another emitter type.

func (p *parser) emitter() cregion.Emitter {
	e := p.e
	return cregion.Emitter{Res: e.res, Scopes: &e.scopes, Comments: e.comments, NextCom: &e.nextCom, Doc: &e.doc}
}

// topItem reads one top-level item with read; if the parser declines
// it, the item becomes a span and reading goes on after it. A failure
// whose extent cannot be told (an unclosed #if) still declines the file.
func (p *parser) topItem(read func()) {
	if p.dry {
		read()
		return
	}
	i, saved, vars := p.i, cregion.Save(p.emitter(), &p.reg), len(p.e.varLog)
	cregion.Try(func() { read(); p.noOldStyle(i) }, declined, func() {
		saved.Restore(p.emitter(), &p.reg)
		p.e.varLog = cregion.Forget(p.e.vars, p.e.varLog, vars)
		p.i, p.dry, p.declTop, p.closedCall = i, false, false, false
		p.callParens, p.parenAfter, p.closedAfter = p.callParens[:0], p.parenAfter[:0], tok{}
	}, func(why string) bool {
		last, ok := p.itemToks().End(i, cregion.C)
		if ok {
			p.i = cregion.AddSpan(&p.reg, p.emitter(), p.e.flushComments, p.toks, i, last, why)
		}
		return ok
	})
}

// declined is the reason of a scanner's decline.
func declined(r any) (string, bool) {
	if e, ok := r.(*errFallback); ok {
		return e.why, true
	}
	return "", false
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

// lineSpan is the directive at t through the line's end just read.
func (p *parser) lineSpan(t tok) extract.Span {
	return extract.Span{Start: t.Start, End: p.toks[p.i-1].End}
}
