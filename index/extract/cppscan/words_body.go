package cppscan

// word1 reads a word of an expression or body at p.i and moves past it
// (and past template arguments after a name).
func (p *parser) word1(t tok, r *reader) {
	next, prev := p.at(1), p.at(-1)
	switch p.word(t) {
	case wIdent:
		p.name(t, r)
		return
	case wPrim, wSized, wSpec:
		if !r.inBody && p.is(prev, "=") && !p.is(next, "(") && !p.is(next, "{") {
			fail("a type as a value at %d", t.Start)
		}
		if p.is(next, "(") && (!r.inBody || p.stmtStart(-1) || isTypeWord(p.word(prev))) {
			fail("a declarator in parentheses at %d", next.Start) // int(f()); declares f
		}
	case wBranch, wCase:
		p.branch()
	case wDo:
		if !r.inBody || !p.is(next, "{") {
			fail("do without a block")
		}
		p.branch()
		r.dos = append(r.dos, r.b.depth)
	case wGoto:
		if next.Kind != tIdent {
			fail("computed goto")
		}
		p.i++ // a label, no reference
	case wTag, wEnum:
		if p.is(next, "{") || next.Kind == tIdent && (p.is(p.at(2), "{") || p.is(p.at(2), ":")) {
			fail("a type defined in a function")
		}
	case wNew:
		p.i++
		if p.is(p.peek(), "(") {
			fail("placement new at %d", t.Start)
		}
		for p.word(p.peek()) == wSpec || p.word(p.peek()) == wTypename {
			p.i++
		}
		if w := p.word(p.peek()); w == wPrim || w == wSized {
			p.i++
			return
		}
		if p.is(p.peek(), "::") {
			p.i++
		}
		p.typeName()
		r.closeArg = -1
		return
	case wTemplate:
		if !(p.is(prev, ".") || p.is(prev, "->")) || !p.isName(next) {
			fail("template in an expression at %d", t.Start)
		}
		p.i++
		p.ref(next, false) // a dependent name: no callee
		p.i++
		if p.is(p.peek(), "<") {
			p.i++
			p.angle()
			r.closeArg = p.i
		}
		return
	case wUsing, wTypedef:
		if !r.inBody || r.b.parens != 0 || !p.stmtStart(-1) {
			fail("%s inside an expression at %d", p.text(t), t.Start)
		}
		if p.word(t) == wTypedef {
			p.typedef()
		} else {
			p.using(tmpl{})
		}
		return
	case wDecltype, wNoexcept, wExpr, wStmt, wDefault, wTypename, wStatic, wAssert:
	case wOperator:
		p.operatorCall(t)
		return
	default:
		fail("%q in an expression at %d", p.text(t), t.Start)
	}
	p.i++
}

func isTypeWord(w uint8) bool { return w == wIdent || w == wPrim || w == wSized || w == wSpec }

// stmtStart reports whether the token at p.i+k ends a statement, so
// that the next one starts one.
func (p *parser) stmtStart(k int) bool {
	prev := p.at(k)
	return prev.Kind == tEOL || p.is(prev, ";") || p.is(prev, "{") || p.is(prev, "}")
}

// name reads a name in an expression: a label, a reference, a callee.
func (p *parser) name(t tok, r *reader) {
	next, prev := p.at(1), p.at(-1)
	if r.inBody && p.is(next, ":") && (p.stmtStart(-1) || p.is(prev, ":") || p.text(prev) == "else" || p.text(prev) == "do" ||
		p.is(prev, ")") && p.controlParens()) {
		p.i++ // a label: no reference
		return
	}
	if r.inBody && p.is(next, "{") && !p.braceInit() {
		fail("a name before a block at %d", t.Start) // tree-sitter reads a function definition
	}
	call, targs := p.is(next, "("), 0
	if p.is(next, "<") {
		if targs = p.templateArgsAt(1); targs > 0 {
			call = p.is(p.at(targs), "(")
			if call && (p.isName(prev) || p.word(prev) == wPrim || p.word(prev) == wSized) {
				fail("a declarator or macro before template arguments at %d", t.Start)
			}
		}
	}
	if call {
		call = p.callAt(t, r, targs)
	}
	p.ref(t, call)
	p.i++
	if targs > 0 {
		p.i++
		p.angle()
		r.closeArg = p.i
	}
}

// callAt decides whether the name at p.i before "(" (after template
// arguments when targs > 0) is called: false when a type before it
// makes it a declarator, declined where tree-sitter's reading varies.
func (p *parser) callAt(t tok, r *reader, targs int) bool {
	if r.inBody && p.stmtStart(p.chainStart()) && (targs > 0 || p.declaratorArgs()) {
		if targs > 0 {
			return true
		}
		fail("a call or a declaration at %d", t.Start) // f(*p); declares p to tree-sitter
	}
	c := p.chainStart()
	prev := p.at(c)
	if r.inBody && r.b.parens == 0 && p.is(prev, ",") && p.inBlock() {
		fail("a second declarator or a comma operand before ( at %d", t.Start)
	}
	switch w := p.word(prev); {
	case w == wIdent || w == wPrim || w == wSized || w == wSpec || p.is(prev, ">") && p.i+c+1 == r.closeArg:
		// T x(a): a declarator, when a type starts the statement.
		if !r.inBody || c != -1 || targs > 0 || p.is(prev, ">") || !p.typeBefore(r) || !p.exprArgs() && !p.flatArgs() {
			fail("a declarator or macro before ( at %d", t.Start)
		}
		return false
	case (p.is(prev, "*") || p.is(prev, "&")) && r.inBody:
		k := c - 1
		for p.is(p.at(k), "*") || p.is(p.at(k), "&") || p.is(p.at(k), "&&") || p.word(p.at(k)) == wSpec {
			k--
		}
		if pp := p.at(k); isTypeWord(p.word(pp)) || p.is(pp, ">") {
			fail("a declarator or a product before ( at %d", t.Start)
		}
	}
	return true
}

// templateArgsAt reports whether the "<" at p.i+k opens template
// arguments: it has a matching ">" with only what template arguments
// hold between; it returns the index (relative to p.i) after that ">",
// or 0.
func (p *parser) templateArgsAt(k int) int {
	depth, ops := 0, false
	for ; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir || t.Kind == tEOL:
			return 0
		case p.is(t, "<"):
			depth++
		case p.is(t, ">"):
			depth--
			if depth > 0 {
				break
			}
			if n := p.at(k + 1); ops && (p.is(n, "(") || p.is(n, "::") || p.is(n, "{")) {
				// g<a ? b : c>(x), g<!a>(), g<+0>(): tree-sitter may
				// read template arguments or comparisons.
				fail("an operator between < and > at %d", t.Start)
			} else if ops {
				return 0 // a < b + c && d > e: comparisons
			}
			return k + 1
		case p.is(t, "&&") && (p.is(p.at(k+1), ">") || p.is(p.at(k+1), ",") || p.is(p.at(k+1), "...")):
			// T&&, a reference type
		case p.is(t, ";") || p.is(t, "{") || p.is(t, "}") || p.is(t, "(") || p.is(t, ")") ||
			p.is(t, "[") || p.is(t, "]") || t.Kind == tStr:
			return 0
		case p.is(t, "?") || p.is(t, "!") || p.is(t, "&&") || p.is(t, "||") || p.is(t, "=") ||
			p.is(t, "<<") || p.is(t, "==") || p.is(t, "!=") || p.is(t, "<=") || p.is(t, "+") || p.is(t, "-") ||
			p.is(t, "/") || p.is(t, "%") || p.is(t, "|") || p.is(t, "^") || p.is(t, ".") || p.is(t, "->"):
			ops = true
		}
	}
}

// declaratorArgs reports whether the parentheses at p.i+1 hold what
// reads as a declarator with a pointer or array (f(*p); f(a[0]);):
// tree-sitter reads such a statement as a declaration.
func (p *parser) declaratorArgs() bool {
	if p.is(p.at(2), "*") || p.is(p.at(2), "&") || p.at(2).Kind == tIdent && p.is(p.at(3), "[") {
		return true
	}
	depth, shaped, other := 0, false, false
	for k := 1; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			return false
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			depth--
			if depth == 0 {
				next := p.at(k + 1)
				return shaped && !other && p.is(next, ";") || next.Kind == tIdent || p.is(next, "{")
			}
		case p.is(t, "*") || p.is(t, "[") || p.is(t, "]") || p.is(t, "::"):
			shaped = true
		case t.Kind == tIdent && p.word(t) == wIdent, t.Kind == tNum:
		default:
			other = true
		}
	}
}

// chainStart returns the offset (relative to p.i, negative) of the
// token before the qualified name a::b::c ending at p.i.
func (p *parser) chainStart() int {
	k := -1
	for p.is(p.at(k), "::") {
		if !p.isName(p.at(k - 1)) {
			return k - 1 // ::a::f, global
		}
		k -= 2
	}
	return k
}

// typeBefore reports whether the tokens before the name at p.i, back
// to the statement's start, read as a type (a::b<c>, const T, int):
// then name(...) declares name.
func (p *parser) typeBefore(r *reader) bool {
	k := -1
	typed := false
	for ; ; k-- {
		t := p.at(k)
		switch w := p.word(t); {
		case p.i+k < 0:
			return false
		case p.is(t, ">"):
			depth := 0
			for ; p.i+k >= 0; k-- {
				if p.is(p.at(k), ">") {
					depth++
				} else if p.is(p.at(k), "<") {
					depth--
					if depth == 0 {
						break
					}
				} else if tt := p.at(k); tt.Kind == tDir || p.is(tt, ";") || p.is(tt, "{") || p.is(tt, "}") {
					return false
				}
			}
		case w == wIdent || w == wPrim || w == wSized:
			typed = true
		case w == wSpec || w == wStatic || w == wTypename || p.is(t, "::"):
		case p.stmtStart(k):
			return typed
		default:
			return false
		}
	}
}

// exprArgs reports whether the parentheses at p.i+1 hold what only an
// expression holds (a literal, a member access, arithmetic): then
// T x(...) initializes x; with names alone tree-sitter may read a
// function declaration (error_code ec(e, f());).
func (p *parser) exprArgs() bool {
	depth := 0
	for k := 1; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			return false
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			depth--
			if depth == 0 {
				return false
			}
		case depth == 1 && (t.Kind == tNum || t.Kind == tStr || p.is(t, ".") || p.is(t, "->") || p.is(t, "+") ||
			p.is(t, "-") || p.is(t, "/") || p.is(t, "%") || p.is(t, "!") || p.is(t, "==") || p.is(t, "!=")):
			return true
		}
	}
}

// braceInit reports whether the braces after the name at p.i close
// before ";" or ",": x{...}; initializes x, while tree-sitter reads
// T x{...} without them as a function definition.
func (p *parser) braceInit() bool {
	depth := 0
	for k := 1; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			return false
		case p.is(t, "{"):
			depth++
		case p.is(t, ";") && depth == 1:
			return false // T x{;}: a block, a function to tree-sitter
		case p.is(t, "}"):
			depth--
			if depth == 0 {
				n := p.at(k + 1)
				return p.is(n, ";") || p.is(n, ",") || p.is(n, ")")
			}
		}
	}
}

// flatArgs reports whether the parentheses at p.i+1 hold no brackets:
// T x(a, &b); reads the same whether tree-sitter takes an initializer
// or a function declarator (no callee either way).
func (p *parser) flatArgs() bool {
	for k := 2; ; k++ {
		t := p.at(k)
		switch {
		case p.is(t, ")"):
			return p.is(p.at(k+1), ";")
		case t.Kind == 0 || t.Kind == tDir || p.is(t, "(") || p.is(t, "{") || p.is(t, "[") || p.is(t, "<") || p.is(t, ";"):
			return false
		}
	}
}

// inBlock reports whether the innermost "{" open before p.i starts a
// block, not an initializer list.
func (p *parser) inBlock() bool {
	depth := 0
	for k := -1; p.i+k >= 0; k-- {
		switch t := p.at(k); {
		case p.is(t, "}"):
			depth++
		case p.is(t, "{"):
			if depth == 0 {
				prev := p.at(k - 1)
				return prev.Kind == tEOL || p.is(prev, ")") || p.stmtStart(k-1) || p.word(prev) == wStmt || p.word(prev) == wDo
			}
			depth--
		}
	}
	return true
}

// operatorCall reads a qualified operator called by name
// (base::operator=(x), ::operator new(n)): tree-sitter's operator_name
// is no reference, and its arguments are read as a call's. Others
// (x.operator->(), operator bool) are declined.
func (p *parser) operatorCall(kw tok) {
	if !p.is(p.at(-1), "::") {
		fail("%q in an expression at %d", p.text(kw), kw.Start)
	}
	if c := p.chainStart(); p.is(p.at(c), "(") && p.isName(p.at(c-1)) {
		// T(A::operator!()); declares a function to tree-sitter.
		fail("an operator declarator or argument at %d", kw.Start)
	}
	t, n := p.at(1), 0
	switch {
	case p.is(t, "(") && p.is(p.at(2), ")"), p.is(t, "[") && p.is(p.at(2), "]"):
		n = 2
	case t.Kind == tPunct && !p.is(t, "(") && !p.is(t, "::") && !p.is(t, ">") && !p.is(t, "<"):
		n = 1
	case p.word(t) == wNew || p.text(t) == "delete":
		n = 1
	}
	if n == 0 || !p.is(p.at(n+1), "(") {
		fail("operator form at %d", kw.Start)
	}
	p.i += n + 1
}
