package rustscan

// pattern reads a pattern with alternatives (a | b), a leading | allowed.
func (p *parser) pattern() {
	p.enter()
	defer p.leave()
	if p.isP('|') && !p.isOp("||") {
		p.i++
	}
	for {
		p.rangePattern()
		if !p.isP('|') || p.isOp("||") {
			return
		}
		p.i++
	}
}

func (p *parser) rangePattern() {
	if p.isOp("..=") || p.isOp("...") {
		p.i += 3
		p.patternBound()
		return
	}
	if p.isOp("..") {
		p.i += 2 // rest pattern, or a half-open range ..X
		if p.startsBound() {
			p.patternBound()
		}
		return
	}
	if !p.simplePattern() {
		return
	}
	switch {
	case p.isOp("..=") || p.isOp("..."):
		p.i += 3
		p.patternBound()
	case p.isOp(".."):
		p.i += 2
		if p.startsBound() {
			p.patternBound()
		}
	}
}

func (p *parser) startsBound() bool {
	t := p.t()
	return t.kind == tNum || t.kind == tChar || t.kind == tStr || p.isP('-') ||
		t.kind == tIdent && (!strict(t.kw) || t.kw == kwSelf || t.kw == kwCrate || t.kw == kwSuper)
}

// patternBound reads a range pattern's end: a literal or a path.
func (p *parser) patternBound() {
	if p.eatP('-') || p.at(tNum) || p.at(tChar) || p.at(tStr) {
		p.i++
		return
	}
	p.exprPath()
}

// simplePattern reads one pattern; it reports whether it could be the
// start of a range (a literal or a path).
func (p *parser) simplePattern() bool {
	t := p.t()
	switch {
	case t.kind == tNum || t.kind == tChar || t.kind == tStr:
		p.i++
		return true
	case p.isP('-'):
		p.i++
		if !p.at(tNum) {
			p.failHere("negative pattern")
		}
		p.i++
		return true
	case p.isKw(kwTrue) || p.isKw(kwFalse) || p.isKw(kwUnderscore):
		p.i++
		return false
	case p.isP('&'):
		p.i++
		p.eatKw(kwMut)
		p.simplePattern()
		return false
	case p.isP('('):
		p.i++
		p.patternList(')')
		return false
	case p.isP('['):
		p.i++
		p.patternList(']')
		return false
	case p.isKw(kwRef) || p.isKw(kwMut):
		p.eatKw(kwRef)
		p.eatKw(kwMut)
		p.name()
		if p.eatP('@') {
			p.simplePattern()
		}
		return false
	case p.isKw(kwConst) || p.isKw(kwBox):
		fail("const or box pattern")
	case p.isName() && !p.isOp2At(1, "::") && !p.isPAt(1, '(') && !p.isPAt(1, '{') && !(p.isPAt(1, '!') && !p.isOp2At(1, "!=")):
		p.name()
		if p.eatP('@') {
			p.rangePattern()
		}
		return true
	}
	refs, start := len(p.res.Refs), p.t().start
	name := p.exprPath()
	switch {
	case p.isP('('):
		p.i++
		p.patternList(')')
		return false
	case p.isP('{'):
		p.structPattern()
		return false
	case p.isP('!') && !p.isOp("!="):
		p.call(refs, start, name) // a macro pattern is a macro_invocation
		p.i++
		p.tokenTree()
		return false
	}
	return true
}

func (p *parser) patternList(close byte) {
	for !p.eatP(close) {
		p.outerAttrs()
		p.pattern()
		if !p.eatP(',') {
			p.expectP(close)
			return
		}
	}
}

// structPattern reads { a, ref mut b, c: pat, 0: pat, .. }.
func (p *parser) structPattern() {
	p.expectP('{')
	for !p.eatP('}') {
		p.outerAttrs()
		switch {
		case p.isOp(".."):
			p.i += 2
		case p.at(tNum):
			p.i++
			p.expectP(':')
			p.pattern()
		case p.isKw(kwRef) || p.isKw(kwMut) || p.isKw(kwBox):
			if p.isKw(kwBox) {
				fail("box pattern")
			}
			p.eatKw(kwRef)
			p.eatKw(kwMut)
			p.name()
		default:
			p.name()
			if p.isP(':') && !p.isOp("::") {
				p.i++
				p.pattern()
			}
		}
		if !p.eatP(',') {
			p.expectP('}')
			return
		}
	}
}
