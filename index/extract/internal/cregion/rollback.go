package cregion

import (
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/clex"
)

// What the two scanners' emitters share (each has its own type): the
// records written so far, the scope stack, the next comment to visit
// and the doc block. Saved before an item, restored when it is
// declined.

// Emitter points at a scanner emitter's state.
type Emitter struct {
	Res      *extract.Result
	Scopes   *extract.Scopes
	Comments []clex.Comment
	NextCom  *int
	Doc      *extract.ScanDoc
}

// Saved is an Emitter's and a Collector's state before an item.
type Saved struct {
	syms, refs, imports, todos, scopes, nextCom int
	doc                                         extract.ScanDoc
	reg                                         Mark
}

// Save records e's and c's state.
func Save(e Emitter, c *Collector) Saved {
	return Saved{syms: len(e.Res.Symbols), refs: len(e.Res.Refs), imports: len(e.Res.Imports),
		todos: len(e.Res.Todos), scopes: len(*e.Scopes), nextCom: *e.NextCom, doc: *e.Doc, reg: c.Mark()}
}

// Restore forgets what e and c recorded since s.
func (s Saved) Restore(e Emitter, c *Collector) {
	r := e.Res
	r.Symbols, r.Refs, r.Imports, r.Todos = r.Symbols[:s.syms], r.Refs[:s.refs], r.Imports[:s.imports], r.Todos[:s.todos]
	*e.Scopes, *e.NextCom, *e.Doc = (*e.Scopes)[:s.scopes], s.nextCom, s.doc
	c.Reset(s.reg)
}

// Skip is what a span does to e once the comments before start were
// visited (flush): the comments inside the span are tree-sitter's, and
// so is the doc block, which starts afresh after it.
func (e Emitter) Skip(flush func(off uint32), start, end uint32) {
	flush(start)
	for *e.NextCom < len(e.Comments) && e.Comments[*e.NextCom].Start < end {
		*e.NextCom++
	}
	*e.Doc = extract.ScanDoc{}
}

// Forget deletes from vars the keys log holds past n (added since a
// Save) and returns log cut to n.
func Forget[K comparable](vars map[K]bool, log []K, n int) []K {
	for _, k := range log[n:] {
		delete(vars, k)
	}
	return log[:n]
}

// Try reads an item with read. If it panics with a scanner's decline
// (why returns its reason; any other panic goes on), undo restores the
// state before it and span makes the item a span; when span reports
// that the item's extent cannot be told, the decline goes on, to
// decline the file.
func Try(read func(), why func(r any) (string, bool), undo func(), span func(why string) bool) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		reason, ok := why(r)
		if !ok {
			panic(r)
		}
		undo()
		if !span(reason) {
			panic(r)
		}
	}()
	read()
}

// AddSpan makes tokens first to last of toks, with the doc comments
// before them (SpanStart), a span of c, moves e past it (Skip, flush
// visiting the comments before), and returns the index of the token
// reading goes on from.
func AddSpan(c *Collector, e Emitter, flush func(off uint32), toks []clex.Tok, first, last int, why string) int {
	var after uint32
	if first > 0 {
		after = toks[first-1].End
	}
	start, end := SpanStart(after, toks[first], e.Comments), toks[last].End
	c.Add(extract.Span{Start: start, End: end}, why)
	e.Skip(flush, start, end)
	return last + 1
}
