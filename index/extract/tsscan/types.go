package tsscan

import (
	"sort"
)

// TypeScript types: only their references and the symbols of object
// types' members (property_signature, method_signature) matter.

// predefined are predefined_type's words and the literal types, which are
// not references.
var predefined = map[string]bool{
	"any": true, "number": true, "boolean": true, "string": true, "symbol": true, "void": true,
	"unknown": true, "never": true, "object": true, "undefined": true, "null": true,
	"true": true, "false": true, "this": true,
}

// typ parses a type and returns its record (tree.go): tyOtherID for the
// types no rule reads.
func (p *parser) typ() int32 {
	p.enter()
	defer p.leave()
	t := p.union()
	if p.is("extends") && !p.tok.nl {
		p.next()
		p.union()
		p.expect("?")
		p.typ()
		p.expect(":")
		p.typ()
		return tyOtherID
	}
	return t
}

// union parses A | B & C: unions of intersections, left-nested as
// tree-sitter's union_type.
func (p *parser) union() int32 {
	if p.is("|") || p.is("&") {
		p.next()
	}
	t := p.intersection()
	for p.is("|") {
		p.next()
		t = p.r.typ(typeRec{kind: tyUnion, a: t, b: p.intersection()})
	}
	return t
}

func (p *parser) intersection() int32 {
	t := p.typeOperand()
	for p.is("&") {
		p.next()
		p.typeOperand()
		t = tyOtherID
	}
	return t
}

func (p *parser) typeOperand() int32 {
	p.enter()
	defer p.leave()
	switch {
	case p.is("keyof") || p.is("unique") || p.is("readonly"):
		if t := p.peek(); t.kind == tName || p.tokIs(t, "(") || p.tokIs(t, "[") || p.tokIs(t, "{") {
			ro := p.is("readonly")
			p.next()
			if t := p.typeOperand(); ro {
				return t // readonly_type: unwrapped
			}
			return tyOtherID
		}
	case p.is("infer"):
		p.next()
		p.ref(p.tok)
		p.next()
		if p.is("extends") && p.constraintAhead() {
			p.next()
			p.typeOperand()
		}
		return tyOtherID
	case p.is("new") || p.is("abstract"):
		p.eat("abstract")
		p.expect("new")
		if p.is("<") {
			p.typeParams()
		}
		p.params(p.newFn(fnOther))
		p.expect("=>")
		p.returnType()
		return tyOtherID
	case p.is("<"), p.is("(") && p.functionTypeAhead():
		fn := p.newFn(fnType)
		if p.is("<") {
			p.typeParams()
		}
		p.params(fn)
		p.expect("=>")
		p.r.fns[fn].ret = p.returnType()
		return p.r.typ(typeRec{kind: tyFunc, a: fn})
	}
	t := p.typePrimary()
	for p.is("[") && !p.tok.nl {
		p.next()
		if !p.is("]") {
			p.typ()
		}
		p.expect("]")
		t = tyOtherID
	}
	return t
}

// constraintAhead reports whether the extends after infer X is a
// constraint (infer X extends C), not a conditional type's: no ? follows
// the type after it.
func (p *parser) constraintAhead() bool {
	snap := p.snapshot()
	defer p.restore(snap)
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*errFallback); !ok {
				panic(r)
			}
		}
	}()
	p.next()
	p.typeOperand()
	return !p.is("?")
}

// snapshot is the parser's state, for a trial parse that restore undoes.
type snapshot struct {
	lex                                     lexState
	tok                                     token
	prev, refs, syms, calls, imports, todos int
	ncomment, depth                         int
	doc                                     docBlock
	rl                                      [8]int
}

func (p *parser) snapshot() snapshot {
	r := p.r
	return snapshot{p.l.save(), p.tok, p.prev, len(p.res.Refs), len(p.res.Symbols), len(p.calls),
		len(p.res.Imports), len(p.res.Todos), p.ncomment, p.depth, p.doc,
		[8]int{len(r.refs), len(r.binds), len(r.exprs), len(r.types), len(r.objs), len(r.fns), len(r.scopes), len(r.sigs)}}
}

func (p *parser) restore(s snapshot) {
	p.l.restore(s.lex)
	p.tok, p.prev = s.tok, s.prev
	p.res.Refs, p.res.Symbols, p.calls = p.res.Refs[:s.refs], p.res.Symbols[:s.syms], p.calls[:s.calls]
	p.res.Imports, p.res.Todos = p.res.Imports[:s.imports], p.res.Todos[:s.todos]
	p.ncomment, p.depth, p.doc = s.ncomment, s.depth, s.doc
	r := p.r
	r.refs, r.binds, r.exprs, r.types = r.refs[:s.rl[0]], r.binds[:s.rl[1]], r.exprs[:s.rl[2]], r.types[:s.rl[3]]
	r.objs, r.fns, r.scopes, r.sigs = r.objs[:s.rl[4]], r.fns[:s.rl[5]], r.scopes[:s.rl[6]], r.sigs[:s.rl[7]]
}

func (p *parser) functionTypeAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	p.skipGroup()
	return p.is("=>")
}

func (p *parser) typePrimary() int32 {
	t := p.tok
	switch t.kind {
	case tString, tNum:
		p.next()
		return tyLiteralID
	case tTemplate, tTplHead:
		p.templateType()
		return tyOtherID
	case tName:
		w := p.text()
		if w == "typeof" {
			p.next()
			if p.is("import") {
				fail("import type") // tree-sitter reads it with errors
			}
			x := p.identExpr(p.tok)
			p.ref(p.tok)
			p.next()
			for p.eat(".") {
				x = p.property(x)
				p.next()
			}
			if p.is("<") && !p.tok.nl {
				p.typeArgs()
			}
			return tyOtherID
		}
		if w == "import" {
			fail("import type") // tree-sitter reads it with errors
		}
		ty := p.typeName(t, w)
		if p.is("<") {
			p.typeArgs()
			ty = p.r.typ(typeRec{kind: tyGeneric, a: ty})
		}
		return ty
	}
	switch {
	case p.is("-"):
		p.next()
		p.next()
		return tyLiteralID
	case p.is("{"):
		return p.objectType(-1)
	case p.is("["):
		p.tuple()
	case p.is("("):
		p.next()
		ty := p.annotated(p.typ) // parenthesized_type: its first named child
		p.expect(")")
		return ty
	default:
		p.failHere("expected a type")
	}
	return tyOtherID
}

// typeName reads a type's name: a predefined or literal word, a
// type_identifier, or a nested_type_identifier A.B (whose module, past
// two names, is a nested_identifier no value is read of).
func (p *parser) typeName(t token, w string) int32 {
	if predefined[w] {
		p.next()
		switch w {
		case "undefined", "null", "true", "false":
			return tyLiteralID
		}
		return tyOtherID
	}
	p.ref(t)
	p.next()
	if !p.is(".") {
		return p.r.typ(typeRec{kind: tyName, off: int32(t.start), scope: p.sc, name: w})
	}
	mod := p.identExpr(t)
	for i := 1; p.eat("."); i++ {
		nt := p.tok
		if !p.tokIs(p.peek(), ".") {
			if i > 1 {
				mod = 0 // a nested_identifier: no value is read of it
			}
			p.refAs(nt, refCtx{kind: rNested, obj: mod})
			p.next()
			return p.r.typ(typeRec{kind: tyNested, a: mod, name: string(p.src[nt.start:nt.end])})
		}
		if p.afterNextIsDot() {
			mod = p.property(mod) // a member_expression in the nested_identifier
		} else {
			p.refAs(nt, refCtx{}) // the nested_identifier's property
		}
		p.next()
	}
	return tyOtherID
}

func (p *parser) templateType() {
	if p.tok.kind == tTemplate {
		p.next()
		return
	}
	for {
		p.next()
		p.typ()
		if !p.is("}") {
			p.failHere("expected } in template type")
		}
		p.tok = p.l.templateRest(p.tok)
		if p.tok.kind == tTplTail {
			p.next()
			return
		}
	}
}

// labelAhead reports whether name ? : (an optional tuple member's label)
// is at the current token.
func (p *parser) labelAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	p.next()
	p.next()
	return p.is(":")
}

func (p *parser) tuple() {
	p.expect("[")
	for !p.is("]") {
		p.eat("...")
		if p.isName() {
			if t := p.peek(); p.tokIs(t, ":") || p.tokIs(t, "?") && p.labelAhead() {
				p.ref(p.tok)
				p.next()
				p.eat("?")
				p.expect(":")
			}
		}
		p.typ()
		p.eat("?")
		if !p.eat(",") {
			break
		}
	}
	p.expect("]")
}

// returnType parses a return type, type predicates included.
func (p *parser) returnType() int32 {
	if p.is("asserts") {
		if t := p.peek(); t.kind == tName && !t.nl {
			p.next()
			if !p.is("this") {
				p.ref(p.tok)
			}
			p.next()
			if p.eat("is") {
				p.typ()
			}
			return tyOtherID
		}
	}
	if p.isName() {
		if t := p.peek(); p.tokIs(t, "is") && !t.nl {
			if !p.is("this") {
				p.ref(p.tok)
			}
			p.next()
			p.next()
			p.typ()
			return tyOtherID
		}
	}
	return p.typ()
}

// typeParams parses < T extends C = D, … >.
func (p *parser) typeParams() {
	p.expect("<")
	for !p.closeAngle() {
		for (p.is("const") || p.is("in") || p.is("out")) && p.peek().kind == tName {
			p.next()
		}
		p.ref(p.tok)
		p.next()
		if p.eat("extends") {
			p.typ()
		}
		if p.eat("=") {
			p.typ()
		}
		if !p.eat(",") {
			if !p.closeAngle() {
				p.failHere("expected >")
			}
			break
		}
	}
	p.eatAngle()
}

// typeArgs parses < T, … >.
func (p *parser) typeArgs() {
	p.expect("<")
	for !p.closeAngle() {
		p.typ()
		if !p.eat(",") {
			break
		}
	}
	if !p.closeAngle() {
		p.failHere("expected >")
	}
	p.eatAngle()
}

// closeAngle reports whether the current token starts with '>'.
func (p *parser) closeAngle() bool {
	return p.tok.kind == tPunct && p.l.src[p.tok.start] == '>'
}

// eatAngle consumes one '>' of the current token (>> closes two lists).
func (p *parser) eatAngle() {
	if p.tok.end-p.tok.start == 1 {
		p.next()
		return
	}
	p.prev = p.tok.start + 1
	p.tok.start++
	p.tok.nl = false
}

// typeArgsCallAhead reports whether the '<' at the current token opens
// type arguments of a call, f<T>(x) or f<T>`…`. Where the arguments read
// as an expression too, tree-sitter's ambiguity resolution prefers the
// comparisons f < T > (x) when the arguments hold a comma at the top or
// the parenthesized group is followed by an access or call: so does the
// scanner.
func (p *parser) typeArgsCallAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	depth := 0
	exprLike, comma := true, false
	for p.tok.kind != tEOF {
		switch {
		case p.is("<"):
			depth++
			if depth > 1 {
				exprLike = false
			}
		case p.closeAngle():
			depth -= p.tok.end - p.tok.start
			if p.is(">=") || p.is(">>=") {
				return false
			}
		case p.is("["):
			if p.tokIs(p.peek(), "]") {
				exprLike = false
			}
			p.skipGroup()
			continue
		case p.is("(") || p.is("{"):
			exprLike = false
			p.skipGroup()
			continue
		case p.is(";") || p.is(")") || p.is("]") || p.is("}") || p.is("&&") || p.is("||") || p.is("=") || p.is("!") ||
			p.is("+") || p.is("-") || p.is("*") || p.is("/") || p.tok.kind == tNum && depth == 0:
			return false
		case p.is(","):
			comma = comma || depth == 1
		case p.is(".") || p.is("|") || p.is("&"):
		case p.isName():
			if reserved[p.text()] || p.is("keyof") || p.is("typeof") || p.is("infer") {
				exprLike = false
			}
		default:
			exprLike = false
		}
		p.advance()
		if depth <= 0 {
			break
		}
	}
	if depth > 0 {
		return false
	}
	if p.tok.kind == tTemplate || p.tok.kind == tTplHead {
		return true
	}
	if !p.is("(") {
		return false
	}
	if exprLike && comma {
		return false
	}
	p.skipGroup()
	return !exprLike || !(p.is(".") || p.is("?.") || p.is("(") || p.is("["))
}

// annotation parses the type of an annotation (after its ':').
func (p *parser) annotation() int32 { return p.annotated(p.typ) }

// annotated parses a type with parse, the first named child of the node
// the token just read opens (a type annotation, a parenthesized type):
// when a comment comes first, that comment is the child tree-sitter's
// describer reads, and the type is unknown to it.
func (p *parser) annotated(parse func() int32) int32 {
	from, to := p.prev, p.tok.start
	t := parse()
	if p.commentIn(from, to) {
		return tyOtherID
	}
	return t
}

// commentIn reports whether a comment starts in [from, to).
func (p *parser) commentIn(from, to int) bool {
	cs := p.l.comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].start >= from })
	return i < len(cs) && cs[i].start < to
}

// afterNextIsDot reports whether the token after the next one is a '.':
// the current name is followed by two more.
func (p *parser) afterNextIsDot() bool {
	st := p.l.save()
	defer p.l.restore(st)
	if t := p.l.next(); !p.tokIs(t, ".") {
		return false
	}
	p.l.next()
	return p.tokIs(p.l.next(), ".")
}
