package cppscan

import (
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/cregion"
)

// An item of the file, a namespace or a class the parser cannot read
// need not cost the whole file: its records are rolled back, the item's
// extent is found by its brackets alone (cregion's End), and the file
// is returned as extract.Regions, whose spans tree-sitter reads inside
// the namespaces, classes and conditionals kept around them.
// cscan/regions.go is C's, around another emitter type.

func (p *parser) emitter() cregion.Emitter {
	e := p.e
	return cregion.Emitter{Res: e.res, Scopes: &e.scopes, Comments: e.comments, NextCom: &e.nextCom, Doc: &e.doc}
}

// outerItem reads one item of the file, a namespace or a class with
// read; if the parser declines it, the item becomes a span and reading
// goes on after it. A failure whose extent cannot be told (an unclosed
// #if) still declines the file.
func (p *parser) outerItem(read func()) {
	if p.dry {
		read()
		return
	}
	i, saved, vars := p.i, cregion.Save(p.emitter(), &p.reg), len(p.e.varLog)
	p.itemStarts = append(p.itemStarts, i)
	defer func() { p.itemStarts = p.itemStarts[:len(p.itemStarts)-1] }()
	cregion.Try(read, declined, func() {
		saved.Restore(p.emitter(), &p.reg)
		p.e.varLog = cregion.Forget(p.e.vars, p.e.varLog, vars)
		p.i, p.dry, p.pending = i, false, p.pending[:0]
	}, func(why string) bool {
		t := cregion.Toks{Src: p.m, Toks: p.toks, Keyword: func(w string) bool { return words[w] != wIdent }}
		last, ok := t.End(i, cregion.CPP)
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

// classOpen keeps a class's head, from its item's first token to the
// body's "{" at p.i, for tree-sitter when it encloses a span;
// classClose its "}" at p.i-1 with what follows to the ";" (a
// declarator).
func (p *parser) classOpen() {
	if !p.dry && len(p.itemStarts) > 0 {
		p.reg.Open(extract.Span{Start: p.toks[p.itemStarts[len(p.itemStarts)-1]].Start, End: p.peek().End})
	}
}

func (p *parser) classClose() {
	if p.dry {
		return
	}
	brace := p.toks[p.i-1]
	end := brace.End
	for k := p.i; k < len(p.toks) && k < p.i+64; k++ {
		if t := p.toks[k]; p.is(t, ";") {
			end = t.End
			break
		} else if p.is(t, "{") || p.is(t, "}") || t.Kind == tDir {
			break
		}
	}
	p.reg.Close(extract.Span{Start: brace.Start, End: end})
}

// lineSpan is the directive at t through the line's end just read.
func (p *parser) lineSpan(t tok) extract.Span {
	return extract.Span{Start: t.Start, End: p.toks[p.i-1].End}
}
