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

// expression returns its value's record (tree.go), 0 for a sequence.
func (p *parser) expression() int32 {
	x := p.assign()
	for p.eat(",") {
		p.assign()
		x = 0
	}
	return x
}

var assignOps = map[string]bool{
	"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "**=": true, "<<=": true,
	">>=": true, ">>>=": true, "&=": true, "|=": true, "^=": true, "&&=": true, "||=": true, "??=": true,
}

// assign parses an assignment expression: an arrow function, a yield, or
// a conditional expression with an optional assignment.
func (p *parser) assign() int32 {
	p.enter()
	defer p.leave()
	if p.arrowAhead() {
		return p.arrow()
	}
	if p.is("yield") {
		p.next()
		p.eat("*")
		if !p.tok.nl && p.startsExpr() {
			p.assign()
		}
		return 0
	}
	x := p.conditional()
	if p.tok.kind == tPunct && assignOps[p.text()] {
		if p.is("=") {
			p.thisAssignment(x)
			p.assignPattern(x)
		}
		p.next()
		p.assign()
		return 0
	}
	return x
}

// thisAssignment records this.NAME = … for the function or class that
// collects them (tsEachThisAssignment).
func (p *parser) thisAssignment(x int32) {
	e := &p.r.exprs[x]
	if x <= 0 || e.kind != xMember || p.r.exprs[e.a].kind != xThis || p.thisTo < 0 || p.src[e.off] == '#' {
		return
	}
	m := member{name: e.name, off: e.off}
	if p.thisCls {
		p.r.objs[p.thisTo].this = append(p.r.objs[p.thisTo].this, m)
	} else {
		p.r.fns[p.thisTo].this = append(p.r.fns[p.thisTo].this, m)
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

func (p *parser) conditional() int32 {
	x := p.binary()
	if p.is("?") {
		p.branch()
		p.next()
		saved := p.noIn
		p.noIn = 0
		p.assign()
		p.noIn = saved
		p.expect(":")
		p.assign()
		return 0
	}
	return x
}

var binaryOps = map[string]bool{
	"??": true, "||": true, "&&": true, "|": true, "^": true, "&": true, "==": true, "!=": true,
	"===": true, "!==": true, "<": true, ">": true, "<=": true, ">=": true, "<<": true, ">>": true,
	">>>": true, "+": true, "-": true, "*": true, "/": true, "%": true, "**": true,
}

// binaryOpNames are binaryOps' own strings, which the chain keeps
// without allocating one per operator.
var binaryOpNames = func() map[string]string {
	m := map[string]string{}
	for op := range binaryOps {
		m[op] = op
	}
	return m
}()

func (p *parser) binary() int32 {
	saved := p.holeOK
	defer func() { p.holeOK = saved }()
	p.holeOK = false
	x0 := p.unary()
	if !p.binaryOpAhead() {
		return x0 // most operands stand alone: no chain to build
	}
	var b binChain
	b.start(x0)
	for {
		switch {
		case p.tok.kind == tPunct && binaryOps[p.text()]:
			if p.is("&&") || p.is("||") || p.is("??") {
				p.branch()
			}
			op := binaryOpNames[string(p.l.src[p.tok.start:p.tok.end])]
			p.next()
			p.holeOK = p.ts
			x := p.unary()
			p.holeOK = false
			if p.hole > 0 {
				// a - b!.c is (a - b)!.c to tree-sitter: the non-null
				// expression takes the operators read so far.
				b.add(op, p.holeInner)
				p.r.exprs[p.hole].a = b.build(p.r)
				b.start(x)
				p.hole = 0
				continue
			}
			b.add(op, x)
		case p.is("instanceof"), p.is("in") && p.noIn == 0:
			p.next()
			b.add("in", p.unary())
		case p.ts && (p.is("as") || p.is("satisfies")) && !p.tok.nl:
			p.next()
			var t int32
			if p.is("const") {
				p.next()
			} else {
				t = p.typ()
			}
			b.add("as", t)
		default:
			if p.tok.kind == tPunct && assignOps[p.text()] {
				// a % b = c: tree-sitter reads a % (b = c), no error
				// (f<T>(x).y = z is such, read as comparisons).
				if last := b.xs[len(b.xs)-1]; p.is("=") {
					p.thisAssignment(last)
					p.assignPattern(last)
				}
				p.next()
				p.assign()
				return 0
			}
			return b.build(p.r)
		}
	}
}

func (p *parser) unary() int32 {
	p.enter()
	defer p.leave()
	switch {
	case p.tok.kind == tPunct && (p.is("!") || p.is("~") || p.is("+") || p.is("-") || p.is("++") || p.is("--")),
		p.is("typeof") || p.is("void") || p.is("delete"):
		p.next()
		return p.prefixOperand()
	case p.is("await") && p.awaitOperator() && (p.ts || !p.tokIs(p.peek(), "(")):
		// tree-sitter-javascript mostly reads await (x) as a call of a
		// function named await.
		p.next()
		return p.r.expr(expr{kind: xWrap, a: p.unary()})
	case p.ts && p.is("<"):
		// A type assertion <T>x (generic arrows are assign's).
		p.typeArgs()
		p.unary()
		return 0
	}
	x := p.postfixOnly()
	if (p.is("++") || p.is("--")) && !p.tok.nl {
		p.next()
		return 0
	}
	return x
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
func (p *parser) postfixOnly() int32 {
	start := p.tok.start
	callee, fn, x := p.primary()
	return p.chain(start, callee, fn, x, true)
}

// chain parses the accesses and (with calls) calls after a primary
// expression that started at start; callee is where a call's callee name
// would start, fn the identifier a require/import call is named by.
func (p *parser) chain(start, callee int, fn string, x int32, calls bool) int32 {
	for {
		switch {
		case p.is(".") || p.is("?."):
			optional := p.is("?.")
			p.next()
			switch {
			case p.tok.kind == tName || p.tok.kind == tPrivate:
				callee = p.tok.start
				x = p.property(x)
				p.next()
			case p.is("(") && calls && optional:
				p.call(start, callee, "", x, false)
				callee = start
				x = p.r.expr(expr{kind: xCall, a: x})
			case p.is("[") && optional:
				p.next()
				p.expression()
				p.expect("]")
				callee, x = start, 0
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
			callee, fn, x = start, "", 0
		case p.is("(") && calls:
			p.call(start, callee, fn, x, false)
			callee, fn = start, ""
			x = p.r.expr(expr{kind: xCall, a: x})
		case p.tok.kind == tTemplate || p.tok.kind == tTplHead:
			p.template()
			p.called(start, callee)
			callee, fn = start, ""
			x = p.r.expr(expr{kind: xCall, a: x})
		case p.ts && p.is("!") && !p.tok.nl:
			p.next()
			callee, fn = start, ""
			inner := x
			x = p.r.expr(expr{kind: xWrap, a: x})
			if p.holeOK {
				p.hole, p.holeInner, p.holeOK = x, inner, false
			}
		case p.ts && p.is("<") && p.typeArgsCallAhead():
			p.typeArgs()
			fn = ""
		default:
			return x
		}
	}
}

// property reads the property name of x.name (the current token) and
// returns the member expression.
func (p *parser) property(x int32) int32 {
	t := p.tok
	c := refCtx{kind: rMember, obj: x}
	if !p.ts && p.thisFn >= 0 && x > 0 && p.r.exprs[x].kind == xThis {
		c.kind, c.fn = rThis, p.thisFn
	}
	p.refAs(t, c)
	return p.r.expr(expr{kind: xMember, a: x, off: int32(t.start), name: p.intern(p.src[t.start:t.end])})
}

// call parses ( arguments ) of a call whose callee name starts at
// callee; fn is "require" or "import" for those calls, whose literal
// first argument is an import.
func (p *parser) call(start, callee int, fn string, x int32, isNew bool) {
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
	p.args(x, isNew)
}

// args parses arguments to their ')': a function literal passed is
// recorded with its callee (x) and index, for contextual types.
func (p *parser) args(x int32, isNew bool) {
	for i := int32(0); !p.is(")"); i++ {
		spread := p.eat("...")
		if a := p.assign(); !spread && a > 0 && p.r.exprs[a].kind == xFunc {
			f := &p.r.fns[p.r.exprs[a].a]
			f.callee, f.isNew, f.arg = x, isNew, i
		}
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

// binaryOpAhead reports whether the current token continues a binary
// expression (binary's cases).
func (p *parser) binaryOpAhead() bool {
	return p.tok.kind == tPunct && binaryOps[p.text()] || p.is("instanceof") || p.is("in") && p.noIn == 0 ||
		p.ts && (p.is("as") || p.is("satisfies")) && !p.tok.nl
}

// prefixOperand parses the operand of a prefix operator, whose value is
// unknown: +a!.b is (+a)!.b to tree-sitter, so a non-null ! in the
// operand takes the operator (binary's hole).
func (p *parser) prefixOperand() int32 {
	saved := p.holeOK
	p.holeOK = p.ts
	x := p.unary()
	p.holeOK = saved
	if p.hole > 0 {
		p.r.exprs[p.hole].a = 0
		p.hole = 0
		return x
	}
	return 0
}
