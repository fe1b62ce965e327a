package cscan

import (
	"github.com/parleyhq/parley/index/extract"
)

// This file is the walker's half: what index/extract's tree-sitter
// walker does on visiting a node (treesitter.go, treesitter_def.go)
// under lang_c.go's table, called by the parser where that node would
// be visited.

const (
	scopeNone = extract.ScopeNone
	scopeType = extract.ScopeType
	scopeFunc = extract.ScopeFunc
)

type emitter struct {
	src      []byte
	lines    []uint32
	res      *extract.Result
	scopes   extract.Scopes
	comments []comment
	nextCom  int
	doc      extract.ScanDoc
	names    extract.Names
	vars     map[varKey]bool
	varLog   []varKey // vars' keys in the order added, for rollback
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
func (e *emitter) posOf(off uint32) extract.Pos { return extract.PosOf(e.lines, off) }

func (e *emitter) intern(b []byte) string { return e.names.Intern(b) }

// ref records an identifier token; call marks a callee.
func (e *emitter) ref(t tok, call bool) {
	if t.End-t.Start > 128 {
		return
	}
	e.res.Refs = append(e.res.Refs, extract.Ref{Name: e.intern(e.src[t.Start:t.End]), Pos: e.pos(t.Start, t.Line), Call: call})
}

// flushComments visits the comments that start before off.
func (e *emitter) flushComments(off uint32) {
	for e.nextCom < len(e.comments) && e.comments[e.nextCom].Start < off {
		e.comment(e.comments[e.nextCom])
		e.nextCom++
	}
}

func (e *emitter) comment(c comment) {
	e.doc.Comment(e.src, c.Start, c.End, c.Line, c.EndLine, e.res)
}

// branch counts a decision point towards the innermost function.
func (e *emitter) branch() { e.scopes.Branch(1) }

// def is a definition being recorded (the walker's defSite).
type def struct {
	kind      extract.SymbolKind
	scope     extract.ScopeKind
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
	outer := e.scopes.Inner()
	base := ""
	if outer != nil {
		base = outer.Qual
	}
	name := e.intern(e.src[d.name.Start:d.name.End])
	kind := d.kind
	inType := outer != nil && outer.Kind == scopeType
	switch {
	case kind == extract.KindFunction && inType:
		kind = extract.KindMethod
		if name == extract.LastSegment(base) {
			kind = extract.KindConstructor
		}
	case kind == extract.KindVariable && inType:
		kind = extract.KindField
	}
	parent := e.scopes.ParentSym()
	if d.topOnly && (kind == extract.KindVariable || kind == extract.KindField) {
		k := varKey{parent, name}
		if e.vars[k] {
			return -1, false
		}
		e.vars[k] = true
		e.varLog = append(e.varLog, k)
	}
	s := extract.Symbol{
		Name:      name,
		Kind:      kind,
		Container: base,
		Parent:    parent,
		Range:     extract.Range{Start: e.pos(d.decl, d.declLine)},
		Selection: extract.Range{Start: e.pos(d.name.Start, d.name.Line), End: e.pos(d.name.End, d.name.Line)},
		Signature: extract.SignatureAt(e.src, int(d.decl)),
		Doc:       e.docFor(d),
	}
	if !e.scopes.InFunc() {
		s.Exported = inType || !d.static
	}
	sym = int32(len(e.res.Symbols))
	e.res.Symbols = append(e.res.Symbols, s)
	if d.scope == scopeNone {
		return sym, false
	}
	e.scopes = append(e.scopes, extract.Scope{Sym: sym, Qual: extract.JoinQual(base, name), Kind: d.scope})
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

func (e *emitter) docFor(d *def) string { return e.doc.For(e.src, d.declLine, d.decl) }
