package pyscan

// Simple statements: imports, assignments and the keyword statements.

func (p *parser) smallStmt() int32 {
	t := p.peek()
	if t.kind == tName {
		switch p.text(t) {
		case "pass", "break", "continue":
			p.i++
			return p.t.mk(nOther, t.start, t.end)
		case "return", "del":
			p.i++
			n := p.t.mk(nOther, t.start, t.end)
			if !p.atStmtEnd() {
				p.t.add(n, p.exprList(true))
			}
			p.fixEnd(n)
			return n
		case "raise":
			p.i++
			n := p.t.mk(nOther, t.start, t.end)
			if !p.atStmtEnd() {
				p.t.add(n, p.test())
				if p.is("from") {
					p.next()
					p.t.add(n, p.test())
				}
			}
			p.fixEnd(n)
			return n
		case "assert":
			p.i++
			n := p.t.mk(nOther, t.start, t.end, p.test())
			if p.is(",") {
				p.next()
				p.t.add(n, p.test())
			}
			p.fixEnd(n)
			return n
		case "global", "nonlocal":
			p.i++
			typ := nGlobal
			if p.text(t) == "nonlocal" {
				typ = nNonlocal
			}
			n := p.t.mk(typ, t.start, t.end, p.name())
			for p.is(",") {
				p.next()
				p.t.add(n, p.name())
			}
			p.fixEnd(n)
			return n
		case "import":
			return p.importStmt()
		case "from":
			return p.fromStmt()
		}
	}
	return p.exprStmt()
}

func (p *parser) atStmtEnd() bool {
	t := p.peek()
	return t.kind == tNewline || t.kind == tEOF || p.is(";")
}

var augOps = map[string]bool{"+=": true, "-=": true, "*=": true, "/=": true, "//=": true, "%=": true,
	"**=": true, ">>=": true, "<<=": true, "&=": true, "|=": true, "^=": true, "@=": true}

// value parses a statement's expression or an assignment's value: a
// starred expression must be an element of a list (x = *a is an error
// that tree-sitter reads across lines).
func (p *parser) value() int32 {
	e := p.yieldOrList()
	if p.t.typ(e) == nListSplat {
		p.fail("starred expression outside a list")
	}
	return e
}

func (p *parser) exprStmt() int32 {
	e := p.value()
	switch t := p.peek(); {
	case p.is("="):
		targets := []int32{e}
		var v int32
		for p.is("=") {
			p.next()
			v = p.value()
			if p.is("=") {
				targets = append(targets, v)
			}
		}
		right := v
		for k := len(targets) - 1; k >= 0; k-- {
			l := p.pattern(p.assignable(targets[k], true))
			a := p.t.mk(nAssignment, p.t.nodes[l].start, p.t.nodes[right].end)
			p.t.fld(a, fLeft, l)
			p.t.fld(a, fRight, right)
			right = a
		}
		return right
	case p.is(":"):
		p.assignable(e, false)
		p.next()
		ty := p.test()
		a := p.t.mk(nAssignment, p.t.nodes[e].start, p.t.nodes[ty].end)
		p.t.fld(a, fLeft, e)
		p.t.fld(a, fType, p.t.mk(nType, p.t.nodes[ty].start, p.t.nodes[ty].end, ty))
		if p.is("=") {
			p.next()
			p.t.fld(a, fRight, p.value())
		}
		p.fixEnd(a)
		return a
	case t.kind == tOp && augOps[p.text(t)]:
		p.assignable(e, false)
		p.next()
		r := p.value()
		a := p.t.mk(nAugAssignment, p.t.nodes[e].start, p.t.nodes[r].end)
		p.t.fld(a, fLeft, e)
		p.t.fld(a, fRight, r)
		return a
	}
	return e
}

// assignable checks that n can be assigned to (Python rejects `lambda: d, z
// = 1`, which tree-sitter reads otherwise); star allows unpacking
// targets (tuples, lists, *x), which augmented and annotated
// assignments do not take.
func (p *parser) assignable(n int32, star bool) int32 {
	switch p.t.typ(n) {
	case nIdent, nAttribute, nSubscript:
		return n
	case nTuple, nList, nExprList, nListSplat, nParenthesized:
		if !star && p.t.typ(n) != nParenthesized {
			break
		}
		if p.t.typ(n) == nListSplat || p.t.typ(n) == nParenthesized {
			if k := p.t.nodes[n].first; k < 0 || p.t.nodes[k].next >= 0 {
				break
			}
		}
		for k := p.t.nodes[n].first; k >= 0; k = p.t.nodes[k].next {
			p.assignable(k, star)
		}
		return n
	}
	p.fail("invalid assignment target")
	return -1
}

// pattern retypes an expression used as an assignment or loop target the
// way tree-sitter's grammar types it (a, b = ...: pattern_list).
func (p *parser) pattern(n int32) int32 {
	nd := &p.t.nodes[n]
	switch nd.typ {
	case nTuple:
		nd.typ = nTuplePattern
	case nList:
		nd.typ = nListPattern
	case nExprList:
		nd.typ = nPatternList
	case nListSplat:
		nd.typ = nListSplatPattern
	case nParenthesized:
	default:
		return n
	}
	for k := p.t.nodes[n].first; k >= 0; k = p.t.nodes[k].next {
		p.pattern(k)
	}
	return n
}

// dotted parses a dotted name (a.b.c) into a dotted_name node.
func (p *parser) dotted() int32 {
	first := p.name()
	n := p.t.mk(nDottedName, p.t.nodes[first].start, p.t.nodes[first].end, first)
	for p.is(".") {
		p.next()
		p.t.add(n, p.name())
	}
	p.fixEnd(n)
	return n
}

func (p *parser) importStmt() int32 {
	start := p.next().start
	n := p.t.mk(nImport, start, start)
	for {
		d := p.dotted()
		if p.is("as") {
			p.next()
			a := p.t.mk(nAliasedImport, p.t.nodes[d].start, p.t.nodes[d].end)
			p.t.fld(a, fName, d)
			p.t.fld(a, fAlias, p.name())
			p.fixEnd(a)
			d = a
		} else {
			p.t.nodes[d].field = fName
		}
		p.t.fld(n, fName, d)
		if !p.is(",") {
			break
		}
		p.next()
	}
	p.fixEnd(n)
	return n
}

func (p *parser) fromStmt() int32 {
	start := p.next().start
	typ := nImportFrom
	var mod int32
	switch {
	case p.is("__future__"):
		if p.isAt(2, "*") {
			// A compile error that tree-sitter parses as an ERROR
			// swallowing what follows.
			p.fail("from __future__ import *")
		}
		typ = nFutureImport
		t := p.next()
		mod = p.t.mk(nOther, t.start, t.end)
	case p.is(".") || p.is("..."):
		s := p.peek().start
		prefix := p.t.mk(nOther, s, s)
		for p.is(".") || p.is("...") {
			p.t.setEnd(prefix, p.next().end)
		}
		mod = p.t.mk(nRelativeImport, s, p.t.nodes[prefix].end, prefix)
		if !p.is("import") {
			p.t.add(mod, p.dotted())
			p.fixEnd(mod)
		}
	default:
		mod = p.dotted()
	}
	n := p.t.mk(typ, start, start)
	p.t.fld(n, fModuleName, mod)
	p.expect("import")
	if p.is("*") {
		t := p.next()
		p.t.add(n, p.t.mk(nWildcard, t.start, t.end))
		p.fixEnd(n)
		return n
	}
	paren := p.is("(")
	if paren {
		p.next()
	}
	for {
		if paren && p.is(")") {
			break
		}
		d := p.dotted()
		if p.is("as") {
			p.next()
			a := p.t.mk(nAliasedImport, p.t.nodes[d].start, p.t.nodes[d].end)
			p.t.fld(a, fName, d)
			p.t.fld(a, fAlias, p.name())
			p.fixEnd(a)
			d = a
		}
		p.t.fld(n, fName, d)
		if !p.is(",") {
			break
		}
		p.next()
	}
	if paren {
		p.t.setEnd(n, p.expect(")").end)
	}
	p.fixEnd(n)
	return n
}
