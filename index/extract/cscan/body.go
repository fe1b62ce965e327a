package cscan

import "github.com/parleyhq/parley/index/extract"

// bodyState is where a function body's reading stands; a conditional's
// branches must each leave it as they found it.
type bodyState struct {
	depth  int // braces
	parens int
}

// function records a function definition whose declarator was read and
// reads its body.
func (p *parser) function(first, name tok, static bool) {
	sym, opened := p.define(&def{kind: extract.KindFunction, scope: scopeFunc, node: first.Start,
		decl: first.Start, declLine: first.Line, name: name, static: static})
	p.i++ // {
	b := bodyState{depth: 1}
	var dos []int // brace depths of open do statements
	end := p.body(&b, &dos)
	p.end(sym, opened, end)
}

// body reads a function body's tokens after its "{" to the matching "}",
// whose end it returns.
func (p *parser) body(b *bodyState, dos *[]int) uint32 {
	for {
		t := p.peek()
		switch t.Kind {
		case 0:
			fail("unclosed function body")
		case tDir:
			if t.Dir == "else" || t.Dir == "elif" || t.Dir == "endif" {
				fail("#%s without #if in a body", t.Dir)
			}
			p.bodyDirective(b)
			continue
		case tIdent:
			p.bodyWord(t, dos, b)
		case tPunct:
			if p.bodyPunct(t, b, dos) {
				p.i++
				return t.End
			}
		}
		p.i++
	}
}

// bodyUntilDirective reads a conditional's branch in a body: tokens up
// to its #else, #elif or #endif.
func (p *parser) bodyUntilDirective(b *bodyState) {
	var dos []int
	for {
		t := p.peek()
		switch t.Kind {
		case 0:
			fail("unterminated #if in a body")
		case tDir:
			if t.Dir == "else" || t.Dir == "elif" || t.Dir == "endif" {
				if len(dos) > 0 {
					fail("do split by a conditional")
				}
				return
			}
			p.bodyDirective(b)
			continue
		case tIdent:
			p.bodyWord(t, &dos, b)
		case tPunct:
			if p.bodyPunct(t, b, &dos) {
				fail("a conditional's branch closes the function")
			}
		}
		p.i++
	}
}

// bodyDirective handles a directive at a statement boundary of a body.
func (p *parser) bodyDirective(b *bodyState) {
	prev := p.at(-1)
	if b.parens != 0 || !(prev.Kind == tEOL || p.is(prev, ";") || p.is(prev, "{") || p.is(prev, "}")) {
		fail("directive inside a statement at %d", p.peek().Start)
	}
	p.directive(ctxTop, b)
}

// bodyPunct handles punctuation; it reports the function's closing "}".
func (p *parser) bodyPunct(t tok, b *bodyState, dos *[]int) bool {
	switch p.src[t.Start] {
	case '{':
		if p.is(p.at(-1), ")") && (p.word(p.closedAfter) == wIdent || p.is(p.closedAfter, "*")) {
			// f(x) {, i*(a) {: tree-sitter may read a function
			// definition (a macro loop, or a declarator).
			fail("a parenthesis after a name before { at %d", t.Start)
		}
		if t.End-t.Start == 1 {
			b.depth++
		}
	case '}':
		b.depth--
		if k := len(*dos); k > 0 && (*dos)[k-1] == b.depth {
			if p.text(p.at(1)) != "while" {
				fail("do without while")
			}
			*dos = (*dos)[:k-1]
			p.i++ // the do's while is no while statement
		}
		return b.depth == 0
	case '(':
		prev := p.at(-1)
		if p.is(prev, "]") || p.is(prev, "++") || p.is(prev, "--") {
			// a[i](x): the walker marks the array's name called, the
			// subscript's start being the callee's.
			fail("call of a call or subscript at %d", t.Start)
		}
		if p.is(prev, ")") && p.closedCall {
			// TRANS(Open)(a, b), x.f(a)(b): the walker marks the
			// inner callee's name called, as the scanner does;
			// followed by a name or "{" it reads a declaration.
			if after := p.afterParens(); after.Kind == tIdent || p.is(after, "{") {
				fail("a call of a call before %q at %d", p.text(after), after.Start)
			}
		}
		p.callParens = append(p.callParens, p.word(prev) == wIdent)
		p.parenAfter = append(p.parenAfter, prev)
		b.parens++
	case ')':
		b.parens--
		if k := len(p.callParens); k > 0 {
			p.closedCall = p.callParens[k-1]
			p.callParens = p.callParens[:k-1]
			p.closedAfter = p.parenAfter[k-1]
			p.parenAfter = p.parenAfter[:k-1]
		}
	}
	p.operator(t)
	return false
}

// operator counts a branching operator: "?", and "&&" or "||" after an
// operand (a unary && takes a label's address).
func (p *parser) operator(t tok) {
	switch {
	case p.is(t, "?"):
		p.branch()
	case p.is(t, "&&") || p.is(t, "||"):
		prev := p.at(-1)
		if !(prev.Kind == tIdent || prev.Kind == tNum || prev.Kind == tStr || p.is(prev, ")") || p.is(prev, "]") ||
			p.is(prev, "++") || p.is(prev, "--")) {
			fail("unary %s at %d", p.text(t), t.Start)
		}
		p.branch()
	}
}

// bodyWord handles a word in a body.
func (p *parser) bodyWord(t tok, dos *[]int, b *bodyState) {
	next, prev := p.at(1), p.at(-1)
	switch p.word(t) {
	case wIdent:
		if p.is(next, ":") && (prev.Kind == tEOL || p.is(prev, ";") || p.is(prev, "{") || p.is(prev, "}") ||
			p.is(prev, ":") || p.text(prev) == "else") {
			return // a label
		}
		if p.is(next, ":") && p.is(prev, ")") {
			fail("a label or a cast's operand before : at %d", t.Start) // for (;;) L: or c ? (T) x : y
		}
		if p.is(next, "{") {
			fail("a name before { at %d", t.Start) // tree-sitter reads a function definition
		}
		call := p.is(next, "(")
		if call && p.word(prev) == wTag {
			// struct mallinfo2 (*f) (void) = g;: a declaration
			fail("a tag's name before ( at %d", t.Start)
		}
		if call && p.sizeofOperand() {
			fail("a call after sizeof ( or of a type at %d", t.Start)
		}
		if call && (prev.Kind == tEOL || p.is(prev, ";") || p.is(prev, "{") || p.is(prev, "}")) && p.declaratorArgs() {
			fail("a call or a declaration at %d", t.Start) // unsetenv(arg[0]); is a declaration to tree-sitter
		}
		if call && p.is(p.at(2), "(") && p.is(p.at(3), "(") && p.word(p.at(4)) == wTag {
			fail("a cast to a tag type first in a call's arguments at %d", t.Start) // an error tree in tipc_config.h
		}
		if call {
			if w := p.word(prev); w == wIdent || w == wPrim || w == wSized || w == wQual || w == wStatic ||
				p.is(prev, "*") && isTypeWord(p.word(p.at(-2))) {
				fail("a declarator or macro before ( at %d", t.Start)
			}
		}
		p.ref(t, call)
	case wPrim, wSized, wQual:
		if p.is(next, "(") && (prev.Kind == tEOL || p.is(prev, ";") || p.is(prev, "{") || p.is(prev, "}") || isTypeWord(p.word(prev))) {
			fail("a declarator in parentheses at %d", next.Start) // int(f()); declares f
		}
	case wBranch, wCase:
		p.branch()
	case wDo:
		p.branch()
		if !p.is(next, "{") {
			fail("do without a block")
		}
		*dos = append(*dos, b.depth)
	case wGoto:
		if next.Kind != tIdent {
			fail("computed goto")
		}
		p.i++ // a label, no reference
	case wTag:
		if p.is(next, "{") || next.Kind == tIdent && p.is(p.at(2), "{") {
			fail("a type defined in a function")
		}
	case wTypedef, wDecline:
		if !p.offsetof(t) {
			fail("%q in a body at %d", p.text(t), t.Start)
		}
	}
}

// offsetof reads `offsetof (T, m)` or `offsetof (struct S, m)` at p.i,
// tree-sitter-c's offsetof_expression: the type's name and the member
// are references, none called. It leaves p.i at the ")". A type or a
// member of another shape (T *, a.b, a[1]) declines.
func (p *parser) offsetof(t tok) bool {
	if p.text(t) != "offsetof" || !p.is(p.at(1), "(") {
		return false
	}
	k := 2
	if p.word(p.at(k)) == wTag {
		k++
	}
	typ, member := p.at(k), p.at(k+2)
	if typ.Kind != tIdent || p.word(typ) != wIdent || !p.is(p.at(k+1), ",") ||
		member.Kind != tIdent || p.word(member) != wIdent || !p.is(p.at(k+3), ")") {
		return false
	}
	p.ref(typ, false)
	p.ref(member, false)
	p.i += k + 3
	return true
}

// afterParens returns the token after the parentheses opening at p.i.
func (p *parser) afterParens() tok {
	depth := 0
	for k := 0; ; k++ {
		switch t := p.at(k); {
		case t.Kind == 0 || t.Kind == tDir:
			return t
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			if depth--; depth == 0 {
				return p.at(k + 1)
			}
		}
	}
}

func isTypeWord(w uint8) bool { return w == wIdent || w == wPrim || w == wSized || w == wQual }

// declaratorArgs reports whether the parentheses at p.i+1 hold what
// reads as a declarator with a pointer or array (f(*p); f(a[0]);) and
// end the statement, or start like one: tree-sitter reads
// assert(v[u-1] >= 0); as a declaration of v too (zstd's
// fse_compress.c).
func (p *parser) declaratorArgs() bool {
	if p.is(p.at(2), "*") || p.at(2).Kind == tIdent && p.is(p.at(3), "[") {
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
				// F(x) y; reads as a declaration too.
				next := p.at(k + 1)
				return shaped && !other && p.is(next, ";") || next.Kind == tIdent || p.is(next, "{")
			}
		case p.is(t, "*") || p.is(t, "[") || p.is(t, "]"):
			shaped = true
		case t.Kind == tIdent && p.word(t) == wIdent, t.Kind == tNum:
		default:
			other = true
		}
	}
}
