package pyscan

// Atoms, argument and parameter lists, comprehensions and strings.

func (p *parser) atom() int32 {
	t := p.peek()
	switch t.kind {
	case tName:
		switch p.text(t) {
		case "None", "True", "False":
			p.i++
			return p.t.mk(nOther, t.start, t.end)
		}
		return p.name()
	case tNumber:
		p.i++
		return p.t.mk(nOther, t.start, t.end)
	case tString:
		return p.strings()
	case tOp:
		switch p.text(t) {
		case "...":
			p.i++
			return p.t.mk(nOther, t.start, t.end)
		case "(":
			return p.paren()
		case "[":
			return p.listDisplay()
		case "{":
			return p.dictDisplay()
		}
	}
	p.fail("expected an expression")
	return -1
}

func (p *parser) isCompFor() bool { return p.is("for") || p.is("async") && p.isAt(1, "for") }

// compFor parses a comprehension's for and if clauses into n.
func (p *parser) compFor(n int32) {
	for p.isCompFor() {
		s := p.peek().start
		if p.is("async") {
			p.next()
		}
		p.expect("for")
		c := p.t.mk(nForIn, s, s)
		p.t.fld(c, fLeft, p.pattern(p.assignable(p.targetList(), true)))
		p.expect("in")
		p.t.fld(c, fRight, p.orTest())
		p.fixEnd(c)
		p.t.add(n, c)
		for p.is("if") {
			s := p.next().start
			p.t.add(n, p.t.mk(nIfClause, s, s, p.testNoCond()))
			p.fixEnd(p.t.nodes[n].last)
		}
	}
}

func (p *parser) paren() int32 {
	s := p.next().start
	if p.is(")") {
		return p.t.mk(nTuple, s, p.next().end)
	}
	if p.is("yield") {
		y := p.yieldExpr()
		return p.t.mk(nParenthesized, s, p.expect(")").end, y)
	}
	first := p.starOrNamed(true)
	if p.isCompFor() {
		n := p.t.mk(nGenerator, s, s)
		p.t.fld(n, fBody, first)
		p.compFor(n)
		p.t.setEnd(n, p.expect(")").end)
		return n
	}
	if !p.is(",") {
		return p.t.mk(nParenthesized, s, p.expect(")").end, first)
	}
	n := p.t.mk(nTuple, s, s, first)
	for p.is(",") {
		p.next()
		if p.is(")") {
			break
		}
		p.t.add(n, p.starOrNamed(true))
	}
	p.t.setEnd(n, p.expect(")").end)
	return n
}

func (p *parser) listDisplay() int32 {
	s := p.next().start
	if p.is("]") {
		return p.t.mk(nList, s, p.next().end)
	}
	first := p.starOrNamed(true)
	if p.isCompFor() {
		n := p.t.mk(nListComp, s, s)
		p.t.fld(n, fBody, first)
		p.compFor(n)
		p.t.setEnd(n, p.expect("]").end)
		return n
	}
	n := p.t.mk(nList, s, s, first)
	for p.is(",") {
		p.next()
		if p.is("]") {
			break
		}
		p.t.add(n, p.starOrNamed(true))
	}
	p.t.setEnd(n, p.expect("]").end)
	return n
}

// dictItem parses key: value or **mapping; set elements come back alone.
func (p *parser) dictItem() (int32, bool) {
	if p.is("**") {
		s := p.next().start
		e := p.bitOr()
		return p.t.mk(nOther, s, p.t.nodes[e].end, e), true
	}
	k := p.starOrNamed(true)
	if !p.is(":") {
		return k, false
	}
	p.next()
	v := p.test()
	pair := p.span(nOther, k, v)
	p.t.add(pair, k)
	p.t.add(pair, v)
	return pair, true
}

func (p *parser) dictDisplay() int32 {
	s := p.next().start
	if p.is("}") {
		return p.t.mk(nOther, s, p.next().end)
	}
	first, isDict := p.dictItem()
	if p.isCompFor() {
		typ := nSetComp
		if isDict {
			typ = nDictComp
		}
		n := p.t.mk(typ, s, s)
		p.t.fld(n, fBody, first)
		p.compFor(n)
		p.t.setEnd(n, p.expect("}").end)
		return n
	}
	n := p.t.mk(nOther, s, s, first)
	for p.is(",") {
		p.next()
		if p.is("}") {
			break
		}
		item, _ := p.dictItem()
		p.t.add(n, item)
	}
	p.t.setEnd(n, p.expect("}").end)
	return n
}

// arguments parses a call's or a class's parenthesized arguments; a lone
// generator argument is the arguments node itself, as in tree-sitter.
func (p *parser) arguments() int32 {
	s := p.expect("(").start
	n := p.t.mk(nArgList, s, s)
	for !p.is(")") {
		var a int32
		switch {
		case p.is("*") || p.is("**"):
			o := p.next()
			e := p.test()
			a = p.t.mk(nListSplat, o.start, p.t.nodes[e].end, e)
			if p.text(o) == "**" {
				p.t.nodes[a].typ = nOther
			}
		case p.isName() && p.isAt(1, "="):
			name := p.name()
			p.next()
			v := p.test()
			a = p.span(nKeywordArg, name, v)
			p.t.fld(a, fName, name)
			p.t.fld(a, fValue, v)
		default:
			a = p.namedExpr()
			if p.isCompFor() {
				if p.t.nodes[n].first >= 0 {
					p.fail("generator argument among others")
				}
				g := p.t.mk(nGenerator, s, s)
				p.t.fld(g, fBody, a)
				p.compFor(g)
				p.t.setEnd(g, p.expect(")").end)
				return g
			}
		}
		p.t.add(n, a)
		if !p.is(",") {
			break
		}
		p.next()
	}
	p.t.setEnd(n, p.expect(")").end)
	return n
}

// parameters parses a def's parameter list.
func (p *parser) parameters() int32 {
	s := p.expect("(").start
	n := p.t.mk(nParameters, s, s)
	p.paramList(n, ")", true)
	p.t.setEnd(n, p.expect(")").end)
	return n
}

// paramList parses parameters up to closer (")" or a lambda's ":");
// typed allows annotations.
func (p *parser) paramList(n int32, closer string, typed bool) {
	for !p.is(closer) {
		var prm int32
		switch {
		case p.is("/"):
			t := p.next()
			prm = p.t.mk(nOther, t.start, t.end)
		case p.is("*") && (p.isAt(1, ",") || p.isAt(1, closer)):
			t := p.next()
			prm = p.t.mk(nOther, t.start, t.end)
		case p.is("*") || p.is("**"):
			o := p.next()
			id := p.name()
			typ := nListSplatPattern
			if p.text(o) == "**" {
				typ = nDictSplatPattern
			}
			prm = p.t.mk(typ, o.start, p.t.nodes[id].end, id)
			if typed && p.is(":") {
				p.next()
				var ty int32
				if p.is("*") { // *args: *Ts, a splat_type
					s := p.next().start
					e := p.bitOr()
					ty = p.t.mk(nOther, s, p.t.nodes[e].end, e)
				} else {
					ty = p.test()
				}
				tp := p.span(nTypedParam, prm, ty)
				p.t.add(tp, prm)
				p.t.fld(tp, fType, p.t.mk(nType, p.t.nodes[ty].start, p.t.nodes[ty].end, ty))
				prm = tp
			}
		default:
			id := p.name()
			prm = id
			var ty int32 = -1
			if typed && p.is(":") {
				p.next()
				e := p.test()
				ty = p.t.mk(nType, p.t.nodes[e].start, p.t.nodes[e].end, e)
			}
			if p.is("=") {
				p.next()
				v := p.test()
				typ := nDefaultParam
				if ty >= 0 {
					typ = nTypedDefaultParam
				}
				prm = p.span(typ, id, v)
				p.t.fld(prm, fName, id)
				p.t.fld(prm, fType, ty)
				p.t.fld(prm, fValue, v)
			} else if ty >= 0 {
				prm = p.span(nTypedParam, id, ty)
				p.t.add(prm, id)
				p.t.fld(prm, fType, ty)
			}
		}
		p.t.add(n, prm)
		if !p.is(",") {
			return
		}
		p.next()
	}
}
