package tsscan

import "github.com/parleyhq/parley/index/extract"

// Declarations: variables, functions, classes, imports and exports.

// lexical parses a var, let or const declaration with its ';' and
// returns its declarators' symbols, whose ranges endDefs closes.
func (p *parser) lexical(w wrap) []int32 {
	ids := p.lexicalDeclarators(w)
	p.semi()
	p.bareName = false
	return ids
}

// endDefs ends the ranges of ids at the token just read.
func (p *parser) endDefs(ids []int32) {
	for _, id := range ids {
		p.endDef(id, p.prev)
	}
}

// lexicalDeclarators parses the keyword and the declarators (jsDeclarator).
func (p *parser) lexicalDeclarators(w wrap) []int32 {
	decl := p.tok.start
	isConst := p.is("const")
	p.next()
	var ids []int32
	for {
		if !p.isName() {
			p.pattern()
			p.declaratorRest()
		} else if id := p.declarator(decl, isConst, w); id >= 0 {
			ids = append(ids, id)
		}
		if !p.eat(",") {
			return ids
		}
	}
}

// declarator parses a declarator named by an identifier and returns its
// symbol, -1 for none.
func (p *parser) declarator(decl int, isConst bool, w wrap) int32 {
	name := p.tok
	if reserved[p.text()] {
		p.failHere("reserved word as a name")
	}
	vk := p.valueKind()
	d := defSite{node: name.start, decl: decl, sig: decl, wrapper: w.start, wrapSig: w.firstTok, exported: w.export,
		nameStart: name.start, nameEnd: name.end}
	switch {
	case vk == valFunc:
		d.kind, d.scope = extract.KindFunction, scopeFunc
	case vk == valClass:
		d.kind, d.scope = extract.KindClass, scopeType
	case p.inFunc():
	case len(p.scopes) > 0 && p.scopes[len(p.scopes)-1].kind == scopeType:
	case isConst:
		d.kind = extract.KindConstant
	default:
		d.kind = extract.KindVariable
	}
	id, opened := int32(-1), false
	if d.kind != 0 {
		id, opened = p.define(d)
	}
	p.ref(name)
	p.next()
	p.declaratorRest()
	if opened {
		p.closeScope()
	}
	return id
}

// declaratorRest parses what follows a declarator's name: TypeScript's
// definite assignment and annotation, and the value.
func (p *parser) declaratorRest() {
	if p.ts {
		p.eat("!")
		if p.eat(":") {
			p.typ()
		}
	}
	p.bareName = !p.is("=")
	if p.eat("=") {
		p.assign()
	}
}

type valKind uint8

const (
	valOther valKind = iota
	valFunc
	valClass
)

// valueKind looks past a declarator's name and annotation at its value:
// a function (function, arrow) or class expression, or anything else.
func (p *parser) valueKind() valKind {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	p.next()
	if p.ts && p.is("!") {
		p.next()
	}
	if p.ts && p.is(":") {
		// Skip the annotation: tokens up to a '=' outside brackets.
		if !p.skipTo("=") {
			return valOther
		}
	}
	if !p.is("=") {
		return valOther
	}
	p.next()
	switch {
	case p.is("function"), p.is("async") && p.tokIs(p.peek(), "function"):
		return valFunc
	case p.is("class"):
		return valClass
	}
	if p.arrowAhead() {
		return valFunc
	}
	return valOther
}

// skipTo advances, across brackets, to the punctuation s at depth 0;
// false at a statement's end first.
func (p *parser) skipTo(s string) bool {
	depth := 0
	for p.tok.kind != tEOF {
		switch {
		case depth == 0 && p.is(s):
			return true
		case p.is("(") || p.is("[") || p.is("{"):
			depth++
		case p.is(")") || p.is("]") || p.is("}"):
			if depth--; depth < 0 {
				return false
			}
		case depth == 0 && (p.is(";") || p.is(",")):
			return false
		}
		p.advance()
	}
	return false
}

// function parses a function declaration (decl) or expression from its
// async or function keyword.
func (p *parser) function(w wrap, decl bool) {
	start := p.tok.start
	p.eat("async")
	p.expect("function")
	p.eat("*")
	id, opened := int32(-1), false
	if p.isName() && !p.is("(") {
		name := p.tok
		if decl && p.ts && !p.hasBodyAhead() {
			// An overload: function_signature, no body, no scope.
			id, _ = p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
				exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindFunction})
			p.ref(name)
			p.next()
			p.signature()
			p.semi()
			p.endDef(id, p.prev)
			return
		}
		if decl {
			id, opened = p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
				exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindFunction, scope: scopeFunc})
		}
		p.ref(name)
		p.next()
	}
	p.signature()
	if !p.is("{") && p.ts {
		// export default function (x: T): R; an anonymous overload.
		p.semi()
	} else {
		p.block()
	}
	if opened {
		p.closeScope()
	}
	p.endDef(id, p.prev)
}

// signature parses type parameters, parameters and return type.
func (p *parser) signature() {
	if p.ts && p.is("<") {
		p.typeParams()
	}
	p.params()
	if p.ts && p.eat(":") {
		p.returnType()
	}
}

// params parses ( parameters ).
func (p *parser) params() {
	p.enter()
	p.expect("(")
	for !p.is(")") {
		p.param()
		if !p.eat(",") {
			break
		}
	}
	p.expect(")")
	p.leave()
}

// param is one parameter: decorators, modifiers, a pattern, ?, a type and
// a default.
func (p *parser) param() {
	for p.is("@") {
		p.decorator()
	}
	if p.ts {
		for p.tsModifier() {
		}
	}
	p.eat("...")
	if p.ts && p.is("this") {
		p.next()
	} else {
		p.pattern()
	}
	if p.ts {
		p.eat("?")
		if p.eat(":") {
			p.typ()
		}
	}
	if p.eat("=") {
		p.assign()
	}
}

// tsModifier skips a parameter's accessibility or readonly modifier.
func (p *parser) tsModifier() bool {
	switch p.text() {
	case "public", "private", "protected", "readonly", "override":
		if t := p.peek(); t.kind == tName || p.tokIs(t, "{") || p.tokIs(t, "[") || p.tokIs(t, "...") {
			p.next()
			return true
		}
	}
	return false
}

// pattern parses a binding pattern: a name, [ ... ] or { ... }.
func (p *parser) pattern() {
	p.enter()
	defer p.leave()
	switch {
	case p.isName():
		if reserved[p.text()] {
			p.failHere("reserved word as a name")
		}
		p.ref(p.tok)
		p.next()
	case p.is("["):
		p.next()
		for !p.is("]") {
			if p.eat(",") {
				continue
			}
			p.eat("...")
			p.pattern()
			if p.eat("=") {
				p.assign()
			}
			if !p.eat(",") {
				break
			}
		}
		p.expect("]")
	case p.is("{"):
		p.objectPattern()
	default:
		p.failHere("expected a name or pattern")
	}
}

func (p *parser) objectPattern() {
	p.next()
	for !p.is("}") {
		if p.eat("...") {
			p.pattern()
		} else {
			key := p.tok
			p.propertyName()
			if p.eat(":") {
				p.pattern()
			} else if key.kind != tName {
				p.failHere("expected :")
			}
			if p.eat("=") {
				p.assign()
			}
		}
		if !p.eat(",") {
			break
		}
	}
	p.expect("}")
}

// propertyName parses a property's name: a word (a reference), a string,
// a number, a private #name or a computed [expression].
func (p *parser) propertyName() {
	switch p.tok.kind {
	case tName, tPrivate:
		p.ref(p.tok)
		p.next()
	case tString, tNum:
		p.next()
	default:
		if p.is("[") {
			p.next()
			p.assign()
			p.expect("]")
			return
		}
		p.failHere("expected a property name")
	}
}

// decorator parses @expression.
func (p *parser) decorator() {
	p.expect("@")
	p.postfixOnly()
}

// decorated parses decorators before a class or an export statement.
func (p *parser) decorated(w wrap) {
	start := p.tok.start
	for p.is("@") {
		p.decorator()
	}
	switch {
	case p.is("export"):
		p.exportFrom(start)
	case p.is("class"), p.is("abstract"):
		p.class(w, start, true)
	default:
		p.failHere("decorator before what")
	}
}
