package rustscan

import (
	"bytes"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// This file is the walker's half: what index/extract's tree-sitter
// walker does on visiting a node (treesitter.go, treesitter_def.go),
// called by the parser at the point where that node would be visited.

// Scope kinds, as the walker's.
const (
	scopeNone uint8 = iota
	scopeType
	scopeFunc
	scopeNS
)

type scope struct {
	sym      int32
	qual     string
	kind     uint8
	branches int
	access   bool
}

// callAt is a call node: when visited (before the ref with index at),
// the walker pushes the start of its callee's name.
type callAt struct {
	at     int    // refs recorded before the call's start
	start  uint32 // the call node's start
	callee uint32
	seq    int
}

// doc is the walker's docBlock.
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
	calls    []callAt
	comments []comment
	nextCom  int
	doc      doc
	names    map[string]string
}

func (e *emitter) pos(off uint32, line uint32) extract.Pos {
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

// ref records an identifier node spanning [s, end) on line.
func (e *emitter) ref(s, end, line uint32) {
	if end-s > 128 {
		return
	}
	e.res.Refs = append(e.res.Refs, extract.Ref{Name: e.intern(e.src[s:end]), Pos: e.pos(s, line)})
}

// call records a call node starting at start whose callee name starts at
// callee; refsBefore is len(Refs) when the call's first token was read.
func (e *emitter) call(refsBefore int, start, callee uint32) {
	e.calls = append(e.calls, callAt{at: refsBefore, start: start, callee: callee, seq: len(e.calls)})
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

// attribute is the walker's docSkip visit of an attribute_item.
func (e *emitter) attribute(start uint32, line, endLine uint32) {
	e.flushComments(start)
	if e.doc.valid && line <= e.doc.endLine+1 {
		e.doc.endLine = endLine
	}
}

// branch counts a decision point towards the innermost function.
func (e *emitter) branch(n int) {
	if k := len(e.scopes); k > 0 && e.scopes[k-1].kind == scopeFunc {
		e.scopes[k-1].branches += n
	}
}

// def is a definition being recorded (the walker's defSite).
type def struct {
	kind     extract.SymbolKind
	scope    uint8
	start    uint32 // the node's start
	line     uint32
	name     tok
	nameEnd  uint32 // impl names can span several tokens
	nameText string
	pub      bool // a visibility_modifier child
	private  bool // membersPrivate
}

// define records d when the node is visited; it returns the symbol's
// index (-1 for pseudo scopes) and whether a scope was opened, which the
// caller closes with end once the node's extent is known.
func (e *emitter) define(d *def) (sym int32, opened bool) {
	e.flushComments(d.start)
	outer := e.inner()
	base := ""
	if outer != nil {
		base = outer.qual
	}
	name := d.nameText
	if name == "" {
		name = e.intern(e.src[d.name.start:d.name.end])
	}
	if d.kind == 0 {
		e.scopes = append(e.scopes, scope{sym: -1, qual: extract.JoinQual(base, name), kind: scopeType, access: !d.private})
		return -1, true
	}
	kind := d.kind
	if kind == extract.KindFunction && outer != nil && outer.kind == scopeType {
		kind = extract.KindMethod
	}
	if kind == extract.KindVariable && outer != nil && outer.kind == scopeType {
		kind = extract.KindField
	}
	nameEnd := d.nameEnd
	if nameEnd == 0 {
		nameEnd = d.name.end
	}
	s := extract.Symbol{
		Name:      name,
		Kind:      kind,
		Container: base,
		Parent:    e.parentSym(),
		Range:     extract.Range{Start: e.pos(d.start, d.line)},
		Selection: extract.Range{Start: e.pos(d.name.start, d.name.line), End: e.posOf(nameEnd)},
		Signature: extract.SignatureAt(e.src, int(d.start)),
		Doc:       e.docFor(d),
	}
	if !e.inFunc() {
		s.Exported = d.pub || outer != nil && outer.access
	}
	sym = int32(len(e.res.Symbols))
	e.res.Symbols = append(e.res.Symbols, s)
	if d.scope == scopeNone {
		return sym, false
	}
	e.scopes = append(e.scopes, scope{sym: sym, qual: extract.JoinQual(base, name), kind: d.scope, access: !d.private})
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
	if e.doc.valid && (e.doc.endLine+1 == d.line || e.doc.endLine == d.line && e.doc.end <= d.start) {
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

// addImport records an import path as written, whitespace removed.
func (e *emitter) addImport(path []byte, line uint32) {
	s := strings.Join(strings.Fields(string(path)), "")
	if s == "" {
		return
	}
	e.res.Imports = append(e.res.Imports, extract.Import{Path: s, Line: line})
}

// resolveCalls sets Call on the refs the walker's pending-callee stack
// marks: calls are pushed in the walk's pre-order, each before the refs
// inside it, outer calls before the calls they contain.
func (e *emitter) resolveCalls() {
	cs := e.calls
	sortCalls(cs)
	var stack []uint32
	ci := 0
	for i := range e.res.Refs {
		for ci < len(cs) && cs[ci].at <= i {
			stack = append(stack, cs[ci].callee)
			ci++
		}
		r := &e.res.Refs[i]
		off := e.lines[r.Pos.Line] + r.Pos.Col
		stack, r.Call = extract.PopCallee(stack, off)
	}
}
