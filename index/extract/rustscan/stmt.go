package rustscan

// block reads { statements }.
func (p *parser) block() {
	p.enter()
	defer p.leave()
	p.expectP('{')
	save := p.noStruct
	p.noStruct = false
	for !p.eatP('}') {
		if p.at(tEOF) {
			p.failHere("unterminated block")
		}
		p.stmt()
	}
	p.noStruct = save
}

// stmt reads one statement of a block.
func (p *parser) stmt() {
	if p.attributes() {
		return
	}
	switch {
	case p.isP(';'):
		p.i++
		return
	case p.isKw(kwLet):
		p.letStmt()
		return
	case !p.isMacroStart():
		start := p.i
		pub := p.visibility()
		if p.itemAfterVis(start, pub) {
			return
		}
		if pub {
			p.failHere("visibility without an item")
		}
	}
	if p.blockLikeStart() {
		if p.postfix(true) {
			p.eatP(';')
			return
		}
		p.binaryRest(0)
	} else {
		p.expr(0)
	}
	if !p.eatP(';') && !p.isP('}') {
		p.failHere("expected ; after an expression")
	}
}

// blockLikeStart reports whether the statement starts with an expression
// that ends a statement at its closing brace (if, match, loops, blocks,
// macro calls with braces).
func (p *parser) blockLikeStart() bool {
	t := p.t()
	switch {
	case p.isP('{'), t.kind == tLifetime:
		return true
	case t.kind != tIdent:
		return false
	}
	switch t.kw {
	case kwIf, kwMatch, kwLoop, kwWhile, kwFor:
		return true
	case kwUnsafe, kwConst:
		return p.isPAt(1, '{')
	case kwAsync:
		return p.isPAt(1, '{') || p.isKwAt(1, kwMove) && p.isPAt(2, '{')
	}
	return p.isMacroStart()
}

func (p *parser) letStmt() {
	p.i++
	p.pattern()
	if p.isP(':') && !p.isOp("::") {
		p.i++
		p.typ()
	}
	if p.eatP('=') {
		p.expr(0)
		if p.eatKw(kwElse) {
			p.block()
		}
	}
	p.expectP(';')
}

// ifExpr reads if / else if / else; each if is a branch.
func (p *parser) ifExpr() {
	p.i++
	p.branch(1)
	p.cond()
	p.block()
	if !p.eatKw(kwElse) {
		return
	}
	if p.isKw(kwIf) {
		p.ifExpr()
		return
	}
	p.block()
}

// cond reads an if or while condition: an expression without struct
// literals, or a chain of let conditions joined by &&.
func (p *parser) cond() {
	if !p.letAhead() {
		p.condExpr(0)
		return
	}
	save := p.noStruct
	p.noStruct = true
	operands, seenLet := 0, false
	for {
		if p.eatKw(kwLet) {
			if !seenLet && operands > 1 {
				p.branch(operands - 1)
			}
			seenLet = true
			p.pattern()
			p.expectP('=')
			p.expr(precCmp)
		} else {
			p.expr(precCmp)
			operands++
		}
		if !p.eatOp("&&") {
			break
		}
	}
	p.noStruct = save
}

func (p *parser) condExpr(min int) {
	save := p.noStruct
	p.noStruct = true
	p.expr(min)
	p.noStruct = save
}

// letAhead reports whether a let comes at this level before the block.
func (p *parser) letAhead() bool {
	depth := 0
	for k := p.i; k < len(p.toks); k++ {
		t := &p.toks[k]
		switch {
		case t.kind == tEOF:
			return false
		case t.kind == tIdent && t.kw == kwLet && depth == 0:
			return true
		case t.kind == tPunct:
			switch p.src[t.start] {
			case '(', '[':
				depth++
			case ')', ']':
				depth--
			case '{':
				if depth == 0 {
					return false
				}
				depth++
			case '}':
				depth--
			}
		}
	}
	return false
}

// matchExpr reads match x { arms }; each arm is a branch.
func (p *parser) matchExpr() {
	p.i++
	p.condExpr(0)
	p.expectP('{')
	save := p.noStruct
	p.noStruct = false
	for !p.eatP('}') {
		if p.attributes() {
			continue
		}
		p.branch(1)
		p.pattern()
		if p.eatKw(kwIf) {
			if p.isKw(kwLet) {
				fail("if let guard")
			}
			p.expr(0)
		}
		p.expectOp("=>")
		if p.blockLikeStart() && !p.isMacroStart() {
			if p.postfix(true) {
				p.eatP(',')
				continue
			}
			p.binaryRest(0)
		} else {
			p.expr(0)
		}
		if !p.eatP(',') && !p.isP('}') {
			p.failHere("expected , after a match arm")
		}
	}
	p.noStruct = save
}
