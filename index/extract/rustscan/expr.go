package rustscan

// Binary operator precedences, lowest first.
const (
	precAssign = iota + 1
	precRange
	precOr
	precAnd
	precCmp
	precBitOr
	precXor
	precBitAnd
	precShift
	precAdd
	precMul
	precAs
)

// binop returns the precedence and length in tokens of the binary
// operator at the current token, or 0.
func (p *parser) binop() (int, int) {
	t := p.t()
	if t.kind == tIdent {
		if t.kw == kwAs {
			return precAs, 1
		}
		return 0, 0
	}
	if t.kind != tPunct {
		return 0, 0
	}
	return p.punctOp(p.src[t.start])
}

// punctOp is binop for an operator starting with c.
func (p *parser) punctOp(c byte) (int, int) {
	switch c {
	case '=':
		if p.isOp("==") {
			return precCmp, 2
		}
		if p.isOp("=>") {
			return 0, 0
		}
		return precAssign, 1
	case '.':
		if p.isOp("...") {
			return 0, 0
		}
		if p.isOp("..=") {
			return precRange, 3
		}
		if p.isOp("..") {
			return precRange, 2
		}
	case '|':
		if p.isOp("||") {
			return precOr, 2
		}
		if p.isOp("|=") {
			return precAssign, 2
		}
		return precBitOr, 1
	case '&':
		if p.isOp("&&") {
			return precAnd, 2
		}
		if p.isOp("&=") {
			return precAssign, 2
		}
		return precBitAnd, 1
	case '!':
		if p.isOp("!=") {
			return precCmp, 2
		}
	case '<':
		switch {
		case p.isOp("<<="):
			return precAssign, 3
		case p.isOp("<<"):
			return precShift, 2
		case p.isOp("<="):
			return precCmp, 2
		}
		return precCmp, 1
	case '>':
		switch {
		case p.isOp(">>="):
			return precAssign, 3
		case p.isOp(">>"):
			return precShift, 2
		case p.isOp(">="):
			return precCmp, 2
		}
		return precCmp, 1
	case '+', '-', '*', '/', '%', '^':
		if p.isPAt(1, '=') && p.joined() {
			return precAssign, 2
		}
		switch c {
		case '+':
			return precAdd, 1
		case '-':
			if p.isOp("->") {
				return 0, 0
			}
			return precAdd, 1
		case '^':
			return precXor, 1
		}
		return precMul, 1
	}
	return 0, 0
}

// expr reads an expression whose binary operators bind at least min.
func (p *parser) expr(min int) {
	p.enter()
	defer p.leave()
	if p.isOp("..") {
		p.prefixRange()
	} else {
		p.unary()
	}
	p.binaryRest(min)
}

func (p *parser) prefixRange() {
	if !p.eatOp("..=") {
		p.i += 2
	}
	if p.startsExpr() {
		p.expr(precRange + 1)
	}
}

func (p *parser) binaryRest(min int) {
	for {
		prec, n := p.binop()
		if prec == 0 || prec < min {
			return
		}
		p.i += n
		switch prec {
		case precAs:
			p.typ()
		case precRange:
			if p.startsExpr() {
				p.expr(precRange + 1)
			}
		case precAssign:
			p.expr(precAssign)
		default:
			if prec == precOr || prec == precAnd {
				p.branch(1)
			}
			p.expr(prec + 1)
		}
	}
}

// startsExpr reports whether the current token can start an operand
// (after "..", "return", "break").
func (p *parser) startsExpr() bool {
	t := p.t()
	switch t.kind {
	case tEOF:
		return false
	case tIdent:
		return t.kw != kwAs && t.kw != kwElse && t.kw != kwIn
	case tPunct:
		switch p.src[t.start] {
		case ':':
			return p.isOp("::")
		case '{':
			return !p.noStruct
		case '(', '[', '-', '*', '&', '|', '<', '!', '#':
			return true
		}
		return false
	}
	return true
}

func (p *parser) unary() {
	for {
		switch {
		case p.isP('-') || p.isP('!') || p.isP('*'):
			p.i++
		case p.isP('&'):
			p.i++
			if p.isKw(kwRaw) && (p.isKwAt(1, kwConst) || p.isKwAt(1, kwMut)) {
				fail("raw borrow")
			}
			p.eatKw(kwMut)
		default:
			p.postfix(false)
			return
		}
	}
}

// postfix reads a primary expression and its calls, fields, indexes,
// ? and .await. In statement position (stmt) a block-like expression is
// not called or indexed. It reports whether the expression is block-like
// and nothing followed it.
func (p *parser) postfix(stmt bool) bool {
	refs := len(p.res.Refs)
	start := p.t().start
	callee, blockLike := p.primary()
	for {
		switch {
		case p.isP('?'):
			p.i++
			callee = start
		case p.isP('.') && !p.isOp(".."):
			p.i++
			switch {
			case p.isKw(kwAwait):
				p.i++
				callee = start
			case p.at(tNum):
				callee = p.t().start
				p.i++
			default:
				callee = p.name().start
				if p.isOp("::<") {
					p.i += 2
					p.typeArgs()
				}
			}
		case p.isP('(') && !(stmt && blockLike):
			p.call(refs, start, callee)
			p.i++
			p.exprList(')')
			callee = start
		case p.isP('[') && !(stmt && blockLike):
			p.i++
			p.nested(func() { p.expr(0) })
			p.expectP(']')
			callee = start
		default:
			return blockLike
		}
		blockLike = false
	}
}

// nested runs f with struct literals allowed again (inside brackets).
func (p *parser) nested(f func()) {
	save := p.noStruct
	p.noStruct = false
	f()
	p.noStruct = save
}

func (p *parser) exprList(close byte) {
	p.nested(func() {
		for !p.eatP(close) {
			p.outerAttrs()
			p.expr(0)
			if !p.eatP(',') {
				p.expectP(close)
				return
			}
		}
	})
}

// primary reads a primary expression; it returns the start of the node a
// call of it would push (the name for paths and fields) and whether it
// is block-like.
func (p *parser) primary() (uint32, bool) {
	t := p.t()
	start := t.start
	switch t.kind {
	case tNum, tStr, tChar:
		p.i++
		return start, false
	case tLifetime:
		p.lifetime()
		p.expectP(':')
		if !(p.isKw(kwLoop) || p.isKw(kwWhile) || p.isKw(kwFor) || p.isP('{')) {
			p.failHere("label before a non-loop")
		}
		return p.primary()
	case tPunct:
		return p.primaryPunct()
	case tEOF:
		p.failHere("unexpected end of file")
	}
	return p.primaryKeyword()
}

// primaryKeyword reads a primary expression that starts with a word.
func (p *parser) primaryKeyword() (uint32, bool) {
	t := p.t()
	start := t.start
	switch t.kw {
	case kwTrue, kwFalse:
		p.i++
	case kwIf:
		p.ifExpr()
		return start, true
	case kwMatch:
		p.matchExpr()
		return start, true
	case kwLoop:
		p.i++
		p.block()
		return start, true
	case kwWhile:
		p.i++
		p.branch(1)
		p.cond()
		p.block()
		return start, true
	case kwFor:
		p.i++
		p.branch(1)
		p.pattern()
		p.expectKw(kwIn)
		p.condExpr(0)
		p.block()
		return start, true
	case kwUnsafe:
		p.i++
		p.block()
		return start, true
	case kwConst:
		if !p.isPAt(1, '{') {
			p.failHere("const expression")
		}
		p.i++
		p.block()
		return start, true
	case kwAsync:
		if p.isPAt(1, '{') || p.isKwAt(1, kwMove) && p.isPAt(2, '{') {
			p.i++
			p.eatKw(kwMove)
			p.block()
			return start, true
		}
		p.closure()
	case kwMove, kwStatic:
		p.closure()
	case kwReturn, kwBreak, kwContinue:
		p.i++
		if t.kw != kwReturn && p.at(tLifetime) {
			p.lifetime()
		}
		if t.kw != kwContinue && p.startsExpr() {
			p.expr(0)
		}
	case kwUnderscore:
		p.ref(t.start, t.end, t.line)
		p.i++
	case kwLet:
		p.failHere("let in an expression")
	default:
		return p.pathExpr()
	}
	return start, false
}

func (p *parser) primaryPunct() (uint32, bool) {
	t := p.t()
	start := t.start
	switch p.src[t.start] {
	case '(':
		p.i++
		p.exprList(')')
	case '[':
		p.i++
		p.nested(func() {
			if p.eatP(']') {
				return
			}
			p.outerAttrs()
			p.expr(0)
			if p.eatP(';') {
				p.expr(0)
				p.expectP(']')
				return
			}
			for p.eatP(',') && !p.isP(']') {
				p.outerAttrs()
				p.expr(0)
			}
			p.expectP(']')
		})
	case '{':
		p.block()
		return start, true
	case '|':
		p.closure()
	case '<', ':', '$':
		return p.pathExpr()
	case '#':
		fail("attribute on an expression")
	default:
		p.failHere("expected an expression")
	}
	return start, false
}

// pathExpr reads a path in an expression, and the macro call or struct
// literal it may start.
func (p *parser) pathExpr() (uint32, bool) {
	refs := len(p.res.Refs)
	start := p.t().start
	name := p.exprPath()
	switch {
	case p.isP('!') && !p.isOp("!="):
		p.call(refs, start, name)
		p.i++
		brace := p.isP('{')
		p.tokenTree()
		return start, brace
	case p.isP('{') && !p.noStruct:
		p.structLiteral()
	}
	return name, false
}

// exprPath reads a path: a::b, ::a, <T as Tr>::f, Vec::<T>::new, self;
// it returns the start of its last segment.
func (p *parser) exprPath() uint32 {
	lead := true
	if p.isP('<') {
		p.qualified()
		p.expectOp("::")
	} else {
		lead = p.eatOp("::")
	}
	for first := !lead; ; first = false {
		seg := p.t()
		last := seg.start
		switch {
		case seg.kind == tIdent && (seg.kw == kwSelf || seg.kw == kwSuper || seg.kw == kwCrate):
			if !first {
				p.pathKeyword()
				break
			}
			p.i++
		case p.isOp("$crate"):
			p.i += 2
		case seg.kind == tIdent && seg.kw == kwPrim:
			p.ref(seg.start, seg.end, seg.line)
			p.i++
		default:
			p.name()
		}
		if p.isOp("::<") {
			p.i += 2
			p.typeArgs()
		}
		if !p.isOp("::") || p.isOp("::{") || p.isOp("::*") {
			return last
		}
		p.i += 2
	}
}

// structLiteral reads { a: x, b, 0: y, ..base }.
func (p *parser) structLiteral() {
	p.expectP('{')
	p.nested(func() {
		for !p.eatP('}') {
			p.outerAttrs()
			switch {
			case p.isOp(".."):
				p.i += 2
				if !p.isP('}') {
					p.expr(0)
				}
			case p.at(tNum):
				p.i++
				p.expectP(':')
				p.expr(0)
			default:
				p.name()
				if p.isP(':') && !p.isOp("::") {
					p.i++
					p.expr(0)
				}
			}
			if !p.eatP(',') {
				p.expectP('}')
				return
			}
		}
	})
}

func (p *parser) closure() {
	p.eatKw(kwStatic)
	p.eatKw(kwAsync)
	p.eatKw(kwMove)
	if !p.eatOp("||") {
		p.expectP('|')
		for !p.eatP('|') {
			p.outerAttrs()
			p.closureParam()
			if !p.eatP(',') {
				p.expectP('|')
				break
			}
		}
	}
	if p.eatOp("->") {
		p.typ()
		p.block()
		return
	}
	p.expr(0)
}

// closureParam reads a pattern with an optional type; a | inside would
// end the parameter list, so alternatives are not read here.
func (p *parser) closureParam() {
	p.rangePattern()
	if p.isP(':') && !p.isOp("::") {
		p.i++
		p.typ()
	}
}
