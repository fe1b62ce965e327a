package cscan

// declarator parses a declarator (abstract when a parameter's may have
// no name) and returns its name, if any, and whether a parameter list
// is on the way to it, as cName follows it.
func (p *parser) declarator(abstract bool) (name tok, isFunc bool) {
	for p.is(p.peek(), "*") {
		p.i++
		for {
			w := p.word(p.peek())
			if w != wQual {
				break
			}
			p.i++
		}
		if p.word(p.peek()) == wAttr {
			fail("attribute after *")
		}
	}
	t := p.peek()
	switch {
	case t.kind == tIdent:
		if p.word(t) != wIdent {
			if abstract {
				return tok{}, false
			}
			fail("%q as a declarator at %d", p.text(t), t.start)
		}
		name = t
		p.ref(t, false)
		p.i++
	case p.is(t, "(") && (!abstract || p.is(p.at(1), "*") || p.is(p.at(1), "(") || p.is(p.at(1), "[")):
		p.i++
		name, isFunc = p.declarator(abstract)
		p.expect(")")
	}
	for k := 0; ; k++ {
		t := p.peek()
		switch {
		case k == 1 && isFunc && p.is(t, "(") && p.is(p.at(-1), ")") && name.kind != 0 && p.is(p.at(-2), "(") == false:
			fail("function returning a function at %d", t.start) // VG_(name)(...): a macro
		case p.is(t, "["):
			p.i++
			p.expr("]")
			p.expect("]")
		case p.is(t, "("):
			p.params()
			isFunc = true
		default:
			return name, isFunc
		}
	}
}

// params parses a parameter list.
func (p *parser) params() {
	p.expect("(")
	if p.is(p.peek(), ")") {
		p.i++
		return
	}
	for {
		if p.is(p.peek(), "...") {
			p.i++
		} else {
			sp := p.specifiers()
			if !sp.typ || sp.defines {
				fail("parameter without a type, or defining one")
			}
			p.declarator(true)
			p.attributes()
		}
		t := p.peek()
		p.i++
		if p.is(t, ")") {
			return
		}
		if !p.is(t, ",") {
			fail("unexpected %q in parameters at %d", p.text(t), t.start)
		}
	}
}

// expr reads balanced tokens up to one of stops at depth 0 (not
// consumed); it returns the end of the last token read.
func (p *parser) expr(stops string) uint32 {
	var end uint32
	depth := 0
	for {
		t := p.peek()
		switch t.kind {
		case 0, tDir, tEOL:
			fail("directive or end of file in an expression")
		case tIdent:
			p.exprWord(t)
		case tPunct:
			c := p.src[t.start]
			if depth == 0 && t.end-t.start == 1 && containsByte(stops, c) {
				return end
			}
			switch c {
			case '(', '[', '{':
				if c == '(' {
					if prev := p.at(-1); p.is(prev, ")") || p.is(prev, "]") || p.is(prev, "++") || p.is(prev, "--") {
						fail("call of a call or subscript at %d", t.start)
					}
				}
				depth++
			case ')', ']', '}':
				depth--
				if depth < 0 {
					fail("unbalanced %q at %d", c, t.start)
				}
			}
			p.operator(t)
		}
		end = t.end
		p.i++
	}
}

// exprWord handles a word in an expression.
func (p *parser) exprWord(t tok) {
	switch p.word(t) {
	case wIdent:
		p.ref(t, p.is(p.at(1), "("))
	case wPrim, wSized, wQual, wExpr, wTag:
	default:
		fail("%q in an expression at %d", p.text(t), t.start)
	}
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
