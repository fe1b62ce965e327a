package tsscan

import "github.com/parleyhq/parley/index/extract"

// Object types and interface bodies: their members' symbols and types.

// objectType parses { members } of an object type or interface body.
// objectType returns the type record of an object type; an interface's
// body passes its record as obj.
func (p *parser) objectType(obj int32) int32 {
	p.enter()
	defer p.leave()
	ty := tyOtherID
	if obj < 0 {
		obj = p.newObj(p.tok.start)
		ty = p.r.typ(typeRec{kind: tyObject, a: obj})
	}
	defer p.inCont(p.newCont())()
	p.expect("{")
	for !p.is("}") {
		if p.tok.kind == tEOF {
			p.failHere("unclosed object type")
		}
		p.typeMember(obj)
		if !p.eat(";") && !p.eat(",") && !p.tok.nl && !p.is("}") {
			p.failHere("expected ; in object type")
		}
	}
	p.next()
	return ty
}

// typeMember parses one member of an object type.
func (p *parser) typeMember(obj int32) {
	start := p.tok.start
	switch {
	case p.is("(") || p.is("<"):
		p.signature(p.newFn(fnOther)) // call signature
		return
	case p.is("new") && (p.tokIs(p.peek(), "(") || p.tokIs(p.peek(), "<")):
		p.next()
		p.signature(p.newFn(fnOther))
		return
	}
	if p.is("-") || p.is("+") {
		p.next()
	}
	private, readonly := false, false
	for p.isName() && (p.is("readonly") || p.is("get") || p.is("set") || p.is("public") || p.is("private") || p.is("protected") || p.is("static")) {
		t := p.peek()
		if !modifierFollows(p, t) || p.tokIs(t, "{") {
			break
		}
		if p.is("private") {
			private = true
		}
		readonly = readonly || p.is("readonly")
		p.next()
	}
	if p.is("-") || p.is("+") {
		p.next()
	}
	if p.is("[") && p.mappedOrIndexAhead() {
		p.mappedOrIndex(obj)
		return
	}
	name := p.tok
	nameEnd := name.end
	if p.is("[") {
		nameEnd = p.computedEnd()
	}
	kind := extract.KindProperty
	if p.methodAfterName() {
		kind = extract.KindMethod
	} else if name.kind == tString && nameEnd-name.start >= 2 && readonly {
		// After readonly, tree-sitter names a property signature by its
		// string's content.
		name.start++
		nameEnd--
	}
	id, _ := p.define(defSite{node: start, decl: start, sig: start, wrapper: -1, nameStart: name.start, nameEnd: nameEnd,
		kind: kind, private: private})
	m := member{name: string(p.src[name.start:nameEnd]), off: int32(name.start), ctor: -1}
	p.memberName()
	p.eat("?")
	if kind == extract.KindMethod {
		m.method = true
		fn := p.sigFnAt(m.name, m.off)
		p.signature(fn)
	} else if p.eat(":") {
		m.typ = p.annotation()
	}
	p.r.objs[obj].members = append(p.r.objs[obj].members, m)
	p.endDef(id, p.prev)
}

// mappedOrIndexAhead: [name: (an index signature) or [name in (a mapped
// type) at the current '['.
func (p *parser) mappedOrIndexAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	p.next()
	if !p.isName() {
		return false
	}
	p.next()
	return p.is(":") || p.is("in")
}

func (p *parser) mappedOrIndex(obj int32) {
	p.expect("[")
	name := p.tok
	p.ref(p.tok)
	p.next()
	index := !p.is("in")
	if p.eat("in") {
		p.typ()
		if p.eat("as") {
			p.typ()
		}
	} else {
		p.expect(":")
		p.typ()
	}
	p.expect("]")
	if p.is("-") || p.is("+") {
		p.next()
	}
	p.eat("?")
	m := member{name: string(p.src[name.start:name.end]), off: int32(name.start), ctor: -1}
	if p.eat(":") {
		m.typ = p.annotation()
	}
	if index && obj >= 0 {
		p.r.objs[obj].members = append(p.r.objs[obj].members, m)
	}
}
