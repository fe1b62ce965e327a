package cppscan

import (
	"github.com/parleyhq/parley/index/extract"
)

// This file is the walker's half: what index/extract's tree-sitter
// walker does on visiting a node (treesitter.go, treesitter_def.go)
// under lang_c.go's cpp table, called by the parser where that node
// would be visited.

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
		c := e.comments[e.nextCom]
		e.doc.Comment(e.src, c.Start, c.End, c.Line, c.EndLine, e.res)
		e.nextCom++
	}
}

// branch counts a decision point towards the innermost function.
func (e *emitter) branch() { e.scopes.Branch(1) }

// def is a definition being recorded (the walker's defSite).
type def struct {
	kind      extract.SymbolKind
	scope     extract.ScopeKind
	node      uint32 // the visited node's start
	decl      uint32 // the declaration's start (range)
	declLine  uint32
	first     uint32 // the wrapper's start, else decl (doc)
	firstLine uint32
	sig       uint32 // where the signature line starts
	name      tok    // the name node: first and last token
	nameEnd   uint32
	container string // a qualified name's scopes (A::B::f: "A.B")
	static    bool   // a "static" child of the declaration
	topOnly   bool   // the declarator rule: variables are deduplicated
	private   bool   // a class: members private until a label
	raw       bool   // a class's name is its text (foo<int, T>), not squashed
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
	container := extract.JoinQual(base, d.container)
	name := squash(e.src[d.name.Start:d.nameEnd])
	if d.raw {
		name = string(e.src[d.name.Start:d.nameEnd])
	}
	name = e.intern([]byte(name))
	kind := d.kind
	inType := outer != nil && outer.Kind == extract.ScopeType
	switch {
	case kind == extract.KindFunction && inType:
		kind = extract.KindMethod
	case kind == extract.KindVariable && inType:
		kind = extract.KindField
	}
	if kind == extract.KindMethod && container != "" && name == extract.LastSegment(container) {
		kind = extract.KindConstructor
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
		Container: container,
		Parent:    parent,
		Range:     extract.Range{Start: e.pos(d.decl, d.declLine)},
		Selection: extract.Range{Start: e.pos(d.name.Start, d.name.Line), End: e.posOf(d.nameEnd)},
		Signature: extract.SignatureAt(e.src, int(d.sig)),
		Doc:       e.doc.For(e.src, d.firstLine, d.first),
	}
	if !e.scopes.InFunc() {
		if inType {
			s.Exported = outer.Access
		} else {
			s.Exported = !d.static
		}
	}
	sym = int32(len(e.res.Symbols))
	e.res.Symbols = append(e.res.Symbols, s)
	if d.scope == extract.ScopeNone {
		return sym, false
	}
	e.scopes = append(e.scopes, extract.Scope{Sym: sym, Qual: extract.JoinQual(container, name), Kind: d.scope, Access: !d.private})
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

// squash drops the blanks in a name (operator ==, A< B >).
func squash(b []byte) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' {
			out = append(out, c)
		}
	}
	return string(out)
}
