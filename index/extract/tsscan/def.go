package tsscan

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// Definitions, as the walker's define and record (treesitter_def.go) with
// lang_javascript.go's rules write them.

// defSite is one definition: the spans of the node matching the rule,
// of its declaration (the node carrying range, signature and doc), and of
// the export or declare statement around it.
type defSite struct {
	node      int // start of the node that matched the rule
	decl      int // start of the declaration
	sig       int // where the signature line starts in decl
	wrapper   int // start of the wrapper, -1 for none
	wrapSig   int // first token of the wrapper (export, declare)
	exported  bool
	nameStart int
	nameEnd   int
	kind      extract.SymbolKind
	scope     scopeKind
	private   bool // an accessibility modifier "private"
}

// wrap is the export or declare statement around the declaration being
// parsed.
type wrap struct {
	start    int // -1 for none
	export   bool
	firstTok int
}

var noWrap = wrap{start: -1}

func (p *parser) inFunc() bool {
	for i := len(p.scopes) - 1; i >= 0; i-- {
		if p.scopes[i].kind == scopeFunc {
			return true
		}
	}
	return false
}

// define records d and opens its scope; it returns the symbol's index
// (-1 for none) and whether a scope was opened, which the caller closes
// with closeScope when the node ends.
func (p *parser) define(d defSite) (int32, bool) {
	p.flushComments(d.node)
	name := strings.TrimSpace(string(p.src[d.nameStart:d.nameEnd]))
	if d.kind == extract.KindNamespace {
		name = unquote(name)
	}
	if name == "" || len(name) > 4*maxRefName {
		return -1, false
	}
	var outer *scope
	base := ""
	if k := len(p.scopes); k > 0 {
		outer = &p.scopes[k-1]
		base = outer.qual
	}
	kind := d.kind
	inType := outer != nil && outer.kind == scopeType
	switch {
	case kind == extract.KindFunction && inType:
		kind = extract.KindMethod
	case kind == extract.KindVariable && inType:
		kind = extract.KindField
	}
	if kind == extract.KindMethod && name == "constructor" {
		kind = extract.KindConstructor
	}
	parent := int32(-1)
	if outer != nil {
		parent = outer.sym
	}
	sig := d.sig
	first := d.decl
	if d.wrapper >= 0 {
		first = d.wrapper
		if p.line(d.wrapSig) == p.line(d.decl) {
			sig = d.wrapSig
		}
	}
	sym := extract.Symbol{
		Name:      p.intern([]byte(name)),
		Kind:      kind,
		Container: base,
		Parent:    parent,
		Range:     extract.Range{Start: p.pos(d.decl)},
		Selection: p.rng(d.nameStart, d.nameEnd),
		Signature: extract.SignatureAt(p.src, sig),
		Doc:       p.docFor(first),
	}
	if !p.inFunc() {
		sym.Exported = p.exported(&d, name, outer)
	}
	idx := int32(len(p.res.Symbols))
	p.res.Symbols = append(p.res.Symbols, sym)
	if d.scope == scopeNone {
		return idx, false
	}
	p.scopes = append(p.scopes, scope{sym: idx, qual: extract.JoinQual(base, name), kind: d.scope})
	return idx, true
}

// endDef sets the end of symbol idx's range.
func (p *parser) endDef(idx int32, end int) {
	if idx < 0 {
		return
	}
	s := &p.res.Symbols[idx]
	s.Range.End = p.pos(end)
	if !s.Range.Contains(s.Selection) {
		s.Range = s.Selection
	}
}

func (p *parser) closeScope() {
	k := len(p.scopes) - 1
	sc := p.scopes[k]
	p.scopes = p.scopes[:k]
	if sc.kind == scopeFunc && sc.sym >= 0 {
		cx := 1 + sc.branches
		if cx > 0xffff {
			cx = 0xffff
		}
		p.res.Symbols[sc.sym].Complexity = uint16(cx)
	}
}

// exported is jsExported.
func (p *parser) exported(d *defSite, name string, outer *scope) bool {
	if d.exported {
		return true
	}
	if d.kind == extract.KindEnumMember {
		return true
	}
	if outer == nil || outer.kind != scopeType {
		return false
	}
	if strings.HasPrefix(name, "#") || strings.HasPrefix(name, "_") {
		return false
	}
	return !d.private
}

// docFor is the walker's docFor: the comment block ending on the line
// before first (or on its line, before it) documents it.
func (p *parser) docFor(first int) string {
	line := p.line(first)
	doc := ""
	if p.doc.valid && (p.doc.endLine+1 == line || p.doc.endLine == line && p.doc.end <= first) {
		doc = extract.DocLine(string(p.src[p.doc.start:p.doc.end]))
	}
	p.doc.valid = false
	return doc
}

func unquote(s string) string {
	if len(s) >= 2 {
		first, last := s[0], s[len(s)-1]
		if (first == '"' || first == '\'' || first == '`') && last == first {
			return s[1 : len(s)-1]
		}
	}
	return s
}
