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
	if p.isName() && !p.is("extends") && !p.is("implements") && !p.is("{") {
		name := p.tok
		id, opened = p.define(defSite{node: start, decl: start, sig: sig, wrapper: w.start, wrapSig: w.firstTok,
			exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindClass, scope: scopeType})
		p.ref(name)
		p.next()
	}
	if p.ts && p.is("<") {
		p.typeParams()
	}
	if p.eat("extends") {
		p.heritage()
	}
	if p.ts && p.eat("implements") {
		for {
			p.typ()
			if !p.eat(",") {
				break
			}
		}
	}
	p.classBody()
	if opened {
		p.closeScope()
	}
	p.endDef(id, p.prev)
}

// heritage parses the extends clause's expression. TypeScript's type
// arguments there reach the parser as call parentheses when the mask
// rewrote them (extract.TSMask), and are then a call.
func (p *parser) heritage() {
	p.postfixOnly()
	if p.ts && p.is("<") {
		p.typeArgs()
	}
}

func (p *parser) classBody() {
	p.enter()
	defer p.leave()
	p.expect("{")
	for !p.is("}") {
		if p.tok.kind == tEOF {
			p.failHere("unclosed class body")
		}
		if p.eat(";") {
			continue
		}
		p.member(false)
	}
	p.next()
}

// member parses one class member (or, with obj, one object literal
// member that is a method).
func (p *parser) member(obj bool) {
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
		p.indexSignature()
		p.memberEnd()
		return
	}
	p.memberDef(start, sig, private, accessor, obj)
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
func (p *parser) memberDef(start, sig int, private, accessor, obj bool) {
	name := p.tok
	nameEnd := name.end
	isComputed := p.is("[")
	d := defSite{node: start, decl: start, sig: sig, wrapper: -1, nameStart: name.start, private: private}
	if name.kind == tString && name.end-name.start == 2 {
		p.failHere("member named by an empty string")
	}
	method := p.methodAfterName()
	switch {
	case method && p.hasBodyAhead():
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
	p.propertyName()
	if method {
		if p.ts {
			p.eat("?")
		}
		p.signature()
		if p.is("{") {
			p.block()
		} else if !p.ts || opened {
			p.failHere("expected a method body")
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
			p.typ()
		}
	}
	if p.eat("=") {
		p.assign()
	}
	p.endDef(id, p.prev)
	p.memberEnd()
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
func (p *parser) indexSignature() {
	p.expect("[")
	p.ref(p.tok)
	p.next()
	p.expect(":")
	p.typ()
	p.expect("]")
	if p.eat(":") {
		p.typ()
	}
}
