package tsscan

// Token helpers and statements. The parser reads the masked source's
// tokens (extract.TSMask for TypeScript, as tree-sitter does) and the
// original source's text.

// maxDepth bounds the nesting the recursive descent follows.
const maxDepth = 400

func (p *parser) next() {
	p.prev = p.tok.end
	p.tok = p.l.next()
}

// is reports whether the current token is the punctuation or word s.
func (p *parser) is(s string) bool {
	t := p.tok
	return (t.kind == tPunct || t.kind == tName) && t.end-t.start == len(s) && string(p.l.src[t.start:t.end]) == s
}

func (p *parser) isName() bool { return p.tok.kind == tName }

// text is the current token's text (in the masked source).
func (p *parser) text() string { return string(p.l.src[p.tok.start:p.tok.end]) }

func (p *parser) eat(s string) bool {
	if p.is(s) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(s string) {
	if !p.is(s) {
		p.failHere("expected " + s)
	}
	p.next()
}

func (p *parser) failHere(msg string) {
	fail("line " + itoa(int(p.line(p.tok.start))+1) + ": " + msg + ", found " + quoteTok(p))
}

func quoteTok(p *parser) string {
	if p.tok.kind == tEOF {
		return "end of file"
	}
	s := string(p.l.src[p.tok.start:p.tok.end])
	if len(s) > 20 {
		s = s[:20]
	}
	return "\"" + s + "\""
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// semi ends a statement: a ';', or one inserted before a line break, a
// '}' or the end of the file.
func (p *parser) semi() {
	if p.eat(";") {
		return
	}
	if p.tok.nl || p.is("}") || p.tok.kind == tEOF {
		p.asi()
		return
	}
	p.failHere("expected ;")
}

// peek is the token after the current one.
func (p *parser) peek() token {
	s := p.l.save()
	t := p.l.next()
	p.l.restore(s)
	return t
}

func (p *parser) tokIs(t token, s string) bool {
	return (t.kind == tPunct || t.kind == tName) && t.end-t.start == len(s) && string(p.l.src[t.start:t.end]) == s
}

func (p *parser) enter() {
	if p.depth++; p.depth > maxDepth {
		fail("nesting too deep")
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) program() {
	p.next()
	if p.tok.kind == tPunct && p.is("#") {
		fail("hash-bang")
	}
	for p.tok.kind != tEOF {
		p.statement(noWrap)
	}
}

// block parses { statements }.
func (p *parser) block() {
	p.enter()
	outer, cont := p.enterScope(sBlock, p.tok.start), p.cont
	p.cont = p.newCont()
	p.expect("{")
	for !p.is("}") {
		if p.tok.kind == tEOF {
			p.failHere("unclosed block")
		}
		p.statement(noWrap)
	}
	p.next()
	p.cont = cont
	p.leaveScope(outer)
	p.leave()
}

// statement parses one statement; w is the export or declare statement
// around it.
func (p *parser) statement(w wrap) {
	p.enter()
	defer p.leave()
	if p.tok.kind != tName {
		switch {
		case p.is("{") && p.labelInBlockAhead():
			p.exprStatement() // tree-sitter reads {a: 0} as an object
		case p.is("{"):
			p.block()
		case p.is(";"):
			p.next()
		case p.is("@"):
			p.decorated(w)
		default:
			p.exprStatement()
		}
		return
	}
	if p.keywordStatement(w) {
		return
	}
	if p.ts && p.tsStatement(w) {
		return
	}
	if t := p.peek(); p.tokIs(t, ":") && !reserved[p.text()] {
		p.next() // a label: statement_identifier, not a reference
		p.next()
		if p.is("class") || p.is("let") || p.is("const") {
			p.failHere("labelled declaration")
		}
		p.statement(noWrap)
		return
	}
	p.exprStatement()
}

func (p *parser) exprStatement() {
	p.expression()
	p.semi()
}

// keywordStatement parses the statements a JavaScript keyword starts.
func (p *parser) keywordStatement(w wrap) bool {
	switch p.text() {
	case "var", "const":
		if p.is("const") && p.ts && p.tokIs(p.peek(), "enum") {
			return p.tsStatement(w)
		}
		p.endDefs(p.lexical(w))
	case "let":
		if t := p.peek(); t.nl || t.kind != tName && !p.tokIs(t, "[") && !p.tokIs(t, "{") {
			return false // let as a name; tree-sitter reads let\nx so too
		}
		p.endDefs(p.lexical(w))
	case "function":
		if !p.functionNamedAhead() {
			return false // an expression statement, as tree-sitter reads it
		}
		p.function(w, true)
	case "async":
		if t := p.peek(); !p.tokIs(t, "function") || t.nl || !p.functionNamedAhead() {
			return false
		}
		p.function(w, true)
	case "class":
		if t := p.peek(); p.tokIs(t, "{") || p.tokIs(t, "extends") || p.tokIs(t, "<") || p.tokIs(t, "implements") {
			// Invalid; tree-sitter reads its members oddly.
			p.failHere("anonymous class statement")
		}
		p.class(w, p.tok.start, true)
	case "if":
		p.branch()
		p.next()
		p.parenExpr()
		p.statement(noWrap)
		if p.eat("else") {
			p.statement(noWrap)
		}
	case "for":
		p.forStatement()
	case "while":
		p.branch()
		p.next()
		p.parenExpr()
		p.statement(noWrap)
	case "do":
		p.branch()
		p.next()
		p.statement(noWrap)
		p.expect("while")
		p.parenExpr()
		p.semi()
	case "switch":
		p.switchStatement()
	case "try":
		p.tryStatement()
	case "return", "throw":
		p.next()
		if !p.is(";") && !p.is("}") && !p.tok.nl && p.tok.kind != tEOF {
			p.expression()
		}
		p.semi()
	case "break", "continue":
		p.next()
		if p.isName() && !p.tok.nl {
			p.next() // a label
		}
		p.semi()
	case "debugger":
		p.next()
		p.semi()
	case "with":
		p.next()
		p.parenExpr()
		p.statement(noWrap)
	case "import":
		if t := p.peek(); p.tokIs(t, "(") || p.tokIs(t, ".") {
			return false
		}
		p.importStatement()
	case "export":
		p.exportStatement()
	default:
		return false
	}
	return true
}

func (p *parser) parenExpr() {
	p.expect("(")
	p.expression()
	p.expect(")")
}

func (p *parser) forStatement() {
	p.branch()
	defer p.openScope(sFor, p.tok.start)()
	p.next()
	p.eat("await")
	p.expect("(")
	semiDone := false
	switch {
	case p.is(";"):
	case p.is("var") || p.is("const") || p.is("let") && p.peek().kind == tName || p.is("let") && p.tokIs(p.peek(), "[") || p.is("let") && p.tokIs(p.peek(), "{"):
		semiDone = p.forDeclaration()
	default:
		p.noIn++
		nref := len(p.r.refs)
		x := p.expression()
		p.noIn--
		if x > 0 && p.r.exprs[x].kind == xIdent && (p.is("of") || p.is("in")) && len(p.r.refs) == nref+1 {
			// for (x of …): x is for_in_statement's left, a binding.
			p.r.refs[nref].binding = true
			p.bind(token{start: int(p.r.exprs[x].off), end: int(p.r.exprs[x].off) + len(p.r.exprs[x].name)}, bOther)
		}
		if p.is("of") || p.is("in") {
			p.assignPattern(x) // for ({a} of …): a is a binding
		}
	}
	if !semiDone && (p.eat("of") || p.eat("in")) {
		p.assign()
		p.expect(")")
		p.statement(noWrap)
		return
	}
	if !semiDone {
		p.expect(";")
	}
	if !p.is(";") {
		p.expression()
	}
	p.expect(";")
	if !p.is(")") {
		p.expression()
	}
	p.expect(")")
	p.statement(noWrap)
}

// forDeclaration is the head of a for statement that declares: a lexical
// declaration (its declarators are symbols) unless of or in follows the
// first name, where tree-sitter keeps no declarator. It reports whether
// it read the declaration's ';' too.
func (p *parser) forDeclaration() bool {
	st := p.l.save()
	tok, prev := p.tok, p.prev
	p.next()
	var afterName token
	if p.isName() {
		afterName = p.peek()
	}
	p.l.restore(st)
	p.tok, p.prev = tok, prev
	if p.tokIs(afterName, "of") || p.tokIs(afterName, "in") {
		p.next()
		p.refBind(p.tok, bOther)
		p.next()
		return false
	}
	if afterName.kind == tEOF {
		// A destructuring pattern: of/in decides after the pattern.
		p.next()
		p.pattern(nil)
		if p.is("of") || p.is("in") {
			return false
		}
		fail("destructuring for head")
	}
	p.noIn++
	ids := p.lexicalDeclarators(noWrap)
	p.noIn--
	p.expect(";")
	p.endDefs(ids)
	return true
}

func (p *parser) switchStatement() {
	defer p.inCont(p.cont)()
	p.next()
	p.parenExpr()
	p.expect("{")
	for !p.is("}") {
		if p.eat("case") {
			p.branch()
			p.expression()
		} else {
			p.expect("default")
		}
		p.expect(":")
		p.cont = p.newCont()
		for !p.is("case") && !p.is("default") && !p.is("}") {
			if p.tok.kind == tEOF {
				p.failHere("unclosed switch")
			}
			p.statement(noWrap)
		}
	}
	p.next()
}

func (p *parser) tryStatement() {
	p.next()
	p.block()
	if p.eat("catch") {
		p.branch()
		leave := p.openScope(sCatch, p.prev-len("catch"))
		if p.eat("(") {
			p.pattern(nil)
			if p.ts && p.eat(":") {
				p.typ()
			}
			p.expect(")")
		}
		p.block()
		leave()
	}
	if p.eat("finally") {
		p.block()
	}
}

// reserved words are never names of references in expressions.
var reserved = map[string]bool{
	"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "export": true,
	"extends": true, "finally": true, "for": true, "function": true, "if": true, "import": true,
	"in": true, "instanceof": true, "new": true, "return": true, "super": true, "switch": true,
	"this": true, "throw": true, "try": true, "typeof": true, "var": true, "void": true,
	"while": true, "with": true, "null": true, "true": true, "false": true, "enum": true,
}

// asi ends a statement without ';': tree-sitter's automatic semicolon
// comes after the line comments on the statement's last line, which the
// statement's node then covers, unless it ends in a declarator without
// a value (let x // comment) or a block comment comes before the next
// token in JavaScript; tree-sitter-typescript's scanner has no such
// exceptions.
func (p *parser) asi() {
	bare := p.bareName
	p.bareName = false
	if bare && (p.tok.kind != tEOF || p.tok.nl) && !p.ts {
		return
	}
	line := p.line(p.prev)
	end := -1
	for i := p.ncommentsBefore(p.prev); i < len(p.l.comments); i++ {
		c := p.l.comments[i]
		if c.start >= p.tok.start {
			break
		}
		if p.src[c.start+1] == '*' && !p.ts {
			return
		}
		if p.line(c.start) == line {
			end = c.end
		}
	}
	if end >= 0 {
		if bare && p.tok.kind == tEOF {
			// let A// and let A0// end differently in tree-sitter's tree.
			fail("declarator without a value before a comment at the end")
		}
		p.prev = end
	}
}

// labelInBlockAhead reports { name : at the current token.
func (p *parser) labelInBlockAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	p.next()
	if !p.isName() {
		return false
	}
	p.next()
	return p.is(":")
}

// declEnd ends a function or class declaration: tree-sitter's grammars
// give those an optional automatic semicolon, which covers the comments
// on the declaration's last line (in TypeScript as asi's does; in
// JavaScript only for the program's own declarations, not exported ones).
func (p *parser) declEnd(exported bool) {
	if !p.tok.nl && !p.is("}") && p.tok.kind != tEOF {
		return
	}
	line := p.line(p.prev)
	end := -1
	for i := p.ncommentsBefore(p.prev); i < len(p.l.comments); i++ {
		c := p.l.comments[i]
		if c.start >= p.tok.start || p.line(c.start) != line {
			break
		}
		if p.src[c.start+1] == '*' {
			// Where tree-sitter's semicolon then ends varies with the
			// language, the declaration and the comments after.
			fail("block comment after a declaration on its line")
		}
		end = c.end
	}
	if end < 0 || !p.ts && (p.sc != 0 || exported) {
		return
	}
	if p.ts {
		p.asi()
		return
	}
	p.prev = end
}
