package cppscan

// bodyState is where a token reading stands; a conditional's branches
// must each leave it as they found it.
type bodyState struct {
	depth  int // braces
	parens int // parentheses and brackets
}

// reader reads expressions and function bodies as tokens: every name is
// a reference, a name before "(" (or before template arguments and
// "(") is called unless it is declared there, and the branch keywords
// and operators count once each.
type reader struct {
	b        bodyState
	dos      []int // brace depths of open do statements
	inBody   bool  // a function body: statements, labels, directives
	closeArg int   // token index just after the last template arguments read
}

// body reads a function body's tokens after its "{" to the matching
// "}", whose end it returns.
func (p *parser) body() uint32 {
	r := &reader{inBody: true, b: bodyState{depth: 1}, closeArg: -1}
	for {
		t := p.peek()
		if t.Kind == tDir {
			if t.Dir == "else" || t.Dir == "elif" || t.Dir == "endif" {
				fail("#%s without #if in a body", t.Dir)
			}
			p.bodyDirective(r)
			continue
		}
		if p.is(t, "}") && r.b.depth == 1 && r.b.parens == 0 {
			if len(r.dos) > 0 {
				fail("open do at the end of a body")
			}
			if prev := p.at(-1); !p.stmtStart(-1) && !p.is(prev, ":") {
				fail("a statement without ; at %d", t.Start)
			}
			p.i++
			return t.End
		}
		p.token(r)
	}
}

// exprUntil reads an expression up to one of the stops at depth 0 (not
// consumed).
func (p *parser) exprUntil(stops ...string) {
	r := &reader{closeArg: -1}
	for _, s := range stops {
		if p.is(p.peek(), s) {
			fail("empty expression at %d", p.peek().Start)
		}
	}
	for {
		t := p.peek()
		if t.Kind == 0 || t.Kind == tDir {
			fail("unterminated expression at %d", t.Start)
		}
		if r.b.depth == 0 && r.b.parens == 0 {
			for _, s := range stops {
				if p.is(t, s) {
					p.endsOperand(r)
					return
				}
			}
		}
		p.token(r)
	}
}

// expr reads an expression inside brackets up to close, not consumed.
func (p *parser) expr(close string) {
	r := &reader{closeArg: -1}
	for {
		t := p.peek()
		if t.Kind == 0 || t.Kind == tDir {
			fail("unterminated expression at %d", t.Start)
		}
		if r.b.depth == 0 && r.b.parens == 0 && p.is(t, close) {
			if prev := p.at(-1); !p.is(prev, "(") && !p.is(prev, "[") && !p.is(prev, "{") && !p.is(prev, ",") {
				p.endsOperand(r)
			}
			return
		}
		if r.b.depth == 0 && p.is(t, ";") {
			fail("; in an expression at %d", t.Start)
		}
		p.token(r)
	}
}

// bodyUntilDirective reads a conditional's branch in a body: tokens up
// to its #else, #elif or #endif.
func (p *parser) bodyUntilDirective(b *bodyState) {
	r := &reader{inBody: true, b: *b, closeArg: -1}
	for {
		t := p.peek()
		switch {
		case t.Kind == 0:
			fail("unterminated #if in a body")
		case t.Kind == tDir:
			if t.Dir == "else" || t.Dir == "elif" || t.Dir == "endif" {
				if len(r.dos) > 0 {
					fail("do split by a conditional")
				}
				*b = r.b
				return
			}
			p.bodyDirective(r)
		case p.is(t, "}") && r.b.depth <= 1:
			fail("a conditional's branch closes the function")
		default:
			p.token(r)
		}
	}
}

// bodyDirective handles a directive at a statement boundary of a body.
func (p *parser) bodyDirective(r *reader) {
	prev := p.at(-1)
	if r.b.parens != 0 || !(prev.Kind == tEOL || p.is(prev, ";") || p.is(prev, "{") || p.is(prev, "}")) {
		fail("directive inside a statement at %d", p.peek().Start)
	}
	b := r.b
	p.directive(ctxNS, &b)
	if b != r.b {
		fail("directive changed the body")
	}
}

// token reads one token of an expression or body.
func (p *parser) token(r *reader) {
	t := p.peek()
	if !r.inBody && (operand(p, t) || isTypeWord(p.word(t))) && (p.is(p.at(-1), ")") && !p.castBefore() || p.i == r.closeArg) {
		fail("an operand after parentheses or template arguments at %d", t.Start)
	}
	if prev := p.at(-1); !r.inBody && (operand(p, t) || isTypeWord(p.word(t)) || p.is(t, "!") || p.is(t, "~")) &&
		operand(p, prev) && !(t.Kind == tStr && prev.Kind == tStr) {
		fail("two operands at %d", t.Start)
	}
	switch t.Kind {
	case tIdent:
		p.word1(t, r)
		return
	case tPunct:
		p.punct(t, r)
	case tDir, tEOL:
		fail("directive inside an expression at %d", t.Start)
	case 0:
		fail("unexpected end of file")
	}
	p.i++
}

// punct handles punctuation in a reading.
func (p *parser) punct(t tok, r *reader) {
	switch p.m[t.Start] {
	case '{':
		if r.inBody && p.is(p.at(-1), ")") && !p.controlParens() {
			fail("a block after parentheses at %d", t.Start)
		}
		r.b.depth++
	case '}':
		r.b.depth--
		if r.b.depth < 0 {
			fail("unbalanced } at %d", t.Start)
		}
		if k := len(r.dos); k > 0 && r.dos[k-1] == r.b.depth {
			if p.text(p.at(1)) != "while" {
				fail("do without while")
			}
			r.dos = r.dos[:k-1]
			p.i++ // the do's while is no while statement
		}
	case '(', '[':
		prev := p.at(-1)
		// A call of a call's result (f(a)(b), x.f(a)(b)) or of a
		// parenthesized expression ((*this)(x)) changes no flag: the
		// outer callee's start is the inner callee's, or an earlier
		// name the walker pops unmarked, or a "(". A subscript's start
		// (a[i](x)) is a name the walker marks: declined. A template's
		// temporary called (T<a>()(x)) marks T as tree-sitter does
		// where its tree has no error.
		if p.m[t.Start] == '(' && (p.is(prev, "]") && !p.lambdaAt() || p.is(prev, "++") || p.is(prev, "--") ||
			prev.Kind == tNum || prev.Kind == tStr) {
			fail("call of a subscript at %d", t.Start)
		}
		if p.m[t.Start] == '[' && p.is(p.at(1), "[") {
			fail("attribute at %d", t.Start)
		}
		r.b.parens++
	case ')', ']':
		r.b.parens--
		if r.b.parens < 0 {
			fail("unbalanced %s at %d", p.text(t), t.Start)
		}
	case '<':
		if !r.inBody && p.is(t, "<") {
			fail("a comparison or template arguments at %d", t.Start)
		}
	case ':', '-', '.':
		if p.is(t, "::") && p.is(p.at(1), "*") || p.is(t, "->*") || p.is(t, ".*") {
			fail("a member pointer at %d", t.Start)
		}
	case '?':
		p.branch()
	case '&', '|':
		if p.is(t, "&&") || p.is(t, "||") {
			p.logical(t, r)
		}
	}
}

// lambdaAt reports whether the "(" at p.i follows a lambda's capture
// list: "]" closing a "[" that starts an operand.
func (p *parser) lambdaAt() bool {
	depth := 0
	for k := -1; p.i+k >= 0; k-- {
		t := p.at(k)
		switch {
		case p.is(t, "]"):
			depth++
		case p.is(t, "["):
			depth--
			if depth == 0 {
				prev := p.at(k - 1)
				return !(prev.Kind == tIdent || prev.Kind == tStr || p.is(prev, ")") || p.is(prev, "]") || p.is(prev, ">"))
			}
		case t.Kind == tDir || p.is(t, ";") || p.is(t, "{") || p.is(t, "}"):
			return false
		}
	}
	return false
}

// logical counts "&&" or "||" between operands; "&&" after a type is a
// reference declarator (auto&& x), no branch.
func (p *parser) logical(t tok, r *reader) {
	prev := p.at(-1)
	switch w := p.word(prev); {
	case !r.inBody && p.i-1 == r.closeArg-1 && p.is(prev, ">"):
		// v<T> || w in an initializer: an operator.
	case w == wSpec || w == wPrim || w == wSized || p.i-1 == r.closeArg-1 && p.is(prev, ">"):
		if p.is(t, "||") {
			fail("|| after a type at %d", t.Start)
		}
		return
	case prev.Kind == tNum || prev.Kind == tStr || p.is(prev, ")") || p.is(prev, "]") || w == wExpr:
	case w == wIdent:
		if p.is(t, "&&") && p.isName(p.at(1)) {
			n := p.at(2)
			if p.is(n, "=") || p.is(n, ";") || p.is(n, ":") || p.is(n, ")") && r.inBody && p.is(p.at(3), "{") {
				fail("declarator or operand && at %d", t.Start)
			}
		}
	case p.is(prev, ">"):
		// a comparison (template arguments' ">" set closeArg).
	default:
		fail("unary %s at %d", p.text(t), t.Start)
	}
	p.branch()
}

// controlParens reports whether the ")" before p.i closes an if, for,
// while, switch or catch's parentheses or a lambda's parameters.
func (p *parser) controlParens() bool {
	depth := 0
	for k := -1; p.i+k >= 0; k-- {
		t := p.at(k)
		switch {
		case p.is(t, ")"):
			depth++
		case p.is(t, "("):
			depth--
			if depth == 0 {
				prev := p.at(k - 1)
				return p.word(prev) == wBranch || p.text(prev) == "switch" || p.is(prev, "]")
			}
		case t.Kind == tDir || p.is(t, "{") || p.is(t, "}"):
			return false
		}
	}
	return false
}

// operand reports whether t is a literal or a name.
func operand(p *parser, t tok) bool {
	return t.Kind == tNum || t.Kind == tStr || p.isName(t)
}

// openOf returns the offset (relative to p.i) of the "(" matching the
// ")" at offset k, or 0.
func (p *parser) openOf(k int) int {
	depth := 0
	for ; p.i+k >= 0; k-- {
		switch t := p.at(k); {
		case p.is(t, ")"):
			depth++
		case p.is(t, "("):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return 0
}

// endsOperand declines an expression that ends with an operator.
func (p *parser) endsOperand(r *reader) {
	prev := p.at(-1)
	switch {
	case p.is(prev, ">") && p.i != r.closeArg:
		fail("expression ending in > at %d", prev.Start)
	case operand(p, prev), prev.Kind == tStr, p.word(prev) == wExpr && p.text(prev) != "delete" &&
		p.text(prev) != "throw" && p.text(prev) != "sizeof" && p.text(prev) != "alignof":
	case p.is(prev, ")") || p.is(prev, "]") || p.is(prev, "}") || p.is(prev, ">") || p.is(prev, "++") || p.is(prev, "--") || p.is(prev, "..."):
	default:
		fail("expression ending in %q at %d", p.text(prev), prev.Start)
	}
}

// castBefore reports whether the parentheses before p.i hold a type
// alone, a cast's.
func (p *parser) castBefore() bool {
	open := p.openOf(-1)
	if open >= 0 {
		return false
	}
	for k := open + 1; k < -1; k++ {
		t := p.at(k)
		if !(isTypeWord(p.word(t)) || p.word(t) == wTypename || p.is(t, "::") || p.is(t, "*") || p.is(t, "&") ||
			p.is(t, "<") || p.is(t, ">") || p.is(t, ",")) {
			return false
		}
	}
	return open < -2
}
