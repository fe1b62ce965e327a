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
	p.expTop = false
	var ids []int32
	for {
		if !p.isName() {
			var short []int32
			p.pattern(&short)
			_, val := p.declaratorRest()
			for _, b := range short {
				p.r.binds[b].kind, p.r.binds[b].val = bDestructured, val
			}
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
	b := p.refBind(name, bVar)
	p.next()
	p.r.binds[b].typ, p.r.binds[b].val = p.declaratorRest()
	if opened {
		p.closeScope()
	}
	return id
}

// declaratorRest parses what follows a declarator's name: TypeScript's
// definite assignment and annotation, and the value.
func (p *parser) declaratorRest() (typ, val int32) {
	if p.ts {
		p.eat("!")
		if p.eat(":") {
			typ = p.annotation()
		}
	}
	p.bareName = !p.is("=")
	if p.eat("=") {
		val = p.assign()
	}
	return typ, val
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
func (p *parser) function(w wrap, decl bool) int32 {
	start := p.tok.start
	p.eat("async")
	p.expect("function")
	gen := p.eat("*")
	id, opened := int32(-1), false
	fn := int32(-1)
	var leave func()
	if p.isName() && !p.is("(") {
		name := p.tok
		if decl && p.ts && !p.hasBodyAhead() {
			// An overload: function_signature, no body, no scope.
			id, _ = p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
				exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindFunction})
			fn = p.sigFn(name)
			p.declName(name)
			p.refBind(name, bOther)
			p.next()
			p.signature(fn)
			p.semi()
			p.endDef(id, p.prev)
			return 0
		}
		if decl {
			id, opened = p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
				exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindFunction, scope: scopeFunc})
			if gen {
				fn = p.newFn(fnOther) // generator_function_declaration: no signature facts
			} else {
				fn = p.sigFn(name)
			}
			p.declName(name)
			p.refBind(name, bOther)
			leave = p.openScope(sFunc, start)
		} else {
			fn, leave = p.functionExpr(gen, start)
			p.ref(name)
		}
		p.next()
	}
	p.expTop = false
	if fn < 0 {
		if p.ts && !p.hasBodyAhead() {
			if !w.export {
				p.failHere("anonymous function without a body")
			}
			// export default function (x: T): R; is a function_signature:
			// no scope.
			fn, leave = p.newFn(fnOther), func() {}
		} else {
			fn, leave = p.functionExpr(gen, start)
		}
	}
	cls := p.cls
	defer p.enterThis(fn, -1)()
	if !decl && !gen {
		defer p.noExportWalk()()
	}
	if !decl && gen {
		p.cls = cls // tsEnclosingClass does not stop at a generator_function
	}
	p.signature(fn)
	if !p.is("{") && p.ts {
		// export default function (x: T): R; an anonymous overload.
		p.semi()
	} else {
		p.block()
	}
	leave()
	if opened {
		p.closeScope()
	}
	if decl {
		p.declEnd(w.export)
	}
	p.endDef(id, p.prev)
	if decl || gen {
		return 0
	}
	return p.r.expr(expr{kind: xFunc, a: fn})
}

// functionExpr records a function expression; a generator_function is
// no scope to the describer (tsScopeTypes), nor a function literal.
func (p *parser) functionExpr(gen bool, start int) (int32, func()) {
	if gen {
		return p.newFn(fnOther), func() {}
	}
	return p.newFn(fnLiteral), p.openScope(sFunc, start)
}

// signature parses type parameters, parameters and return type.
func (p *parser) signature(fn int32) {
	if p.ts && p.is("<") {
		p.typeParams()
	}
	p.params(fn)
	if p.ts && p.eat(":") {
		p.r.fns[fn].ret = p.annotated(p.returnType)
	}
}

// params parses ( parameters ) of the function fn.
func (p *parser) params(fn int32) {
	p.enter()
	p.expect("(")
	for i := int32(0); !p.is(")"); {
		if p.param(fn, i) {
			i++
		}
		if !p.eat(",") {
			break
		}
	}
	p.expect(")")
	p.leave()
}

// param is one parameter: decorators, modifiers, a pattern, ?, a type and
// a default.
// param is one parameter of fn, the i-th of tsParams; it reports whether
// it is one of those (not this).
func (p *parser) param(fn, i int32) bool {
	for p.is("@") {
		p.decorator()
	}
	prop := false
	if p.ts {
		for {
			w := p.text()
			if !p.tsModifier() {
				break
			}
			prop = prop || w != "readonly"
		}
	}
	rest := p.eat("...")
	if p.ts && p.is("this") {
		p.next()
		if p.eat(":") {
			p.typ()
		}
		if p.eat("=") {
			p.assign()
		}
		return false
	}
	nameTok := p.tok
	b := p.pattern(nil)
	prm := param{prop: prop}
	if p.ts {
		p.eat("?")
		if p.eat(":") {
			prm.typ = p.annotation()
		}
	}
	var def int32
	hasDef := p.eat("=")
	if hasDef {
		def = p.assign()
	}
	if b >= 0 && !rest {
		bd := &p.r.binds[b]
		switch {
		case p.ts:
			bd.kind, bd.typ, bd.val, bd.fn, bd.param = bParam, prm.typ, def, fn, i
			prm.name, prm.off = bd.name, int32(nameTok.start)
		case hasDef:
			bd.kind, bd.val = bJSDefault, def
		}
	}
	if p.ts && fn >= 0 {
		p.r.fns[fn].params = append(p.r.fns[fn].params, prm)
	}
	return true
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
// pattern parses a binding pattern and returns the binding of a plain
// name, -1 else; short, when not nil, collects the shorthand names of a
// top-level object pattern.
func (p *parser) pattern(short *[]int32) int32 {
	p.enter()
	defer p.leave()
	switch {
	case p.isName():
		if reserved[p.text()] {
			p.failHere("reserved word as a name")
		}
		b := p.refBind(p.tok, bOther)
		p.next()
		return b
	case p.is("["):
		p.next()
		for !p.is("]") {
			if p.eat(",") {
				continue
			}
			p.eat("...")
			p.pattern(nil)
			if p.eat("=") {
				p.assign()
			}
			if !p.eat(",") {
				break
			}
		}
		p.expect("]")
	case p.is("{"):
		p.objectPattern(short)
	default:
		p.failHere("expected a name or pattern")
	}
	return -1
}

func (p *parser) objectPattern(short *[]int32) {
	p.next()
	for !p.is("}") {
		if p.eat("...") {
			p.pattern(nil)
		} else {
			key := p.tok
			nref := len(p.r.refs)
			p.propertyName()
			if p.eat(":") {
				if len(p.r.refs) > nref && key.kind == tName {
					p.r.refs[nref] = refCtx{} // pair_pattern's key: a property_identifier
				}
				p.pattern(nil)
			} else if key.kind != tName {
				p.failHere("expected :")
			} else if len(p.r.refs) > nref {
				p.r.refs[nref].binding = true
				b := p.bind(key, bOther)
				if short != nil && !p.is("=") {
					*short = append(*short, b)
				}
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
