package cppscan

import (
	"github.com/parleyhq/parley/index/extract"
)

// tmpl is a template_declaration wrapping the declaration that follows
// (the walker's defSite.wrapper): where its "template" starts.
type tmpl struct {
	ok         bool
	start      uint32
	line       uint32
	paramsOpen int // token index of its "<"
}

// declaration parses one declaration at p.i, at the level of the file,
// a namespace or a class.
func (p *parser) declaration(ctx int) {
	var w tmpl
	if t := p.peek(); p.word(t) == wTemplate {
		// template <class T> template <class U> R A<T>::f(U): the
		// declaration's wrapper is the innermost template_declaration.
		for p.word(t) == wTemplate {
			if !p.is(p.at(1), "<") {
				fail("explicit instantiation at %d", t.Start)
			}
			w = tmpl{ok: true, start: t.Start, line: t.Line}
			p.i++
			p.templateParams()
			t = p.peek()
		}
	}
	t := p.peek()
	switch p.word(t) {
	case wNamespace:
		if w.ok {
			fail("template namespace")
		}
		p.namespace()
	case wUsing:
		p.using(w)
	case wTypedef:
		if w.ok {
			fail("template typedef")
		}
		p.typedef()
	case wFriend:
		p.friend(ctx)
	case wAssert:
		if w.ok {
			fail("template static_assert")
		}
		p.i++
		p.expect("(")
		p.expr(")")
		p.expect(")")
		p.expect(";")
	case wExpr, wStmt, wBranch, wCase, wDefault, wDo, wGoto, wDecline, wNew, wVirtSpec, wAccess, wNoexcept:
		fail("%q at the level of declarations at %d", p.text(t), t.Start)
	default:
		p.general(ctx, w)
	}
}

// templateParams reads a template parameter list from its "<": its
// names are references, its default values expressions.
func (p *parser) templateParams() {
	p.expect("<")
	for {
		t := p.peek()
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			fail("unclosed template parameters")
		case p.is(t, ">"):
			p.i++
			return
		case p.is(t, "<"):
			p.i++
			p.angle()
		case p.is(t, "("):
			fail("parentheses in template parameters at %d", t.Start)
		case p.is(t, "{") || p.is(t, "}") || p.is(t, ";"):
			fail("template parameters at %d", t.Start)
		case p.macroAmongParams() && p.macroArg():
		case t.Kind == tIdent:
			switch p.word(t) {
			case wIdent:
				p.ref(t, false)
			case wTemplate, wTag, wTypename, wPrim, wSized, wSpec:
			default:
				fail("%q in template parameters", p.text(t))
			}
			p.i++
		case p.is(t, ",") || p.is(t, "*") || p.is(t, "&") || p.is(t, "&&") || p.is(t, "::") || p.is(t, "...") ||
			p.is(t, "=") || t.Kind == tNum && p.is(p.at(-1), "="):
			p.i++
		default:
			fail("%q in template parameters at %d", p.text(t), t.Start)
		}
	}
}

// angle reads template arguments after their "<" to the matching ">":
// names are references, and expressions in parentheses are read as
// expressions (decltype(f()) calls f).
func (p *parser) angle() {
	if t, lt := p.peek(), p.at(-1); p.is(t, "::") && p.is(lt, "<") && lt.End == t.Start {
		fail("<:: at %d", lt.Start) // <: may be a digraph's [
	}
	for {
		t := p.peek()
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			fail("unclosed template arguments")
		case p.is(t, ">"):
			p.i++
			return
		case p.is(t, "<"):
			prev := p.at(-1)
			if !p.isName(prev) {
				fail("< in template arguments at %d", t.Start)
			}
			p.i++
			p.angle()
		case p.is(t, "(") || p.is(t, "["):
			close := map[byte]string{'(': ")", '[': "]"}[p.m[t.Start]]
			p.i++
			p.expr(close)
			p.expect(close)
		case p.is(t, "&&") || p.is(t, "||"):
			// T&&, a reference type, or a condition (is_a<T>::value &&
			// is_b<T>::value): its names are references either way,
			// and a call in it is read by the cases here.
			p.i++
		case p.is(t, "?"):
			if p.shiftAhead() {
				fail("a conditional before >> at %d", t.Start) // a<b ? c : d>>: a shift to tree-sitter
			}
			p.branch() // a conditional_expression, as in a body
			p.i++
		case p.is(t, "::") && !p.isName(p.at(1)) && p.word(p.at(1)) != wTemplate && p.word(p.at(1)) != wPrim &&
			p.word(p.at(1)) != wSized:
			fail("%q after :: in template arguments at %d", p.text(p.at(1)), t.Start)
		case p.is(t, "{") || p.is(t, "}") || p.is(t, ";"):
			fail("%s in template arguments at %d", p.text(t), t.Start)
		case t.Kind == tIdent:
			p.twoNames(t)
			p.argWord(t)
		default:
			p.i++
		}
	}
}

// shiftAhead reports whether the first ">" after p.i touches another
// (>>), which tree-sitter may read as a shift inside a conditional.
func (p *parser) shiftAhead() bool {
	for k := 1; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || p.is(t, ";") || p.is(t, "{") || p.is(t, "}"):
			return false
		case p.is(t, ">"):
			n := p.at(k + 1)
			return p.is(n, ">") && n.Start == t.End
		}
	}
}

// macroAmongParams reports whether the name at p.i calls a macro
// among template parameters: after a parameter's name (class A
// M(= void)) or before one (M(void()) Handler); M(A) alone may be
// a parameter of a function type.
func (p *parser) macroAmongParams() bool {
	if !p.is(p.at(1), "(") {
		return false
	}
	if p.isName(p.at(-1)) || p.is(p.at(-1), "=") {
		return true // a default value's call is a call to tree-sitter too
	}
	n, ok := p.afterCall()
	return ok && p.isName(n)
}

// afterCall is the token after the parentheses of the call at p.i
// (NAME "(" ... ")"); ok is false when a directive, ";", a brace or the
// end comes first.
func (p *parser) afterCall() (tok, bool) {
	depth := 0
	for k := 1; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir || p.is(t, ";") || p.is(t, "{") || p.is(t, "}"):
			return tok{}, false
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			if depth--; depth == 0 {
				return p.at(k + 1), true
			}
		}
	}
}

// twoNames declines a name right after a name or a number in a type.
func (p *parser) twoNames(t tok) {
	if prev := p.at(-1); p.isName(t) && (p.isName(prev) || prev.Kind == tNum) {
		fail("two names in a type at %d", t.Start)
	}
}

// argWord reads a word in template arguments or a type.
func (p *parser) argWord(t tok) {
	switch p.word(t) {
	case wIdent:
		p.ref(t, p.is(p.at(1), "(") && p.literalArgs())
	case wPrim, wSized, wSpec, wTypename, wTag, wEnum:
	case wExpr:
		// sizeof(T), alignof(T): the parentheses are read after it as
		// an expression's, T a reference either way.
		if s := p.text(t); s != "true" && s != "false" && s != "nullptr" &&
			!((s == "sizeof" || s == "alignof") && (p.is(p.at(1), "(") || p.is(p.at(1), "..."))) {
			fail("%q in a type at %d", s, t.Start)
		}
	case wDecltype, wNoexcept:
		if !p.is(p.at(1), "(") {
			fail("decltype without (")
		}
		p.i += 2
		p.expr(")")
		p.expect(")")
		return
	case wTemplate:
		if !p.is(p.at(-1), "::") {
			fail("template in a type at %d", t.Start)
		}
	default:
		fail("%q in a type at %d", p.text(t), t.Start)
	}
	p.i++
}

// namespace reads a namespace definition.
func (p *parser) namespace() {
	kw := p.peek()
	name := p.at(1)
	if p.is(name, "{") {
		p.i += 2
		p.nsOpen(kw, name)
		p.items(ctxNS)
		p.nsClose(p.expect("}"))
		return
	}
	if !p.isName(name) || !p.is(p.at(2), "{") {
		fail("namespace form at %d", kw.Start)
	}
	sym, opened := p.define(&def{kind: extract.KindNamespace, scope: extract.ScopeNS, node: kw.Start,
		decl: kw.Start, declLine: kw.Line, first: kw.Start, firstLine: kw.Line, sig: kw.Start,
		name: name, nameEnd: name.End})
	p.ref(name, false)
	p.i += 3
	p.nsOpen(kw, p.at(-1))
	p.items(ctxNS)
	end := p.expect("}")
	p.nsClose(end)
	p.end(sym, opened, end.End)
}

// nsOpen and nsClose keep a namespace's head (from its keyword to its
// "{") and its "}" for tree-sitter when it encloses a span.
func (p *parser) nsOpen(kw, brace tok) {
	if !p.dry {
		p.reg.Open(extract.Span{Start: kw.Start, End: brace.End})
	}
}

func (p *parser) nsClose(brace tok) {
	if !p.dry {
		p.reg.Close(extract.Span{Start: brace.Start, End: brace.End})
	}
}

// using reads a using directive, declaration or alias.
func (p *parser) using(w tmpl) {
	kw := p.peek()
	p.i++
	if p.word(p.peek()) == wNamespace {
		if w.ok {
			fail("template using namespace")
		}
		p.i++
		p.typeUntil(";")
		p.expect(";")
		return
	}
	name := p.peek()
	if p.isName(name) && p.is(p.at(1), "=") {
		first, firstLine, sig := kw.Start, kw.Line, kw.Start
		if w.ok {
			first, firstLine = w.start, w.line
			if w.line == kw.Line {
				sig = w.start
			}
		}
		sym, opened := p.define(&def{kind: extract.KindClass, node: kw.Start, decl: kw.Start, declLine: kw.Line,
			first: first, firstLine: firstLine, sig: sig, name: name, nameEnd: name.End})
		p.ref(name, false)
		p.i += 2
		p.typeUntil(";")
		end := p.expect(";")
		p.end(sym, opened, end.End)
		return
	}
	if w.ok {
		fail("template using declaration")
	}
	p.typeUntil(";")
	p.expect(";")
}

// typeUntil reads a type's tokens up to the punctuation stop at depth 0.
func (p *parser) typeUntil(stop string) {
	for {
		t := p.peek()
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			fail("unterminated type at %d", t.Start)
		case p.is(t, stop):
			return
		case p.is(t, "<"):
			p.i++
			p.angle()
		case t.Kind == tIdent:
			p.twoNames(t)
			p.argWord(t)
		case p.is(t, "::") || p.is(t, "*") || p.is(t, "&") || p.is(t, "&&") || p.is(t, ","):
			p.i++
		default:
			fail("%q in a type at %d", p.text(t), t.Start)
		}
	}
}

// friend reads a friend declaration of a class: a class named, or a
// function declared or defined (a symbol of the class, as tree-sitter's
// declaration or function_definition under friend_declaration).
func (p *parser) friend(ctx int) {
	p.i++
	if w := p.word(p.peek()); w == wTag || w == wTypename {
		p.i++
		p.typeUntil(";")
		p.expect(";")
		return
	}
	if ctx != ctxClass {
		fail("friend outside a class")
	}
	p.general(ctxNS, tmpl{})
}

// typedef records a type definition, named after its first declarator
// and typed as the struct, union or enum it names; the symbol is the
// container of what the type's body defines, so it comes first (a
// look-ahead finds its name).
func (p *parser) typedef() {
	kw := p.peek()
	save := p.i
	p.dry = true
	p.i++
	s := specs{start: p.peek()}
	p.specifiers(&s, ctxNS, tmpl{})
	if !s.typed {
		fail("typedef without a type at %d", kw.Start)
	}
	name := p.typedefDeclarator()
	p.dry, p.i = false, save
	d := def{kind: extract.KindClass, scope: extract.ScopeType, name: name, nameEnd: name.End}
	for k := 1; ; k++ {
		t := p.at(k)
		if w := p.word(t); w == wTag {
			if p.text(t) != "class" {
				d.kind = extract.KindStruct
			}
		} else if w == wEnum {
			d.kind = extract.KindEnum
		} else if w == wSpec || w == wTypename {
			continue
		}
		break
	}
	defAt(&d, kw, tmpl{})
	sym, opened := p.define(&d)
	p.i++
	s = specs{start: p.peek()}
	p.specifiers(&s, ctxNS, tmpl{})
	for {
		p.typedefDeclarator()
		if !p.is(p.peek(), ",") {
			break
		}
		p.i++
	}
	end := p.expect(";")
	p.end(sym, opened, end.End)
}

// typedefDeclarator reads a typedef's declarator and returns its name.
func (p *parser) typedefDeclarator() tok {
	for p.is(p.peek(), "*") || p.is(p.peek(), "&") || p.is(p.peek(), "&&") || p.word(p.peek()) == wSpec {
		p.i++
	}
	name := p.peek()
	if !p.isName(name) {
		fail("typedef declarator at %d", name.Start)
	}
	p.ref(name, false)
	p.i++
	for p.is(p.peek(), "[") {
		p.i++
		p.expr("]")
		p.expect("]")
	}
	return name
}

// literalArgs reports whether the parentheses after the name at p.i
// hold a literal, so that name(...) in a type or template arguments is
// a call (encoded_size(16)); names alone there read as a function type
// (R(A)) or, as tree-sitter's parse goes, a call: declined.
func (p *parser) literalArgs() bool {
	if !p.is(p.at(2), ")") && (p.at(2).Kind == tNum || p.at(2).Kind == tStr) && p.is(p.at(3), ")") {
		return true
	}
	fail("a function type or a call in a type at %d", p.peek().Start)
	return false
}
