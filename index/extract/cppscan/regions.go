package cppscan

import (
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/cregion"
)

// An item of the file or a namespace the parser cannot read need not
// cost the whole file: its records are rolled back, the item's extent
// is found by its brackets alone (cregion's End), and the file is
// returned as extract.Regions, whose spans tree-sitter reads inside the
// namespaces and conditionals kept around them. cscan/regions.go does
// the same for C with its own emitter.

// mark is the parser's state before an item.
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
	p.i, p.dry, p.pending = m.i, false, p.pending[:0]
}

// outerItem reads one item of the file, a namespace or a class with read; if
// the parser declines it, the item becomes a span and reading goes on
// after it. A failure whose extent cannot be told (an unclosed #if)
// still declines the file.
func (p *parser) outerItem(read func()) {
	if p.dry {
		read()
		return
	}
	m := p.mark()
	p.itemStarts = append(p.itemStarts, m.i)
	defer func() {
		p.itemStarts = p.itemStarts[:len(p.itemStarts)-1]
		r := recover()
		if r == nil {
			return
		}
		why, ok := r.(*errFallback)
		if !ok {
			panic(r)
		}
		p.rollback(m)
		t := cregion.Toks{Src: p.m, Toks: p.toks, Keyword: func(w string) bool { return words[w] != wIdent }}
		last, ok := t.End(m.i, cregion.CPP)
		if !ok {
			panic(r)
		}
		p.addSpan(m.i, last, why.why)
	}()
	read()
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
