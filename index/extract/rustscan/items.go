package rustscan

import "github.com/parleyhq/parley/index/extract"

// structItem reads struct and union items with their fields.
func (p *parser) structItem(start int, pub bool) {
	p.i++
	d := p.newDef(start, extract.KindStruct, scopeType, pub)
	d.private = true
	d.name = p.name()
	sym, opened := p.define(d)
	if p.isP('<') {
		p.generics()
	}
	p.whereClause()
	switch {
	case p.isP('{'):
		p.fieldList()
	case p.isP('('):
		p.tupleFields()
		p.whereClause()
		p.expectP(';')
	default:
		p.expectP(';')
	}
	p.end(sym, opened, p.prevEnd())
}

// fieldList reads { a: T, pub b: U } (field_declaration_list).
func (p *parser) fieldList() {
	p.expectP('{')
	for !p.eatP('}') {
		p.outerAttrs()
		start := p.i
		pub := p.visibility()
		d := p.newDef(start, extract.KindField, scopeNone, pub)
		d.name = p.name()
		sym, _ := p.define(d)
		p.expectP(':')
		p.typ()
		p.end(sym, false, p.prevEnd())
		if !p.eatP(',') {
			p.expectP('}')
			return
		}
	}
}

// tupleFields reads (pub T, U) (ordered_field_declaration_list).
func (p *parser) tupleFields() {
	p.expectP('(')
	for !p.eatP(')') {
		p.outerAttrs()
		p.visibility()
		p.typ()
		if !p.eatP(',') {
			p.expectP(')')
			return
		}
	}
}

func (p *parser) enumItem(start int, pub bool) {
	p.i++
	d := p.newDef(start, extract.KindEnum, scopeType, pub)
	d.name = p.name()
	sym, opened := p.define(d)
	if p.isP('<') {
		p.generics()
	}
	p.whereClause()
	p.expectP('{')
	for !p.eatP('}') {
		p.outerAttrs()
		vstart := p.i
		vpub := p.visibility()
		v := p.newDef(vstart, extract.KindEnumMember, scopeNone, vpub)
		v.name = p.name()
		vsym, _ := p.define(v)
		switch {
		case p.isP('{'):
			p.fieldList()
		case p.isP('('):
			p.tupleFields()
		}
		if p.eatP('=') {
			p.expr(0)
		}
		p.end(vsym, false, p.prevEnd())
		if !p.eatP(',') {
			p.expectP('}')
			break
		}
	}
	p.end(sym, opened, p.prevEnd())
}

func (p *parser) traitItem(start int, pub bool) {
	p.eatKw(kwUnsafe)
	p.eatKw(kwAuto)
	p.expectKw(kwTrait)
	d := p.newDef(start, extract.KindInterface, scopeType, pub)
	d.name = p.name()
	sym, opened := p.define(d)
	if p.isP('<') {
		p.generics()
	}
	if p.isP(':') {
		p.i++
		p.bounds()
	}
	p.whereClause()
	if p.isP('=') {
		fail("trait alias")
	}
	p.expectP('{')
	end := p.itemsUntilBrace()
	p.end(sym, opened, end)
}

// implItem reads an impl block: a pseudo scope named after the type.
func (p *parser) implItem(start int) {
	p.eatKw(kwUnsafe)
	p.expectKw(kwImpl)
	if p.isP('<') && !p.isOp("<>") || p.isOp("<>") {
		p.generics()
	}
	if p.isKw(kwConst) {
		fail("const impl")
	}
	neg := p.eatP('!')
	first := p.implType()
	trait := false
	if p.eatKw(kwFor) {
		trait = true
		first = p.implType()
	} else if neg {
		fail("negative impl without a trait")
	}
	s, l := p.startOf(start)
	d := &def{start: s, line: l, private: !trait}
	n := first
	for k := 0; k < 4 && n != nil && n.inner != nil; k++ {
		n = n.inner
	}
	d.name = tok{start: n.start, end: n.end}
	d.nameText = p.intern(p.src[n.start:n.end])
	p.whereClause()
	p.expectP('{')
	_, opened := p.define(d)
	end := p.itemsUntilBrace()
	p.end(-1, opened, end)
}

func (p *parser) modItem(start int, pub bool) {
	p.i++
	d := p.newDef(start, extract.KindModule, scopeNS, pub)
	d.private = true
	d.name = p.name()
	if p.isP(';') {
		p.addImport(p.src[d.name.start:d.name.end], d.line)
	}
	sym, opened := p.define(d)
	if p.eatP(';') {
		p.end(sym, opened, p.prevEnd())
		return
	}
	p.expectP('{')
	end := p.itemsUntilBrace()
	p.end(sym, opened, end)
}

// useItem reads a use declaration; its import is the path before any
// braces, alias or nothing for a bare list.
func (p *parser) useItem(start int) {
	p.i++
	line := p.toks[start].line
	from := p.t().start
	path, list := p.useTree()
	if !list {
		p.addImport(p.src[from:path], line)
	}
	p.expectP(';')
}

// useTree reads one use tree; it returns where the import path ends and
// whether the tree is a bare list ({a, b} or ::{a, b}).
func (p *parser) useTree() (pathEnd uint32, list bool) {
	if p.isP('{') || p.isOp("::{") {
		p.eatOp("::")
		p.useList()
		return 0, true
	}
	if p.isP('*') {
		fail("bare glob use")
	}
	lead := p.eatOp("::")
	for first := !lead; ; first = false {
		switch {
		case p.isKw(kwSelf) || p.isKw(kwSuper) || p.isKw(kwCrate):
			if !first {
				p.pathKeyword()
				break
			}
			p.i++
		case p.isOp("$crate"):
			p.i += 2
		default:
			p.name()
		}
		pathEnd = p.prevEnd()
		if !p.isOp("::") {
			break
		}
		p.i += 2
		if p.isP('{') {
			p.useList()
			return pathEnd, false
		}
		if p.eatP('*') {
			return p.prevEnd(), false
		}
	}
	if p.eatKw(kwAs) {
		p.alias()
	}
	return pathEnd, false
}

func (p *parser) useList() {
	p.expectP('{')
	for !p.eatP('}') {
		if !p.eatP('*') {
			p.useTree()
		}
		if !p.eatP(',') {
			p.expectP('}')
			return
		}
	}
}

func (p *parser) externCrate(start int) {
	p.i += 2
	line := p.toks[start].line
	t := p.t()
	if p.isKw(kwSelf) {
		p.ref(t.start, t.end, t.line) // an identifier here
		p.i++
	} else {
		p.name()
	}
	p.addImport(p.src[t.start:t.end], line)
	if p.eatKw(kwAs) {
		p.alias()
	}
	p.expectP(';')
}

// foreignMod reads extern "C" { ... }: no symbol of its own.
func (p *parser) foreignMod() {
	p.eatKw(kwUnsafe)
	p.expectKw(kwExtern)
	if p.at(tStr) {
		p.i++
	}
	p.expectP('{')
	p.itemsUntilBrace()
}

// alias reads the name after "as" in use and extern crate; "_" is an
// identifier there.
func (p *parser) alias() {
	if t := p.t(); t.kw == kwUnderscore {
		p.ref(t.start, t.end, t.line)
		p.i++
		return
	}
	p.name()
}

// pathKeyword reads self, super or crate after "::": super::super
// stays a super node, a path's last self (use a::self) is an identifier
// to tree-sitter; the rest are not replicated.
func (p *parser) pathKeyword() {
	t := p.t()
	switch {
	case t.kw == kwSuper && p.isOp2At(1, "::"):
	case t.kw == kwSelf && !p.isOp2At(1, "::"):
		p.ref(t.start, t.end, t.line)
	default:
		p.failHere("keyword inside a path")
	}
	p.i++
}

// implType reads an impl's trait or type; a bare trait object with more
// bounds (Expected + 'a) is a bounded_type, named by its whole text.
func (p *parser) implType() *tnode {
	n := p.typ()
	if !p.isP('+') {
		return n
	}
	for p.eatP('+') {
		if p.at(tLifetime) {
			p.lifetime()
		} else {
			p.typePath()
		}
	}
	return &tnode{start: n.start, end: p.prevEnd()}
}
