package cppscan

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// dname is a declarator's name: its tokens, the scopes before it.
type dname struct {
	name      tok
	end       uint32
	container string
	special   bool // ~A or operator: a name a type may be missing before
}

// declarator reads one declarator of a declaration and what follows it
// (an initializer, a body); it reports whether the declaration ended.
func (p *parser) declarator(ctx int, w tmpl, s *specs) bool {
	dstart := p.peek()
	for {
		t := p.peek()
		if p.is(t, "*") || p.is(t, "&") || p.is(t, "&&") || p.word(t) == wSpec {
			p.i++
			continue
		}
		break
	}
	if p.is(p.peek(), "(") {
		fail("parenthesized declarator at %d", p.peek().Start)
	}
	n := p.declName()
	isFunc := p.is(p.peek(), "(")
	if !s.typed && !n.special && !(isFunc && ctx == ctxClass && (p.ctorOf(n) || p.macroMember())) && n.container == "" {
		fail("declarator without a type at %d", n.name.Start)
	}
	if !s.typed && n.special && n.container == "" && ctx != ctxClass {
		// operator!(A); outside a class: a call to tree-sitter.
		fail("an operator without a type at %d", n.name.Start)
	}
	if n.special && !isFunc {
		fail("destructor or operator without parameters at %d", n.name.Start)
	}
	if isFunc && s.body {
		fail("a function returning a type it defines at %d", n.name.Start)
	}
	if isFunc {
		p.params()
		p.funcSuffix()
	}
	for p.is(p.peek(), "[") {
		p.i++
		p.expr("]")
		p.expect("]")
	}
	if isFunc && p.defaulted() && ctx != ctxClass && n.container == "" {
		fail("= default outside a class at %d", n.name.Start)
	}
	if isFunc && (p.is(p.peek(), "{") || p.is(p.peek(), ":") || p.defaulted()) {
		p.definition(s, w, n)
		return true
	}
	d := def{kind: extract.KindVariable, name: n.name, nameEnd: n.end, container: n.container,
		static: s.static, topOnly: true}
	defAt(&d, s.start, w)
	d.node = dstart.Start
	switch {
	case isFunc:
		d.kind = extract.KindFunction
		if n.container != "" {
			d.kind = extract.KindMethod
		}
	case ctx == ctxClass && !w.ok:
		d.kind = extract.KindField // a field_declaration's, in an anonymous struct too
	}
	sym, opened := p.define(&d)
	return p.declaratorEnd(ctx, isFunc, pend{sym, opened})
}

// declaratorEnd reads a declarator's initializer or bit width and what
// ends it: "," (it reports false) or the declaration's ";", where the
// ranges of its declarators' symbols end.
func (p *parser) declaratorEnd(ctx int, isFunc bool, q pend) bool {
	switch t := p.peek(); {
	case p.is(t, "=") && isFunc:
		fail("a function with an initializer at %d", t.Start)
	case p.is(t, "="):
		p.i++
		p.exprUntil(",", ";")
	case p.is(t, "{") && !isFunc:
		p.i++
		p.expr("}")
		p.expect("}")
		if !p.is(p.peek(), ";") && !p.is(p.peek(), ",") {
			fail("braces after a declarator at %d", t.Start) // tree-sitter reads a function
		}
	case p.is(t, ":") && !isFunc && ctx == ctxClass:
		p.i++
		p.exprUntil(",", ";")
	}
	p.pending = append(p.pending, q)
	switch t := p.peek(); {
	case p.is(t, ","):
		p.i++
		return false
	case p.is(t, ";"):
		p.i++
		for _, q := range p.pending {
			p.end(q.sym, q.opened, t.End)
		}
		p.pending = p.pending[:0]
		return true
	default:
		fail("%q after a declarator at %d", p.text(t), t.Start)
	}
	return true
}

// pend is a declarator's symbol whose range ends with its declaration.
type pend struct {
	sym    int32
	opened bool
}

// ctorOf reports whether n names the class being defined.
func (p *parser) ctorOf(n dname) bool {
	if p.dry {
		return true
	}
	sc := p.e.scopes.Inner()
	if sc == nil || sc.Kind != extract.ScopeType {
		return false
	}
	// A specialization's scope is named foo<T, false>.
	// A class defined by a qualified name (class scheduler::thread_function)
	// is named with its scopes.
	last, name := extract.LastSegment(sc.Qual), p.text(n.name)
	if i := strings.LastIndex(last, "::"); i >= 0 && !strings.Contains(last[i:], "<") {
		last = last[i+2:]
	}
	return last == name || strings.HasPrefix(last, name+"<")
}

// declName reads a declarator's (qualified) name: its scopes' names,
// a destructor's, an operator.
func (p *parser) declName() dname {
	var scopes []string
	for {
		t := p.peek()
		switch {
		case p.is(t, "~"):
			n := p.at(1)
			if !p.isName(n) {
				fail("destructor name at %d", t.Start)
			}
			p.ref(n, false)
			p.i += 2
			return dname{name: t, end: n.End, container: strings.Join(scopes, "."), special: true}
		case p.word(t) == wOperator:
			return p.operatorName(t, scopes)
		case p.isName(t):
			p.ref(t, false)
			p.i++
			if p.is(p.peek(), "<") {
				p.i++
				p.angle()
				if !p.is(p.peek(), "::") && !p.is(p.peek(), "(") {
					fail("template arguments after a declarator at %d", t.Start)
				}
			}
			if !p.is(p.peek(), "::") {
				return dname{name: t, end: t.End, container: strings.Join(scopes, ".")}
			}
			scopes = append(scopes, p.text(t))
			p.i++
			if p.word(p.peek()) == wTemplate {
				fail("template after :: at %d", t.Start)
			}
		default:
			fail("declarator name %q at %d", p.text(t), t.Start)
		}
	}
}

// operatorName reads operator==, operator(), operator[], operator new.
func (p *parser) operatorName(kw tok, scopes []string) dname {
	p.i++
	t := p.peek()
	switch {
	case p.is(t, "(") && p.is(p.at(1), ")"), p.is(t, "[") && p.is(p.at(1), "]"):
		p.i += 2
	case p.is(t, ">") && p.is(p.at(1), ">") && p.at(1).Start == t.End:
		p.i += 2
		if p.is(p.peek(), "=") && p.peek().Start == t.End+1 {
			p.i++
		}
	case p.is(t, ">") && p.is(p.at(1), "=") && p.at(1).Start == t.End:
		p.i += 2
	case t.Kind == tPunct && !p.is(t, "(") && !p.is(t, "::"):
		p.i++
	default:
		fail("operator form at %d", kw.Start)
	}
	if !p.is(p.peek(), "(") {
		fail("operator without parameters at %d", kw.Start)
	}
	return dname{name: kw, end: p.at(-1).End, container: strings.Join(scopes, "."), special: true}
}

// params reads a parameter list from its "(": names are references,
// default values expressions.
func (p *parser) params() {
	p.expect("(")
	for {
		t := p.peek()
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			fail("unclosed parameters")
		case p.is(t, ")"):
			p.i++
			return
		case p.is(t, "="):
			p.i++
			p.exprUntil(",", ")")
		case p.is(t, "<"):
			p.i++
			p.angle()
		case p.is(t, "("):
			fail("parentheses in parameters at %d", t.Start)
		case p.is(t, "["):
			if p.is(p.at(1), "[") {
				fail("attribute in parameters at %d", t.Start)
			}
			p.i++
			p.expr("]")
			p.expect("]")
		case p.macroParam():
		case p.isName(p.at(-1)) && p.macroArg():
			// T h BOOST_ASIO_DEFAULT_COMPLETION_TOKEN(E): a default
			// argument by macro, an error tree to tree-sitter (pinned).
		case t.Kind == tIdent:
			p.argWord(t)
		case (p.is(t, "*") || p.is(t, "&") || p.is(t, "&&")) && (p.is(p.at(-1), "(") || p.is(p.at(-1), ",")):
			fail("an operand or a parameter at %d", t.Start) // T x(&y); initializes x
		case p.is(t, ",") || p.is(t, "*") || p.is(t, "&") || p.is(t, "&&") || p.is(t, "::") || p.is(t, "..."):
			p.i++
		default:
			fail("%q in parameters at %d", p.text(t), t.Start)
		}
	}
}

// funcSuffix reads what may follow a function's parameters: qualifiers,
// noexcept, a trailing return type, = 0, = default, = delete.
func (p *parser) funcSuffix() {
	for {
		t := p.peek()
		switch {
		case p.word(t) == wSpec || p.word(t) == wVirtSpec || p.is(t, "&") || p.is(t, "&&"):
			p.i++
		case p.word(t) == wNoexcept:
			p.i++
			if p.is(p.peek(), "(") {
				p.i++
				p.expr(")")
				p.expect(")")
			}
		case p.word(t) == wExpr && p.text(t) == "throw":
			p.i++
			p.expect("(")
			p.typeUntil(")")
			p.expect(")")
		case p.is(t, "->"):
			p.i++
			p.trailingType()
		case p.is(t, "=") && p.text(p.at(1)) == "0":
			p.i += 2
		default:
			return
		}
	}
}

// trailingType reads a trailing return type up to ; { or =.
func (p *parser) trailingType() {
	for {
		t := p.peek()
		switch {
		case p.is(t, ";") || p.is(t, "{") || p.is(t, "=") || p.is(t, ","):
			return
		case p.word(t) == wVirtSpec:
			return
		case p.is(t, "<"):
			p.i++
			p.angle()
		case t.Kind == tIdent:
			p.twoNames(t)
			p.argWord(t)
		case p.is(t, "::") || p.is(t, "*") || p.is(t, "&") || p.is(t, "&&"):
			p.i++
		default:
			fail("%q in a trailing return type at %d", p.text(t), t.Start)
		}
	}
}

// definition records a function definition and reads its constructor
// initializers and body.
func (p *parser) definition(s *specs, w tmpl, n dname) {
	if p.inFunc() {
		fail("function defined in a function")
	}
	d := def{kind: extract.KindFunction, scope: extract.ScopeFunc, name: n.name, nameEnd: n.end,
		container: n.container, static: s.static}
	if n.container != "" {
		d.kind = extract.KindMethod
	}
	// T f() {};: tree-sitter reads a declaration (in a class a
	// field_declaration) whose initializer is the braces, ending at its
	// ";", no scope.
	field := s.typed && p.is(p.peek(), "{") && p.is(p.at(1), "}") && p.is(p.at(2), ";") && !p.dry
	if field {
		d.scope = extract.ScopeNone
	}
	defAt(&d, s.start, w)
	sym, opened := p.define(&d)
	if field {
		p.i += 3
		p.end(sym, opened, p.at(-1).End)
		return
	}
	if p.defaulted() {
		p.i += 2
		end := p.expect(";")
		p.end(sym, opened, end.End)
		return
	}
	if p.is(p.peek(), ":") {
		p.i++
		p.initializers()
	}
	p.expect("{")
	end := p.body()
	p.end(sym, opened, end)
}

func (p *parser) inFunc() bool { return !p.dry && p.e.scopes.InFunc() }

// initializers reads a constructor's member initializers up to its
// body: field_initializer names are references, never callees.
func (p *parser) initializers() {
	for {
		t := p.peek()
		if !p.isName(t) {
			fail("member initializer at %d", t.Start)
		}
		p.typeName()
		switch {
		case p.is(p.peek(), "("):
			p.i++
			p.expr(")")
			p.expect(")")
		case p.is(p.peek(), "{"):
			p.i++
			p.expr("}")
			p.expect("}")
		default:
			fail("member initializer at %d", t.Start)
		}
		if p.is(p.peek(), "...") {
			p.i++
		}
		if !p.is(p.peek(), ",") {
			return
		}
		p.i++
	}
}

// defaulted reports "= default;" or "= delete;" at p.i: tree-sitter
// reads a function definition.
func (p *parser) defaulted() bool {
	w := p.text(p.at(1))
	return p.is(p.peek(), "=") && (w == "default" || w == "delete") && p.is(p.at(2), ";")
}

// macroMember reports a name without a type before "(" in a class body
// whose parentheses end the declaration (BOOST_ASIO_DEFINE_HANDLER_PTR(op);):
// tree-sitter reads a method's prototype, the macro its name.
func (p *parser) macroMember() bool {
	depth := 0
	for k := 0; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			return false
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			depth--
			if depth == 0 {
				return p.is(p.at(k+1), ";")
			}
		}
	}
}

// macroParam reads a parameter whose type is a macro's call, as the
// compiler does (BOOST_ASIO_MOVE_ARG(T) h, M(Args)... args): the
// macro is a callee, its arguments a type. It is the only reading of a
// name after the parentheses, which tree-sitter's grammar has none
// for: an error tree (pinned in TestScanWhereTreeSitterIsWrong).
func (p *parser) macroParam() bool {
	t := p.peek()
	if !p.isName(t) || !p.is(p.at(1), "(") || !p.is(p.at(-1), "(") && !p.is(p.at(-1), ",") {
		return false
	}
	k := 2
	for ; p.isName(p.at(k)) || p.is(p.at(k), "::"); k++ {
	}
	if !p.is(p.at(k), ")") || k == 2 {
		return false
	}
	after := p.at(k + 1)
	if p.is(after, "...") {
		after = p.at(k + 2)
	}
	if !p.isName(after) {
		return false
	}
	p.ref(t, true)
	p.i += 2
	p.typeUntil(")")
	p.i++
	return true
}

// macroArg reads a macro's call among template parameters as the
// compiler does (class A BOOST_CONTAINER_DOCONLY(= void),
// BOOST_ASIO_COMPLETION_TOKEN_FOR(void()) Handler): the macro is a
// callee, the names in its arguments references. Tree-sitter has no
// reading of it there but an error (pinned in
// TestScanWhereTreeSitterIsWrong), or, as a default value (N = MAX_OF(1,
// 2)), the same call; a call inside the arguments is declined.
func (p *parser) macroArg() bool {
	t := p.peek()
	if !p.isName(t) || !isMacroName(p.text(t)) || !p.is(p.at(1), "(") {
		return false
	}
	p.ref(t, true)
	p.i += 2
	for depth := 1; depth > 0; p.i++ {
		t := p.peek()
		switch {
		case t.Kind == 0 || t.Kind == tDir || p.is(t, "{") || p.is(t, "}") || p.is(t, ";"):
			fail("unclosed macro arguments at %d", t.Start)
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			depth--
		case p.isName(t) && p.is(p.at(1), "("):
			fail("a call in a macro's arguments at %d", t.Start)
		case p.isName(t):
			p.ref(t, false)
		case t.Kind == tIdent && p.word(t) != wPrim && p.word(t) != wSized && p.word(t) != wSpec &&
			p.word(t) != wTypename && p.word(t) != wTag && p.word(t) != wExpr &&
			!(p.word(t) == wTemplate && p.is(p.at(-1), "::")):
			fail("%q in a macro's arguments at %d", p.text(t), t.Start)
		}
	}
	return true
}
