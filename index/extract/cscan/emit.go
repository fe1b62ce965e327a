package cscan

import (
	"bytes"

	"github.com/parleyhq/parley/index/extract"
)

// This file is the walker's half: what index/extract's tree-sitter
// walker does on visiting a node (treesitter.go, treesitter_def.go)
// under lang_c.go's table, called by the parser where that node would
// be visited.

const (
	scopeNone uint8 = iota
	scopeType
	scopeFunc
)

type scope struct {
	sym      int32
	qual     string
	kind     uint8
	branches int
}

type doc struct {
	valid      bool
	start, end uint32
	endLine    uint32
}

type emitter struct {
	src      []byte
	lines    []uint32
	res      *extract.Result
	scopes   []scope
	comments []comment
	nextCom  int
	doc      doc
	names    map[string]string
	vars     map[varKey]bool
}

type varKey struct {
	parent int32
	name   string
}

func (e *emitter) pos(off, line uint32) extract.Pos {
	return extract.Pos{Line: line, Col: off - e.lines[line]}
}

// posOf finds off's line by search (for ends, whose line the parser
// does not carry).
func (e *emitter) posOf(off uint32) extract.Pos {
	lo, hi := 0, len(e.lines)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if e.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return extract.Pos{Line: uint32(lo), Col: off - e.lines[lo]}
}

func (e *emitter) intern(b []byte) string {
	if s, ok := e.names[string(b)]; ok {
		return s
	}
	s := string(b)
	e.names[s] = s
	return s
}

// ref records an identifier token; call marks a callee.
func (e *emitter) ref(t tok, call bool) {
	if t.end-t.start > 128 {
		return
	}
	e.res.Refs = append(e.res.Refs, extract.Ref{Name: e.intern(e.src[t.start:t.end]), Pos: e.pos(t.start, t.line), Call: call})
}

// flushComments visits the comments that start before off.
func (e *emitter) flushComments(off uint32) {
	for e.nextCom < len(e.comments) && e.comments[e.nextCom].start < off {
		e.comment(e.comments[e.nextCom])
		e.nextCom++
	}
}

func (e *emitter) comment(c comment) {
	raw := e.src[c.start:c.end]
	if bytes.Contains(raw, []byte("TODO")) || bytes.Contains(raw, []byte("FIXME")) ||
		bytes.Contains(raw, []byte("HACK")) || bytes.Contains(raw, []byte("XXX")) {
		e.res.Todos = extract.ScanTodos(string(raw), c.line, e.res.Todos)
	}
	if !extract.StartsLine(e.src, int(c.start)) {
		e.doc.valid = false
		return
	}
	if e.doc.valid && c.line <= e.doc.endLine+1 {
		e.doc.end, e.doc.endLine = c.end, c.endLine
		return
	}
	e.doc = doc{valid: true, start: c.start, end: c.end, endLine: c.endLine}
}

// branch counts a decision point towards the innermost function.
func (e *emitter) branch() {
	if k := len(e.scopes); k > 0 && e.scopes[k-1].kind == scopeFunc {
		e.scopes[k-1].branches++
	}
}

// def is a definition being recorded (the walker's defSite).
type def struct {
	kind      extract.SymbolKind
	scope     uint8
	node      uint32 // the visited node's start
	decl      uint32 // the declaration's start (range, doc, signature)
	declLine  uint32
	name      tok
	static    bool // a "static" child of the declaration
	topOnly   bool // the declarator rule: variables are deduplicated
	memberFun bool
}

// define records d when its node is visited; it returns the symbol's
// index (-1 when dropped) and whether a scope was opened, which the
// caller closes with end once the node's extent is known.
func (e *emitter) define(d *def) (sym int32, opened bool) {
	e.flushComments(d.node)
	outer := e.inner()
	base := ""
	if outer != nil {
		base = outer.qual
	}
	name := e.intern(e.src[d.name.start:d.name.end])
	kind := d.kind
	inType := outer != nil && outer.kind == scopeType
	switch {
	case kind == extract.KindFunction && inType:
		kind = extract.KindMethod
		if name == extract.LastSegment(base) {
			kind = extract.KindConstructor
		}
	case kind == extract.KindVariable && inType:
		kind = extract.KindField
	}
	parent := e.parentSym()
	if d.topOnly && (kind == extract.KindVariable || kind == extract.KindField) {
		k := varKey{parent, name}
		if e.vars[k] {
			return -1, false
		}
		e.vars[k] = true
	}
	s := extract.Symbol{
		Name:      name,
		Kind:      kind,
		Container: base,
		Parent:    parent,
		Range:     extract.Range{Start: e.pos(d.decl, d.declLine)},
		Selection: extract.Range{Start: e.pos(d.name.start, d.name.line), End: e.pos(d.name.end, d.name.line)},
		Signature: extract.SignatureAt(e.src, int(d.decl)),
		Doc:       e.docFor(d),
	}
	if !e.inFunc() {
		s.Exported = inType || !d.static
	}
	sym = int32(len(e.res.Symbols))
	e.res.Symbols = append(e.res.Symbols, s)
	if d.scope == scopeNone {
		return sym, false
	}
	e.scopes = append(e.scopes, scope{sym: sym, qual: extract.JoinQual(base, name), kind: d.scope})
	return sym, true
}

// end sets a symbol's range end and closes its scope.
func (e *emitter) end(sym int32, opened bool, end uint32) {
	if sym >= 0 {
		e.res.Symbols[sym].Range.End = e.posOf(end)
	}
	if !opened {
		return
	}
	k := len(e.scopes) - 1
	sc := e.scopes[k]
	e.scopes = e.scopes[:k]
	if sc.kind == scopeFunc && sc.sym >= 0 {
		cx := 1 + sc.branches
		if cx > 0xffff {
			cx = 0xffff
		}
		e.res.Symbols[sc.sym].Complexity = uint16(cx)
	}
}

func (e *emitter) docFor(d *def) string {
	out := ""
	if e.doc.valid && (e.doc.endLine+1 == d.declLine || e.doc.endLine == d.declLine && e.doc.end <= d.decl) {
		out = extract.DocLine(string(e.src[e.doc.start:e.doc.end]))
	}
	e.doc.valid = false
	return out
}

func (e *emitter) inner() *scope {
	if k := len(e.scopes); k > 0 {
		return &e.scopes[k-1]
	}
	return nil
}

func (e *emitter) inFunc() bool {
	for i := len(e.scopes) - 1; i >= 0; i-- {
		if e.scopes[i].kind == scopeFunc {
			return true
		}
	}
	return false
}

func (e *emitter) parentSym() int32 {
	for i := len(e.scopes) - 1; i >= 0; i-- {
		if e.scopes[i].sym >= 0 {
			return e.scopes[i].sym
		}
	}
	return -1
}
