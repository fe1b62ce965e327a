package pyscan

// The statement parser: recursive descent over the lexer's tokens,
// building the tree (tree.go). Anything it does not know, or any
// token it does not expect, panics with an *errFallback, which Scan
// recovers into the tree-sitter fallback: a syntax error, or syntax
// (match statements, Python 2 print and exec statements, 3.12 type
// parameters and aliases) whose tree-sitter records are not replicated.

type parser struct {
	t    *tree
	toks []tok
	i    int
	src  []byte
}

// fail declines the file; the message names the line (1-based).
func (p *parser) fail(why string) {
	line := 1
	for _, c := range p.src[:p.toks[p.i].start] {
		if c == '\n' {
			line++
		}
	}
	panic(&errFallback{why: why, line: line})
}

func (p *parser) peek() tok { return p.toks[p.i] }

func (p *parser) peekAt(k int) tok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) text(t tok) string { return string(p.src[t.start:t.end]) }

// is reports whether the next token is the operator or keyword s.
func (p *parser) is(s string) bool {
	t := p.toks[p.i]
	return (t.kind == tOp || t.kind == tName) && int(t.end-t.start) == len(s) && string(p.src[t.start:t.end]) == s
}

func (p *parser) isAt(k int, s string) bool {
	t := p.peekAt(k)
	return (t.kind == tOp || t.kind == tName) && int(t.end-t.start) == len(s) && string(p.src[t.start:t.end]) == s
}

// clause reports whether the next token, past whole-line comments, is the
// keyword s that continues a compound statement (elif, else, except,
// finally); the comments are then skipped: tree-sitter keeps them inside
// the statement, where they extend nothing.
func (p *parser) clause(s string) bool {
	k := p.i
	for p.toks[k].kind == tComment {
		k++
	}
	t := p.toks[k]
	if t.kind == tName && string(p.src[t.start:t.end]) == s {
		p.i = k
		return true
	}
	return false
}

func (p *parser) next() tok {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) expect(s string) tok {
	if !p.is(s) {
		p.fail("expected " + s)
	}
	return p.next()
}

var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "await": true,
	"break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true, "else": true,
	"except": true, "finally": true, "for": true, "from": true, "global": true, "if": true, "import": true,
	"in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true,
	"raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// name consumes an identifier.
func (p *parser) name() int32 {
	t := p.peek()
	if t.kind != tName || keywords[p.text(t)] {
		p.fail("expected a name")
	}
	p.i++
	return p.t.mk(nIdent, t.start, t.end)
}

func (p *parser) isName() bool {
	t := p.peek()
	return t.kind == tName && !keywords[p.text(t)]
}

// module parses the whole file.
func (p *parser) module() int32 {
	m := p.t.mk(nModule, 0, uint32(len(p.src)))
	for p.peek().kind != tEOF {
		switch p.peek().kind {
		case tComment, tNewline:
			p.i++
		case tIndent, tDedent:
			p.fail("unexpected indentation")
		default:
			p.statement(m)
		}
	}
	return m
}

// statement parses one statement into parent (a simple statement line
// may add several).
func (p *parser) statement(parent int32) {
	t := p.peek()
	if t.kind == tName {
		switch p.text(t) {
		case "if":
			p.t.add(parent, p.ifStmt())
			return
		case "while":
			p.t.add(parent, p.whileStmt())
			return
		case "for":
			p.t.add(parent, p.forStmt(t.start))
			return
		case "try":
			p.t.add(parent, p.tryStmt())
			return
		case "with":
			p.t.add(parent, p.withStmt(t.start))
			return
		case "def":
			p.t.add(parent, p.funcDef(t.start))
			return
		case "class":
			p.t.add(parent, p.classDef())
			return
		case "async":
			if p.isAt(1, "def") || p.isAt(1, "for") || p.isAt(1, "with") {
				p.i++
				switch {
				case p.is("def"):
					p.t.add(parent, p.funcDef(t.start))
				case p.is("for"):
					p.t.add(parent, p.forStmt(t.start))
				default:
					p.t.add(parent, p.withStmt(t.start))
				}
				return
			}
		case "match", "case":
			if p.lineEndsWithColon() && !p.isAt(1, "=") && !p.isAt(1, ".") {
				if p.text(t) == "case" {
					p.fail("case outside a match statement")
				}
				p.t.add(parent, p.matchStmt())
				return
			}
		case "type":
			if p.peekAt(1).kind == tName {
				p.fail("type alias statement")
			}
		case "print", "exec":
			if n := p.peekAt(1); !(n.kind == tNewline || n.kind == tOp && p.continuesName(n)) {
				p.fail("Python 2 " + p.text(t) + " statement")
			}
		}
	}
	if t.kind == tOp && p.text(t) == "@" {
		p.t.add(parent, p.decorated())
		return
	}
	p.simpleLine(parent)
}

// continuesName reports whether operator token n after a name makes the
// name an expression (print(x), print.x, print = ...), not a Python 2
// print statement (print >>f, x; print -1).
func (p *parser) continuesName(n tok) bool {
	switch p.text(n) {
	case "(", ".", "[", ")", ",", "=", ";", ":", "]", "}":
		return true
	}
	s := p.text(n)
	return len(s) >= 2 && s[len(s)-1] == '=' && s != "==" && s != "<=" && s != ">=" && s != "!="
}

func (p *parser) lineEndsWithColon() bool {
	for k := p.i; k < len(p.toks); k++ {
		if p.toks[k].kind == tNewline || p.toks[k].kind == tEOF {
			return k > p.i && p.toks[k-1].kind == tOp && p.src[p.toks[k-1].start] == ':' && p.toks[k-1].end-p.toks[k-1].start == 1
		}
	}
	return false
}

// simpleLine parses simple statements separated by ';' up to NEWLINE. A
// comment at the line's end is the enclosing block's (tree-sitter puts the
// extras before the newline there), so it extends the parent.
func (p *parser) simpleLine(parent int32) {
	for {
		p.t.add(parent, p.smallStmt())
		if !p.is(";") {
			break
		}
		// A trailing ';' is part of the line's statements: it ends the
		// block when the line is the block's last.
		p.t.setEnd(parent, p.next().end)
		if p.peek().kind == tNewline {
			break
		}
	}
	nl := p.peek()
	if nl.kind != tNewline {
		p.fail("expected end of line")
	}
	p.i++
	if nl.aux != 0 {
		p.t.setEnd(parent, nl.aux)
	}
}

// block parses a suite after ':': statements on the same line, or an
// indented block.
func (p *parser) block() int32 {
	p.expect(":")
	t := p.peek()
	if t.kind != tNewline {
		b := p.t.mk(nBlock, t.start, t.start)
		p.simpleLine(b)
		p.fixEnd(b)
		return b
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
		switch p.peek().kind {
		case tDedent:
			p.i++
			p.fixEnd(b)
			return b
		case tEOF:
			p.fixEnd(b)
			return b
		case tComment:
			p.t.setEnd(b, p.peek().end)
			p.i++
		case tNewline:
			p.i++
		case tIndent:
			p.fail("unexpected indent")
		default:
			p.statement(b)
		}
	}
}

// fixEnd makes n end no earlier than its last child.
func (p *parser) fixEnd(n int32) {
	if l := p.t.nodes[n].last; l >= 0 {
		p.t.setEnd(n, p.t.nodes[l].end)
	}
}

func (p *parser) ifStmt() int32 {
	start := p.next().start
	n := p.t.mk(nIf, start, start)
	p.t.fld(n, fNone, p.namedExpr())
	p.t.fld(n, fBody, p.block())
	for p.clause("elif") {
		s := p.next().start
		e := p.t.mk(nElif, s, s)
		p.t.add(e, p.namedExpr())
		p.t.fld(e, fBody, p.block())
		p.fixEnd(e)
		p.t.add(n, e)
	}
	p.elseClause(n)
	p.fixEnd(n)
	return n
}

func (p *parser) elseClause(n int32) {
	if p.clause("else") {
		s := p.next().start
		e := p.t.mk(nOther, s, s)
		p.t.fld(e, fBody, p.block())
		p.fixEnd(e)
		p.t.add(n, e)
	}
}

func (p *parser) whileStmt() int32 {
	start := p.next().start
	n := p.t.mk(nWhile, start, start)
	p.t.add(n, p.namedExpr())
	p.t.fld(n, fBody, p.block())
	p.elseClause(n)
	p.fixEnd(n)
	return n
}

func (p *parser) forStmt(start uint32) int32 {
	p.expect("for")
	n := p.t.mk(nFor, start, start)
	p.t.fld(n, fLeft, p.pattern(p.assignable(p.targetList(), true)))
	p.expect("in")
	p.t.fld(n, fRight, p.exprList(true))
	p.t.fld(n, fBody, p.block())
	p.elseClause(n)
	p.fixEnd(n)
	return n
}

func (p *parser) tryStmt() int32 {
	start := p.next().start
	n := p.t.mk(nOther, start, start)
	p.t.fld(n, fBody, p.block())
	for p.clause("except") {
		s := p.next().start
		e := p.t.mk(nExcept, s, s)
		if p.is("*") {
			p.next()
		}
		if !p.is(":") {
			v := p.test()
			if p.is("as") {
				p.next()
				target := p.name()
				tg := p.t.mk(nAsPatternTarget, p.t.nodes[target].start, p.t.nodes[target].end, target)
				as := p.t.mk(nAsPattern, p.t.nodes[v].start, p.t.nodes[tg].end, v)
				p.t.fld(as, fAlias, tg)
				v = as
			} else if p.is(",") {
				p.fail("Python 2 except clause")
			}
			p.t.fld(e, fValue, v)
		}
		p.t.add(e, p.block())
		p.fixEnd(e)
		p.t.add(n, e)
	}
	p.elseClause(n)
	if p.clause("finally") {
		s := p.next().start
		f := p.t.mk(nOther, s, s)
		p.t.add(f, p.block())
		p.fixEnd(f)
		p.t.add(n, f)
	}
	p.fixEnd(n)
	return n
}

func (p *parser) withStmt(start uint32) int32 {
	p.expect("with")
	n := p.t.mk(nOther, start, start)
	clause := p.t.mk(nOther, p.peek().start, p.peek().start)
	if p.is("(") && p.parenthesizedItems() {
		p.next()
		for !p.is(")") {
			p.t.add(clause, p.withItem())
			if !p.is(",") {
				break
			}
			p.next()
		}
		p.expect(")")
	} else {
		for {
			p.t.add(clause, p.withItem())
			if !p.is(",") {
				break
			}
			p.next()
		}
	}
	p.fixEnd(clause)
	p.t.add(n, clause)
	p.t.fld(n, fBody, p.block())
	p.fixEnd(n)
	return n
}

// parenthesizedItems reports whether the '(' after with opens a list of
// with-items rather than an expression: the bracket closes right before
// the ':' and holds an 'as' at its own depth.
func (p *parser) parenthesizedItems() bool {
	depth, as := 0, false
	for k := p.i; k < len(p.toks); k++ {
		t := p.toks[k]
		if t.kind == tNewline || t.kind == tEOF {
			return false
		}
		if t.kind == tName && depth == 1 && p.text(t) == "as" {
			as = true
		}
		if t.kind != tOp {
			continue
		}
		switch p.src[t.start] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return as && k+1 < len(p.toks) && p.toks[k+1].kind == tOp && p.text(p.toks[k+1]) == ":"
			}
		}
	}
	return false
}

func (p *parser) withItem() int32 {
	v := p.test()
	item := p.t.mk(nOther, p.t.nodes[v].start, p.t.nodes[v].end)
	if p.is("as") {
		p.next()
		target := p.target()
		tg := p.t.mk(nAsPatternTarget, p.t.nodes[target].start, p.t.nodes[target].end, target)
		as := p.t.mk(nAsPattern, p.t.nodes[v].start, p.t.nodes[tg].end, v)
		p.t.fld(as, fAlias, tg)
		v = as
	}
	p.t.fld(item, fValue, v)
	p.fixEnd(item)
	return item
}

func (p *parser) funcDef(start uint32) int32 {
	p.expect("def")
	n := p.t.mk(nFunction, start, start)
	p.t.fld(n, fName, p.name())
	if p.is("[") {
		p.fail("type parameters")
	}
	p.t.fld(n, fParameters, p.parameters())
	if p.is("->") {
		p.next()
		e := p.test()
		p.t.fld(n, fReturnType, p.t.mk(nType, p.t.nodes[e].start, p.t.nodes[e].end, e))
	}
	p.t.fld(n, fBody, p.block())
	p.fixEnd(n)
	return n
}

func (p *parser) classDef() int32 {
	start := p.next().start
	n := p.t.mk(nClass, start, start)
	p.t.fld(n, fName, p.name())
	if p.is("[") {
		p.fail("type parameters")
	}
	if p.is("(") {
		p.t.fld(n, fSuperclasses, p.arguments())
	}
	p.t.fld(n, fBody, p.block())
	p.fixEnd(n)
	return n
}

// decorated parses decorators and the def or class they decorate. A
// comment after a decorator belongs to the decorator node (its rule ends
// with the newline), so a decorator reads "@staticmethod" exactly only
// when no comment follows it.
func (p *parser) decorated() int32 {
	start := p.peek().start
	n := p.t.mk(nDecorated, start, start)
	for p.is("@") {
		s := p.next().start
		e := p.namedExpr()
		d := p.t.mk(nDecorator, s, p.t.nodes[e].end, e)
		nl := p.peek()
		if nl.kind != tNewline {
			p.fail("expected end of decorator")
		}
		p.i++
		if nl.aux != 0 {
			p.t.setEnd(d, nl.aux)
		}
		if p.t.textIs(d, "@staticmethod") {
			p.t.nodes[n].staticMethod = true
		}
		p.t.add(n, d)
		for p.peek().kind == tComment {
			p.i++
		}
	}
	t := p.peek()
	var def int32
	switch {
	case p.is("def"):
		def = p.funcDef(t.start)
	case p.is("class"):
		def = p.classDef()
	case p.is("async") && p.isAt(1, "def"):
		p.i++
		def = p.funcDef(t.start)
	default:
		p.fail("decorator without a definition")
	}
	p.t.add(n, def)
	p.fixEnd(n)
	return n
}
