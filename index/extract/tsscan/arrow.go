package tsscan

// Arrow functions, and the lookahead that tells them from parenthesized
// expressions.

// arrowAhead reports whether an arrow function starts at the current
// token: x =>, async x =>, (…) =>, (…): T =>, <T>(…) =>.
func (p *parser) arrowAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	if p.is("async") {
		t := p.peek()
		if t.nl || !(t.kind == tName || p.tokIs(t, "(") || p.tokIs(t, "<")) {
			return false
		}
		p.next()
	}
	if p.isName() {
		if reserved[p.text()] {
			return false
		}
		t := p.peek()
		return p.tokIs(t, "=>") && !t.nl
	}
	if p.ts && p.is("<") {
		p.skipAngles()
	}
	if !p.is("(") {
		return false
	}
	p.skipGroup()
	if p.is("=>") {
		return !p.tok.nl
	}
	if !p.ts || !p.is(":") || !p.paramsLike(st, tok, prev) {
		return false
	}
	// A return type, then =>.
	depth := 0
	for p.advance(); p.tok.kind != tEOF; p.advance() {
		switch {
		case p.is("(") || p.is("[") || p.is("{"):
			depth++
		case p.is(")") || p.is("]") || p.is("}"):
			if depth--; depth < 0 {
				return false
			}
		case p.is("<"):
			p.skipAngles()
			if p.is("=>") && depth == 0 {
				return true
			}
			continue
		case depth == 0 && p.is("=>"):
			return true
		case depth == 0 && (p.is(";") || p.is(",") || p.is("=") || p.is("?")):
			return false
		}
	}
	return false
}

// arrow parses an arrow function.
func (p *parser) arrow() int32 {
	p.enter()
	defer p.leave()
	fn := p.newFn(fnLiteral)
	outer, exp := p.enterScope(sArrow, p.tok.start), p.expDecl
	p.expDecl = nil // the exported declaration's walk stops here
	if p.is("async") && !p.tokIs(p.peek(), "=>") {
		p.next()
	}
	if p.isName() {
		b := p.refBind(p.tok, bArrowParam)
		p.r.binds[b].fn = fn
		p.next()
	} else {
		p.signature(fn)
	}
	p.expect("=>")
	if p.is("{") {
		p.block()
	} else {
		p.assign()
	}
	p.leaveScope(outer)
	p.expDecl = exp
	return p.r.expr(expr{kind: xFunc, a: fn})
}

// advance moves to the next token in lookahead scans, reading regular
// expressions where an operand is expected and template literals whole.
func (p *parser) advance() {
	prev := p.tok
	p.next()
	if (p.is("/") || p.is("/=")) && operandFollows(p, prev) {
		p.tok = p.l.regex(p.tok)
	}
	if p.tok.kind == tTplHead {
		p.skipTemplate()
	}
}

// operandFollows reports whether an operand, not an operator, comes
// after the token t.
func operandFollows(p *parser, t token) bool {
	switch t.kind {
	case tPunct:
		return !p.tokIs(t, ")") && !p.tokIs(t, "]") && !p.tokIs(t, "}")
	case tName:
		switch string(p.l.src[t.start:t.end]) {
		case "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw",
			"instanceof", "yield", "await":
			return true
		}
	}
	return false
}

// skipTemplate leaves the current template head's literal, substitutions
// included, as one token.
func (p *parser) skipTemplate() {
	start := p.tok.start
	for {
		depth := 0
		for p.advance(); ; p.advance() {
			if p.tok.kind == tEOF {
				p.failHere("unclosed template")
			}
			if p.is("{") {
				depth++
			} else if p.is("}") {
				if depth == 0 {
					break
				}
				depth--
			}
		}
		p.tok = p.l.templateRest(p.tok)
		if p.tok.kind == tTplTail {
			p.tok.start, p.tok.kind = start, tTemplate
			return
		}
	}
}

// skipGroup skips the bracketed group at the current token in a
// lookahead scan.
func (p *parser) skipGroup() {
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

// paramsLike reports whether the parenthesized group at the saved
// position reads as parameters: each element a name, pattern or rest,
// then ?, :, = or the element's end.
func (p *parser) paramsLike(st lexState, tok token, prev int) bool {
	cur, ctok, cprev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(cur); p.tok, p.prev = ctok, cprev }()
	p.l.restore(st)
	p.tok, p.prev = tok, prev
	for !p.is("(") {
		p.advance()
	}
	p.advance()
	for {
		for p.is("@") || p.is("...") || p.isName() && p.tsModifierWord() {
			p.advance()
			if p.isName() {
				p.advance()
			}
		}
		switch {
		case p.is(")"):
			return true
		case p.isName():
			p.advance()
			p.eat("?")
		case p.is("{") || p.is("["):
			p.skipGroup()
		default:
			return false
		}
		if !p.is(":") && !p.is(",") && !p.is(")") && !p.is("=") {
			return false
		}
		// Skip to the element's end.
		depth := 0
		for p.tok.kind != tEOF {
			if depth == 0 && (p.is(",") || p.is(")")) {
				break
			}
			switch {
			case p.is("(") || p.is("[") || p.is("{"):
				depth++
			case p.is(")") || p.is("]") || p.is("}"):
				depth--
			}
			p.advance()
		}
		if !p.eat(",") {
			return p.is(")")
		}
	}
}

// tsModifierWord: a parameter modifier word followed by a name.
func (p *parser) tsModifierWord() bool {
	switch p.text() {
	case "public", "private", "protected", "readonly", "override":
		return p.peek().kind == tName
	}
	return false
}
