package pyscan

// Match statements. Their patterns bind nothing as far as index/python's
// rules go (a capture is a dotted_name under a case_pattern, an `as`
// name a bare identifier under an as_pattern), so a pattern is kept as a
// flat list of its names, each a reference resolved like any use; `_`
// is tree-sitter's wildcard token, not a name.

func (p *parser) matchStmt() int32 {
	start := p.next().start
	n := p.t.mk(nOther, start, start)
	p.t.add(n, p.exprList(true))
	p.expect(":")
	if p.peek().kind != tNewline {
		p.fail("match statement on one line")
	}
	p.i++
	for p.peek().kind == tComment {
		p.i++
	}
	if p.peek().kind != tIndent {
		p.fail("expected an indented block")
	}
	p.i++
	b := p.t.mk(nBlock, p.peek().start, p.peek().start)
	for {
		switch t := p.peek(); {
		case t.kind == tDedent || t.kind == tEOF:
			if t.kind == tDedent {
				p.i++
			}
			p.fixEnd(b)
			p.t.add(n, b)
			p.fixEnd(n)
			return n
		case t.kind == tComment:
			p.t.setEnd(b, t.end)
			p.i++
		case t.kind == tNewline:
			p.i++
		case p.is("case"):
			p.t.add(b, p.caseClause())
		default:
			p.fail("expected case")
		}
	}
}

func (p *parser) caseClause() int32 {
	start := p.next().start
	c := p.t.mk(nCaseClause, start, start)
	pat := p.t.mk(nOther, p.peek().start, p.peek().start)
	depth := 0
	// operand is set after a name, literal or closing bracket: two in a
	// row are a syntax error (tree-sitter recovers without a mark), but
	// adjacent strings, which concatenate.
	operand, lastString := false, false
	for {
		t := p.peek()
		if t.kind == tNewline || t.kind == tEOF || t.kind == tIndent || t.kind == tDedent || t.kind == tComment {
			p.fail("unterminated case pattern")
		}
		if depth == 0 && (p.is(":") || p.is("if")) {
			break
		}
		p.i++
		isOperand := t.kind != tOp
		switch {
		case t.kind == tOp:
			switch p.src[t.start] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				isOperand = true
			}
		case t.kind == tString:
			if isFString(p.src, t) {
				p.fail("f-string in a pattern")
			}
		case p.text(t) == "as":
			isOperand = false
		}
		if isOperand && operand && !(t.kind == tString && lastString) && t.kind != tOp {
			p.fail("bad case pattern")
		}
		operand, lastString = isOperand, t.kind == tString
		switch t.kind {
		case tName:
			name := p.text(t)
			if keywords[name] {
				if name != "None" && name != "True" && name != "False" && name != "as" {
					p.fail("keyword in a case pattern")
				}
				continue
			}
			dotted := p.isAt(0, ".") || p.i >= 2 && p.toks[p.i-2].kind == tOp && p.text(p.toks[p.i-2]) == "."
			if name == "_" && !dotted {
				continue
			}
			p.t.add(pat, p.t.mk(nIdent, t.start, t.end))
		}
		p.t.setEnd(pat, t.end)
	}
	p.t.add(c, pat)
	if p.is("if") {
		s := p.next().start
		g := p.namedExpr()
		p.t.add(c, p.t.mk(nIfClause, s, p.t.nodes[g].end, g))
	}
	p.t.fld(c, fBody, p.block())
	p.fixEnd(c)
	return c
}

// isFString reports whether string token t has an f prefix.
func isFString(src []byte, t tok) bool {
	for i := t.start; i < t.end && src[i] != '\'' && src[i] != '"'; i++ {
		if src[i]|0x20 == 'f' {
			return true
		}
	}
	return false
}
