package tsscan

import "github.com/parleyhq/parley/index/extract"

// Classes and their members.

// class parses a class declaration (decl) or expression whose first
// token (a decorator, abstract or class) starts at start.
func (p *parser) class(w wrap, start int, decl bool) {
	sig := p.tok.start
	p.eat("abstract")
	p.expect("class")
	id, opened := int32(-1), false
	obj := p.newObj(-1)
	p.r.classes = append(p.r.classes, obj)
	if p.isName() && !p.is("extends") && !p.is("implements") && !p.is("{") {
		name := p.tok
		id, opened = p.define(defSite{node: start, decl: start, sig: sig, wrapper: w.start, wrapSig: w.firstTok,
			exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindClass, scope: scopeType})
		if decl {
			p.declName(name)
			p.bindType(name, bOther)
		} else {
			p.ref(name)
		}
		p.r.objs[obj].name, p.r.objs[obj].off = string(p.src[name.start:name.end]), int32(name.start)
		p.next()
	}
	p.expTop = false
	defer p.enterThis(-1, obj)()
	if p.ts && p.is("<") {
		p.typeParams()
	}
	if p.eat("extends") {
		x := p.heritage()
		if x > 0 && p.r.exprs[x].kind == xCall {
			x = p.r.exprs[x].a
		}
		p.r.objs[obj].ext = x
		p.r.objs[obj].supers = append(p.r.objs[obj].supers, heritage{x: x})
	}
	if p.ts && p.eat("implements") {
		for {
			p.r.objs[obj].supers = append(p.r.objs[obj].supers, heritage{typ: p.typ()})
			if !p.eat(",") {
				break
			}
		}
	}
	p.classBody(obj)
	if opened {
		p.closeScope()
	}
	if decl {
		p.declEnd(w.export)
	}
	p.endDef(id, p.prev)
}

// heritage parses the extends clause's expression. TypeScript's type
// arguments there reach the parser as call parentheses when the mask
// rewrote them (extract.TSMask), and are then a call.
func (p *parser) heritage() int32 {
	x := p.postfixOnly()
	if p.ts && p.is("<") {
		p.typeArgs()
	}
	return x
}

func (p *parser) classBody(obj int32) {
	p.enter()
	defer p.leave()
	defer p.openScope(sClassBody, p.tok.start)()
	defer p.inCont(p.newCont())()
	p.expect("{")
	for !p.is("}") {
		if p.tok.kind == tEOF {
			p.failHere("unclosed class body")
		}
		if p.eat(";") {
			continue
		}
		p.member(obj)
	}
	p.next()
}

// member parses one class member (or, with obj, one object literal
// member that is a method).
func (p *parser) member(cls int32) {
	obj := cls < 0
	start := p.tok.start
	if !obj && !p.ts {
		for p.is("@") {
			p.decorator()
		}
	}
	if !obj && p.ts && p.is("@") {
		// Decorators are the method's siblings but a field's children:
		// which one follows decides the member's start.
		for p.is("@") {
			p.decorator()
		}
		if p.methodAhead() {
			start = p.tok.start
		}
	}
	sig := p.tok.start
	private, static, accessor := false, false, false
	for p.isName() {
		w := p.text()
		if !isModifier(w, p.ts) {
			break
		}
		t := p.peek()
		if !modifierFollows(p, t) || t.nl || p.tokIs(t, "{") && w != "static" {
			break
		}
		switch w {
		case "private":
			private = true
		case "static":
			static = true
		case "get", "set":
			accessor = true
		}
		p.next()
	}
	if static && p.is("{") {
		p.block() // class_static_block
		return
	}
	p.eat("*")
	if p.is("[") && p.ts && !obj && p.indexSignatureAhead() {
		p.indexSignature(cls)
		p.memberEnd()
		return
	}
	p.memberDef(start, sig, private, accessor, cls)
}

// isModifier reports whether w may modify a class member.
func isModifier(w string, ts bool) bool {
	switch w {
	case "static", "async", "get", "set":
		return true
	case "public", "private", "protected", "readonly", "abstract", "declare", "override", "accessor":
		return ts
	}
	return false
}

// modifierFollows reports whether t, after a modifier word, lets that word
// be a modifier rather than the member's name.
func modifierFollows(p *parser, t token) bool {
	switch t.kind {
	case tName, tString, tNum, tPrivate:
		return true
	}
	return p.tokIs(t, "[") || p.tokIs(t, "*") || p.tokIs(t, "{") || p.tokIs(t, "#")
}

// memberDef parses a member from its name: a method, a method signature
// or a field.
func (p *parser) memberDef(start, sig int, private, accessor bool, cls int32) {
	obj := cls < 0
	name := p.tok
	nameEnd := name.end
	isComputed := p.is("[")
	d := defSite{node: start, decl: start, sig: sig, wrapper: -1, nameStart: name.start, private: private}
	if name.kind == tString && name.end-name.start == 2 {
		p.failHere("member named by an empty string")
	}
	method := p.methodAfterName()
	hasBody := method && p.hasBodyAhead()
	switch {
	case hasBody:
		d.kind, d.scope = extract.KindMethod, scopeFunc
		if accessor {
			d.kind = extract.KindProperty
		}
	case method:
		d.kind = extract.KindMethod
	default:
		d.kind = extract.KindField
		if obj {
			p.failHere("object member")
		}
	}
	if isComputed {
		nameEnd = p.computedEnd()
	}
	d.nameEnd = nameEnd
	id, opened := p.define(d)
	m := member{name: string(p.src[name.start:nameEnd]), off: int32(name.start), ctor: -1}
	if !method && !p.ts && p.tok.kind == tName {
		// JavaScript's field_definition names its property_identifier
		// "property", not "name": no rule reads it.
		p.refAs(p.tok, refCtx{})
		p.next()
	} else {
		p.memberName()
	}
	if method {
		if p.ts {
			p.eat("?")
		}
		p.method(&m, start, hasBody, opened)
		if cls >= 0 {
			p.r.objs[cls].members = append(p.r.objs[cls].members, m)
		}
		if opened {
			p.closeScope()
		}
		p.endDef(id, p.prev)
		if !obj && !opened {
			if p.is("}") && !p.tok.nl {
				// m() } reads otherwise in tree-sitter.
				p.failHere("method signature before }")
			}
			p.memberEnd()
		}
		return
	}
	if p.ts {
		if !p.eat("?") {
			p.eat("!")
		}
		if p.eat(":") {
			m.typ = p.annotation()
		}
	}
	if p.eat("=") {
		p.assign()
	}
	if cls >= 0 {
		p.r.objs[cls].members = append(p.r.objs[cls].members, m)
	}
	p.endDef(id, p.prev)
	p.memberEnd()
}

// method parses a method's signature and body (with hasBody) after its
// name, recording it in m.
func (p *parser) method(m *member, start int, hasBody, opened bool) {
	fn := p.sigFnAt(m.name, m.off)
	if !hasBody {
		m.method = true // method_signature's type is not read
		p.signature(fn)
		if p.is("{") || !p.ts || opened {
			p.failHere("expected a method body")
		}
		return
	}
	// method_definition: a scope; this is no plain function's.
	outer, tf := p.enterScope(sMethod, start), p.thisFn
	p.thisFn = -1
	p.signature(fn)
	if !p.is("{") {
		p.failHere("expected a method body")
	}
	p.block()
	p.thisFn = tf
	p.leaveScope(outer)
	if m.name == "constructor" {
		m.ctor = fn
	}
}

// memberEnd is the ';' or line break after a field or signature.
func (p *parser) memberEnd() {
	if p.eat(";") || p.eat(",") {
		return
	}
	if p.tok.nl || p.is("}") {
		p.asi()
		return
	}
	p.failHere("expected ; after member")
}

// computedEnd is the end of the computed name [ … ] starting at the
// current token, found by scanning tokens.
func (p *parser) computedEnd() int {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	depth := 0
	for p.tok.kind != tEOF {
		switch {
		case p.is("[") || p.is("(") || p.is("{"):
			depth++
		case p.is("]") || p.is(")") || p.is("}"):
			if depth--; depth == 0 {
				return p.tok.end
			}
		}
		p.advance()
	}
	p.failHere("unclosed computed name")
	return 0
}

// methodAfterName looks past the member name at the current token for
// '(' or '<' (after an optional '?'): a method.
func (p *parser) methodAfterName() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	if p.is("[") {
		end := p.computedEnd()
		for p.tok.end != end {
			p.advance()
		}
	}
	p.advance()
	p.eat("?")
	return p.is("(") || p.ts && p.is("<")
}

// methodAhead reports whether the member after decorators is a method.
func (p *parser) methodAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	for p.isName() || p.tok.kind == tString || p.tok.kind == tNum || p.tok.kind == tPrivate || p.is("*") {
		if p.methodAfterName() {
			return true
		}
		p.advance()
	}
	return p.is("[") && p.methodAfterName()
}

// hasBodyAhead reports whether the method whose name is the current
// token has a body: its parameter list's ')' is followed, past an
// optional return type, by '{' before ';' or a line break.
func (p *parser) hasBodyAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	if !p.ts {
		return true
	}
	// Skip to the parameters' '('.
	for !p.is("(") && p.tok.kind != tEOF {
		if p.is("<") {
			p.skipAngles()
			continue
		}
		p.advance()
	}
	p.skipBalanced()
	if !p.is(":") {
		return p.is("{")
	}
	p.advance()
	// A return type: '{' after a complete type starts the body. Types
	// end at a line break after a complete token or at '{' at depth 0
	// unless the type itself starts with '{'.
	first := true
	for p.tok.kind != tEOF {
		switch {
		case p.is("{") && !first:
			if !p.typeContinues() {
				return true
			}
			p.skipBalanced()
			continue
		case p.is("(") || p.is("[") || p.is("{"):
			p.skipBalanced()
			first = false
			continue
		case p.is("<"):
			p.skipAngles()
			first = false
			continue
		case p.is(";") || p.is("}"):
			return false
		case p.tok.nl && !first && !p.is("|") && !p.is("&") && !p.is("=>") && !p.is("."):
			return p.is("{")
		}
		first = false
		p.advance()
	}
	return false
}

// typeContinues reports whether the '{' at the current token continues a
// type (after |, &, => or a keyword of a type) rather than starting a body.
func (p *parser) typeContinues() bool {
	b := p.src[:p.tok.start]
	i := len(b) - 1
	for i >= 0 && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n') {
		i--
	}
	if i < 0 {
		return false
	}
	switch b[i] {
	case '|', '&', '>', ':', '(', ',', '<', '?':
		return !(b[i] == '>' && i > 0 && b[i-1] != '=')
	}
	// x is { … }: a type predicate's object type.
	return i >= 2 && b[i] == 's' && b[i-1] == 'i' && !identByte(b[i-2])
}

// skipBalanced skips a bracketed group starting at the current token.
func (p *parser) skipBalanced() {
	depth := 0
	for p.tok.kind != tEOF {
		switch {
		case p.is("(") || p.is("[") || p.is("{"):
			depth++
		case p.is(")") || p.is("]") || p.is("}"):
			depth--
		}
		p.advance()
		if depth <= 0 {
			return
		}
	}
}

// skipAngles skips < … > (type parameters) at the current token.
func (p *parser) skipAngles() {
	depth := 0
	for p.tok.kind != tEOF {
		switch {
		case p.is("<"):
			depth++
		case p.is(">"):
			depth--
		case p.is(">>"):
			depth -= 2
		case p.is(">>>"):
			depth -= 3
		case p.is("(") || p.is("[") || p.is("{"):
			p.skipBalanced()
			continue
		}
		p.advance()
		if depth <= 0 {
			return
		}
	}
}

// indexSignatureAhead: [name: or [name in (a mapped type) at the current '['.
func (p *parser) indexSignatureAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	p.next()
	if !p.isName() {
		return false
	}
	p.next()
	return p.is(":")
}

// indexSignature parses [name: type]: type.
func (p *parser) indexSignature(cls int32) {
	p.expect("[")
	m := member{name: p.text(), off: int32(p.tok.start), ctor: -1}
	p.ref(p.tok)
	p.next()
	p.expect(":")
	p.typ()
	p.expect("]")
	if p.eat(":") {
		m.typ = p.annotation()
	}
	p.r.objs[cls].members = append(p.r.objs[cls].members, m)
}
