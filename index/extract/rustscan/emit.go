package rustscan

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// This file is the walker's half: what index/extract's tree-sitter
// walker does on visiting a node (treesitter.go, treesitter_def.go),
// called by the parser at the point where that node would be visited.

// Scope kinds, as the walker's.
const (
	scopeNone = extract.ScopeNone
	scopeType = extract.ScopeType
	scopeFunc = extract.ScopeFunc
	scopeNS   = extract.ScopeNS
)

// callAt is a call node: when visited (before the ref with index at),
// the walker pushes the start of its callee's name.
type callAt struct {
	at     int    // refs recorded before the call's start
	start  uint32 // the call node's start
	callee uint32
	seq    int
}

type emitter struct {
	src      []byte
	lines    []uint32
	res      *extract.Result
	scopes   extract.Scopes
	calls    []callAt
	comments []comment
	nextCom  int
	doc      extract.ScanDoc
	names    extract.Names
}

func (e *emitter) pos(off uint32, line uint32) extract.Pos {
	return extract.Pos{Line: line, Col: off - e.lines[line]}
}

// posOf finds off's line by search (for ends, whose line the parser
// does not carry).
func (e *emitter) posOf(off uint32) extract.Pos { return extract.PosOf(e.lines, off) }

func (e *emitter) intern(b []byte) string { return e.names.Intern(b) }

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
	e.doc.Comment(e.src, c.start, c.end, c.line, c.endLine, e.res)
}

// attribute is the walker's docSkip visit of an attribute_item.
func (e *emitter) attribute(start uint32, line, endLine uint32) {
	e.flushComments(start)
	if e.doc.Valid && line <= e.doc.EndLine+1 {
		e.doc.EndLine = endLine
	}
}

// branch counts a decision point towards the innermost function.
func (e *emitter) branch(n int) { e.scopes.Branch(n) }

// def is a definition being recorded (the walker's defSite).
type def struct {
	kind     extract.SymbolKind
	scope    extract.ScopeKind
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
	outer := e.scopes.Inner()
	base := ""
	if outer != nil {
		base = outer.Qual
	}
	name := d.nameText
	if name == "" {
		name = e.intern(e.src[d.name.start:d.name.end])
	}
	if d.kind == 0 {
		e.scopes = append(e.scopes, extract.Scope{Sym: -1, Qual: extract.JoinQual(base, name), Kind: scopeType, Access: !d.private})
		return -1, true
	}
	kind := d.kind
	if kind == extract.KindFunction && outer != nil && outer.Kind == scopeType {
		kind = extract.KindMethod
	}
	if kind == extract.KindVariable && outer != nil && outer.Kind == scopeType {
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
		Parent:    e.scopes.ParentSym(),
		Range:     extract.Range{Start: e.pos(d.start, d.line)},
		Selection: extract.Range{Start: e.pos(d.name.start, d.name.line), End: e.posOf(nameEnd)},
		Signature: extract.SignatureAt(e.src, int(d.start)),
		Doc:       e.docFor(d),
	}
	if !e.scopes.InFunc() {
		s.Exported = d.pub || outer != nil && outer.Access
	}
	sym = int32(len(e.res.Symbols))
	e.res.Symbols = append(e.res.Symbols, s)
	if d.scope == scopeNone {
		return sym, false
	}
	e.scopes = append(e.scopes, extract.Scope{Sym: sym, Qual: extract.JoinQual(base, name), Kind: d.scope, Access: !d.private})
	return sym, true
}

// end sets a symbol's range end and closes its scope.
func (e *emitter) end(sym int32, opened bool, end uint32) {
	if sym >= 0 {
		e.res.Symbols[sym].Range.End = e.posOf(end)
	}
	if opened {
		e.scopes.Close(e.res.Symbols)
	}
}

func (e *emitter) docFor(d *def) string { return e.doc.For(e.src, d.line, d.start) }

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
