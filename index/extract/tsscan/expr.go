package tsscan

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// Expressions. Precedence does not change which tokens are references,
// so binary operators are read flat; what matters is each call's callee
// (the walker's call flags: the name a call's function field reaches
// through member accesses), decision points (&&, ||, ??, ?:) and the
// definitions expressions hold (classes, object literal methods).

func (p *parser) expression() {
	p.assign()
	for p.eat(",") {
		p.assign()
	}
}

var assignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "**=": true, "<<=": true,
	">>=": true, ">>>=": true, "&=": true, "|=": true, "^=": true, "&&=": true, "||=": true, "??=": true,
}

// assign parses an assignment expression: an arrow function, a yield, or
// a conditional expression with an optional assignment.
func (p *parser) assign() {
	p.enter()
	defer p.leave()
	if p.arrowAhead() {
		p.arrow()
		return
	}
	if p.is("yield") {
		p.next()
		p.eat("*")
		if !p.tok.nl && p.startsExpr() {
			p.assign()
		}
		return
	}
	p.conditional()
	if p.tok.kind == tPunct && assignOps[p.text()] {
		p.next()
		p.assign()
	}
}

// startsExpr reports whether the current token can start an expression.
func (p *parser) startsExpr() bool {
	switch p.tok.kind {
	case tEOF:
		return false
	case tPunct:
		switch p.text() {
		case ")", "]", "}", ",", ";", ":", "=", "?", "=>":
			return false
		}
		return !strings.HasSuffix(p.text(), "=") || p.is("/=")
	}
	return !p.is("in") && !p.is("of") && !p.is("instanceof")
}

func (p *parser) conditional() {
	p.binary()
	if p.is("?") {
		p.branch()
		p.next()
		saved := p.noIn
		p.noIn = 0
		p.assign()
		p.noIn = saved
		p.expect(":")
		p.assign()
	}
}

var binaryOps = map[string]bool{
	"??": true, "||": true, "&&": true, "|": true, "^": true, "&": true, "==": true, "!=": true,
	"===": true, "!==": true, "<": true, ">": true, "<=": true, ">=": true, "<<": true, ">>": true,
	">>>": true, "+": true, "-": true, "*": true, "/": true, "%": true, "**": true,
}

func (p *parser) binary() {
	p.unary()
	for {
		switch {
		case p.tok.kind == tPunct && binaryOps[p.text()]:
			if p.is("&&") || p.is("||") || p.is("??") {
				p.branch()
			}
			p.next()
			p.unary()
		case p.is("instanceof"), p.is("in") && p.noIn == 0:
			p.next()
			p.unary()
		case p.ts && (p.is("as") || p.is("satisfies")) && !p.tok.nl:
			p.next()
			if p.is("const") {
				p.next()
			} else {
				p.typ()
			}
		default:
			return
		}
	}
}

func (p *parser) unary() {
	p.enter()
	defer p.leave()
	switch {
	case p.tok.kind == tPunct && (p.is("!") || p.is("~") || p.is("+") || p.is("-") || p.is("++") || p.is("--")):
		p.next()
		p.unary()
		return
	case p.is("typeof") || p.is("void") || p.is("delete"):
		p.next()
		p.unary()
		return
	case p.is("await") && p.awaitOperator() && (p.ts || !p.tokIs(p.peek(), "(")):
		// tree-sitter-javascript mostly reads await (x) as a call of a
		// function named await.
		p.next()
		p.unary()
		return
	case p.ts && p.is("<"):
		// A type assertion <T>x (generic arrows are assign's).
		p.typeArgs()
		p.unary()
		return
	}
	p.postfixOnly()
	if (p.is("++") || p.is("--")) && !p.tok.nl {
		p.next()
	}
}

// awaitOperator reports whether the await at the current token applies
// to an operand (not await used as a name).
func (p *parser) awaitOperator() bool {
	t := p.peek()
	switch t.kind {
	case tName, tString, tNum, tTemplate, tTplHead, tPrivate:
		return true
	case tPunct:
		return p.tokIs(t, "(") || p.tokIs(t, "[") || p.tokIs(t, "{") || p.tokIs(t, "!") || p.tokIs(t, "-") ||
			p.tokIs(t, "+") || p.tokIs(t, "/") || p.tokIs(t, "<")
	}
	return false
}

// postfixOnly parses a primary expression and its member accesses,
// calls, subscripts and tagged templates.
func (p *parser) postfixOnly() {
	start := p.tok.start
	callee, fn := p.primary()
	p.chain(start, callee, fn, true)
}

// chain parses the accesses and (with calls) calls after a primary
// expression that started at start; callee is where a call's callee name
// would start, fn the identifier a require/import call is named by.
func (p *parser) chain(start, callee int, fn string, calls bool) {
	for {
		switch {
		case p.is(".") || p.is("?."):
			optional := p.is("?.")
			p.next()
			switch {
			case p.tok.kind == tName || p.tok.kind == tPrivate:
				callee = p.tok.start
				p.ref(p.tok)
				p.next()
			case p.is("(") && calls && optional:
				p.call(start, callee, "")
				callee = start
			case p.is("[") && optional:
				p.next()
				p.expression()
				p.expect("]")
				callee = start
			case p.is("<") && calls && optional:
				p.typeArgs()
			default:
				p.failHere("expected a property name")
			}
			fn = ""
		case p.is("["):
			p.next()
			p.expression()
			p.expect("]")
			callee, fn = start, ""
		case p.is("(") && calls:
			p.call(start, callee, fn)
			callee, fn = start, ""
		case p.tok.kind == tTemplate || p.tok.kind == tTplHead:
			p.template()
			p.called(start, callee)
			callee, fn = start, ""
		case p.ts && p.is("!") && !p.tok.nl:
			p.next()
			callee, fn = start, ""
		case p.ts && p.is("<") && p.typeArgsCallAhead():
			p.typeArgs()
			fn = ""
		default:
			return
		}
	}
}

// call parses ( arguments ) of a call whose callee name starts at
// callee; fn is "require" or "import" for those calls, whose literal
// first argument is an import.
func (p *parser) call(start, callee int, fn string) {
	defer p.called(start, callee)
	p.enter()
	defer p.leave()
	open := p.tok.end
	p.expect("(")
	if (fn == "require" || fn == "import") && p.tok.kind == tString && len(p.l.comments) == p.ncommentsBefore(open) &&
		(p.tokIs(p.peek(), ")") || p.tokIs(p.peek(), ",")) {
		path := strings.TrimSpace(unquote(string(p.src[p.tok.start:p.tok.end])))
		if path != "" {
			p.res.Imports = append(p.res.Imports, extract.Import{Path: path, Line: p.line(start)})
		}
	}
	for !p.is(")") {
		p.eat("...")
		p.assign()
		if !p.eat(",") {
			break
		}
	}
	p.expect(")")
}

// ncommentsBefore counts the comments lexed that start before off.
func (p *parser) ncommentsBefore(off int) int {
	n := len(p.l.comments)
	for n > 0 && p.l.comments[n-1].start >= off {
		n--
	}
	return n
}

// template parses a template literal's substitutions.
func (p *parser) template() {
	if p.tok.kind == tTemplate {
		p.next()
		return
	}
	p.enter()
	defer p.leave()
	for {
		p.next() // past the head or middle
		p.expression()
		if !p.is("}") {
			p.failHere("expected } in template")
		}
		p.tok = p.l.templateRest(p.tok)
		if p.tok.kind == tTplTail {
			p.next()
			return
		}
	}
}
