package pyscan

// The expression parser, by precedence: lists and star expressions,
// lambda and conditional, or/and/not, comparisons, binary operators,
// unary, power, await, primaries (attribute, call, subscript) and atoms.

func (p *parser) span(typ nodeType, a, b int32) int32 {
	return p.t.mk(typ, p.t.nodes[a].start, p.t.nodes[b].end)
}

// yieldOrList parses a yield expression or an expression list.
func (p *parser) yieldOrList() int32 {
	if p.is("yield") {
		return p.yieldExpr()
	}
	return p.exprList(true)
}

func (p *parser) yieldExpr() int32 {
	t := p.next()
	n := p.t.mk(nOther, t.start, t.end)
	if p.is("from") {
		p.next()
		p.t.add(n, p.test())
	} else if !p.atExprEnd() {
		p.t.add(n, p.exprList(true))
	}
	p.fixEnd(n)
	return n
}

// atExprEnd reports whether no expression can start here.
func (p *parser) atExprEnd() bool {
	t := p.peek()
	if t.kind == tNewline || t.kind == tEOF || t.kind == tDedent || t.kind == tIndent {
		return true
	}
	if t.kind == tOp {
		switch p.text(t) {
		case ")", "]", "}", "=", ";", ":", ",":
			return true
		}
	}
	return false
}

// exprList parses e, e, ... (star expressions allowed when star); a
// trailing comma makes a list of one.
func (p *parser) exprList(star bool) int32 {
	first := p.starOrNamed(star)
	if !p.is(",") {
		return first
	}
	n := p.span(nExprList, first, first)
	p.t.add(n, first)
	for p.is(",") {
		p.t.setEnd(n, p.next().end)
		if p.atExprEnd() || p.is("in") {
			break
		}
		p.t.add(n, p.starOrNamed(star))
	}
	p.fixEnd(n)
	return n
}

// targetList parses a for loop's targets (stopping at 'in').
func (p *parser) targetList() int32 {
	first := p.starTarget()
	if !p.is(",") {
		return first
	}
	n := p.span(nExprList, first, first)
	p.t.add(n, first)
	for p.is(",") {
		p.t.setEnd(n, p.next().end)
		if p.is("in") {
			break
		}
		p.t.add(n, p.starTarget())
	}
	p.fixEnd(n)
	return n
}

func (p *parser) starTarget() int32 {
	if p.is("*") {
		s := p.next().start
		e := p.bitOr()
		return p.t.mk(nListSplat, s, p.t.nodes[e].end, e)
	}
	return p.bitOr()
}

// target parses a with-item's target.
func (p *parser) target() int32 { return p.bitOr() }

func (p *parser) starOrNamed(star bool) int32 {
	if star && p.is("*") {
		s := p.next().start
		e := p.bitOr()
		return p.t.mk(nListSplat, s, p.t.nodes[e].end, e)
	}
	return p.namedExpr()
}

func (p *parser) namedExpr() int32 {
	if p.isName() && p.isAt(1, ":=") {
		name := p.name()
		p.next()
		v := p.test()
		n := p.span(nNamedExpr, name, v)
		p.t.fld(n, fName, name)
		p.t.fld(n, fValue, v)
		return n
	}
	return p.test()
}

// test is a lambda or a conditional expression.
func (p *parser) test() int32 {
	if p.is("lambda") {
		return p.lambda()
	}
	e := p.orTest()
	if p.is("if") {
		p.next()
		c := p.orTest()
		p.expect("else")
		f := p.test()
		n := p.span(nConditional, e, f)
		p.t.add(n, e)
		p.t.add(n, c)
		p.t.add(n, f)
		return n
	}
	return e
}

// testNoCond is a comprehension's if-clause condition.
func (p *parser) testNoCond() int32 {
	if p.is("lambda") {
		return p.lambda()
	}
	return p.orTest()
}

func (p *parser) lambda() int32 {
	start := p.next().start
	n := p.t.mk(nLambda, start, start)
	if !p.is(":") {
		ps := p.t.mk(nLambdaParams, p.peek().start, p.peek().start)
		p.paramList(ps, ":", false)
		p.fixEnd(ps)
		p.t.fld(n, fParameters, ps)
	}
	p.expect(":")
	p.t.fld(n, fBody, p.test())
	p.fixEnd(n)
	return n
}

func (p *parser) orTest() int32 { return p.boolOp("or", p.andTest) }

func (p *parser) andTest() int32 { return p.boolOp("and", p.notTest) }

// boolOp parses operands joined by the keyword op ("or", "and"), left
// associative.
func (p *parser) boolOp(op string, operand func() int32) int32 {
	e := operand()
	for p.is(op) {
		p.next()
		r := operand()
		n := p.span(nBoolOp, e, r)
		p.t.fld(n, fLeft, e)
		p.t.fld(n, fRight, r)
		e = n
	}
	return e
}

func (p *parser) notTest() int32 {
	if p.is("not") {
		s := p.next().start
		e := p.notTest()
		return p.t.mk(nOther, s, p.t.nodes[e].end, e)
	}
	return p.comparison()
}

var compOps = map[string]bool{"<": true, ">": true, "==": true, ">=": true, "<=": true, "!=": true, "in": true, "is": true}

func (p *parser) comparison() int32 {
	e := p.bitOr()
	var n int32 = -1
	for {
		t := p.peek()
		switch {
		case (t.kind == tOp || t.kind == tName) && compOps[p.text(t)]:
			p.next()
			if p.text(t) == "is" && p.is("not") {
				p.next()
			}
		case p.is("not") && p.isAt(1, "in"):
			p.i += 2
		default:
			return e
		}
		if n < 0 {
			n = p.span(nOther, e, e)
			p.t.add(n, e)
			e = n
		}
		p.t.add(n, p.bitOr())
		p.fixEnd(n)
	}
}

// binary operator levels, loosest first.
var binLevels = [][]string{{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}

func (p *parser) bitOr() int32 { return p.binary(0) }

func (p *parser) binary(level int) int32 {
	if level == len(binLevels) {
		return p.factor()
	}
	e := p.binary(level + 1)
	for {
		t := p.peek()
		if t.kind != tOp || !oneOf(p.text(t), binLevels[level]) {
			return e
		}
		p.next()
		r := p.binary(level + 1)
		n := p.span(nOther, e, r)
		p.t.add(n, e)
		p.t.add(n, r)
		e = n
	}
}

func oneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

func (p *parser) factor() int32 {
	if p.is("-") || p.is("+") || p.is("~") {
		s := p.next().start
		e := p.factor()
		return p.t.mk(nOther, s, p.t.nodes[e].end, e)
	}
	return p.power()
}

func (p *parser) power() int32 {
	var e int32
	if p.is("await") {
		s := p.next().start
		a := p.primary()
		e = p.t.mk(nOther, s, p.t.nodes[a].end, a)
	} else {
		e = p.primary()
	}
	if p.is("**") {
		p.next()
		r := p.factor()
		n := p.span(nOther, e, r)
		p.t.add(n, e)
		p.t.add(n, r)
		return n
	}
	return e
}

// primary parses an atom and its trailers.
func (p *parser) primary() int32 {
	e := p.atom()
	for {
		switch {
		case p.is("."):
			p.next()
			a := p.name()
			n := p.span(nAttribute, e, a)
			p.t.fld(n, fObject, e)
			p.t.fld(n, fAttr, a)
			e = n
		case p.is("("):
			args := p.arguments()
			n := p.span(nCall, e, args)
			p.t.fld(n, fFunction, e)
			p.t.fld(n, fArguments, args)
			e = n
		case p.is("["):
			p.next()
			n := p.t.mk(nSubscript, p.t.nodes[e].start, 0)
			p.t.add(n, e)
			if p.is("]") {
				p.fail("empty subscript")
			}
			for !p.is("]") {
				p.t.add(n, p.subscriptItem())
				if !p.is(",") {
					break
				}
				p.next()
			}
			p.t.setEnd(n, p.expect("]").end)
			e = n
		default:
			return e
		}
	}
}

func (p *parser) subscriptItem() int32 {
	s := p.peek().start
	var lo int32 = -1
	if !p.is(":") {
		lo = p.starOrNamed(true)
		if !p.is(":") {
			return lo
		}
	}
	n := p.t.mk(nOther, s, s)
	p.t.add(n, lo)
	for p.is(":") {
		p.t.setEnd(n, p.next().end)
		if !p.is(":") && !p.is("]") && !p.is(",") {
			p.t.add(n, p.test())
		}
	}
	p.fixEnd(n)
	return n
}
