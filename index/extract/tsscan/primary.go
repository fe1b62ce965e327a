package tsscan

// Primary expressions, object and array literals, arrow functions.

// notRefs are the words that are expressions of their own, not
// identifiers.
var notRefs = map[string]bool{"this": true, "super": true, "null": true, "true": true, "false": true, "undefined": true}

// primary parses a primary expression and returns where a call of it
// would have its callee name, and "require" or "import" when it is that
// identifier.
func (p *parser) primary() (callee int, fn string, x int32) {
	p.enter()
	defer p.leave()
	t := p.tok
	callee = t.start
	switch t.kind {
	case tNum, tString, tRegex:
		p.next()
		if p.tok.kind == tPunct && assignOps[p.text()] {
			fail("assignment to a literal")
		}
		return
	case tTemplate, tTplHead:
		p.template()
		return
	case tPrivate:
		p.ref(t) // #x in obj
		p.next()
		if !p.is("in") {
			p.failHere("private name outside #x in")
		}
		return
	case tEOF:
		p.failHere("expected an expression")
	case tPunct:
		x = p.primaryPunct()
		return
	}
	w := p.text()
	switch w {
	case "function":
		x = p.function(noWrap, false)
		return
	case "async":
		if nt := p.peek(); p.tokIs(nt, "function") && !nt.nl {
			x = p.function(noWrap, false)
			return
		}
	case "class":
		p.class(noWrap, t.start, false)
		return
	case "new":
		if !p.peek().nl {
			c, x := p.newExpr()
			return c, "", x
		}
		// tree-sitter reads new before a line break as a name at the
		// end of a file without a final line break, else as new.
		p.failHere("new before a line break")
	case "import":
		p.next()
		if p.eat(".") {
			callee = p.tok.start
			p.metaProperty("meta")
			return callee, "", 0
		}
		return callee, "import", 0
	case "require":
		p.ref(t)
		p.next()
		return callee, "require", p.identExpr(t)
	case "this", "super":
		p.next()
		k := xThis
		if w == "super" {
			k = xSuper
		}
		return callee, "", p.r.expr(expr{kind: k, a: p.cls})
	}
	if notRefs[w] {
		p.next()
		return
	}
	if reserved[w] {
		p.failHere("unexpected keyword")
	}
	p.ref(t)
	p.next()
	return callee, "", p.identExpr(t)
}

// identExpr is the expression record of the identifier t.
func (p *parser) identExpr(t token) int32 {
	return p.r.expr(expr{kind: xIdent, off: int32(t.start), scope: p.sc, name: p.intern(p.src[t.start:t.end])})
}

func (p *parser) primaryPunct() int32 {
	switch {
	case p.is("("):
		p.next()
		from, to := p.prev, p.tok.start
		x := p.expression()
		p.expect(")")
		if p.commentIn(from, to) {
			x = 0 // the comment is the parenthesized expression's first named child
		}
		return p.r.expr(expr{kind: xWrap, a: x})
	case p.is("["):
		p.next()
		for !p.is("]") {
			if p.eat(",") {
				continue
			}
			p.eat("...")
			p.assign()
			if !p.eat(",") {
				break
			}
		}
		p.expect("]")
	case p.is("{"):
		return p.object()
	case p.is("/") || p.is("/="):
		p.tok = p.l.regex(p.tok)
		p.next()
		if p.tok.kind == tPunct && assignOps[p.text()] {
			fail("assignment to a literal")
		}
	case p.is("<"):
		p.failHere("JSX")
	case p.is("@"):
		p.failHere("decorated expression")
	default:
		p.failHere("expected an expression")
	}
	return 0
}

// newExpr parses new C(args), new C, new.target; it returns where a call
// of it would have its callee name (new.x(): x, as tree-sitter reads it).
func (p *parser) newExpr() (int, int32) {
	newStart := p.tok.start
	p.next()
	if p.eat(".") {
		name := p.tok.start
		p.metaProperty("target")
		return name, 0
	}
	start := p.tok.start
	if k := p.tok.kind; k == tNum || k == tString || k == tTemplate || k == tTplHead || p.is("await") {
		p.failHere("new of a literal") // tree-sitter reads new as a name then
	}
	var callee int
	var x int32
	if p.is("new") {
		_, x = p.newExpr()
		callee = start
	} else {
		callee, _, x = p.primary()
		callee, x = p.memberChain(start, callee, x)
	}
	if p.ts && p.is("<") {
		p.typeArgs()
	}
	if p.is("(") {
		p.expect("(")
		p.args(x, true)
	}
	p.called(newStart, callee)
	return newStart, p.r.expr(expr{kind: xNew, a: x})
}

// memberChain parses member accesses without calls (new's constructor).
func (p *parser) memberChain(start, callee int, x int32) (int, int32) {
	for {
		switch {
		case p.is("."):
			p.next()
			callee = p.tok.start
			if p.tok.kind != tName && p.tok.kind != tPrivate {
				p.failHere("expected a property name")
			}
			x = p.property(x)
			p.next()
		case p.is("["):
			p.next()
			p.expression()
			p.expect("]")
			callee, x = start, 0
		default:
			return callee, x
		}
	}
}

// object parses an object literal (or pattern: the references are the
// same).
// It returns an xObject expression whose shorthand names (nested objects'
// included) an assignment turns into bindings (assignPattern).
func (p *parser) object() int32 {
	p.enter()
	defer p.leave()
	cont := p.cont
	p.cont = p.newCont()
	var short []int32 // ref indexes
	p.expect("{")
	for !p.is("}") {
		switch {
		case p.eat("..."):
			p.assign()
		case p.objectMethodAhead():
			p.member(-1)
		default:
			key := p.tok
			nref := len(p.r.refs)
			p.propertyName()
			switch {
			case p.eat(":"):
				if len(p.r.refs) > nref && key.kind == tName {
					p.r.refs[nref] = refCtx{} // pair's key: a property_identifier
				}
				if v := p.assign(); v > 0 && p.r.exprs[v].kind == xObject {
					short = append(short, p.r.shorts[p.r.exprs[v].a]...)
				}
			case key.kind != tName:
				p.failHere("expected : in object")
			default:
				if len(p.r.refs) > nref {
					short = append(short, int32(nref))
				}
				if p.eat("=") {
					p.assign()
				}
			}
		}
		if !p.eat(",") {
			break
		}
	}
	p.expect("}")
	p.cont = cont
	p.r.shorts = append(p.r.shorts, short)
	return p.r.expr(expr{kind: xObject, a: int32(len(p.r.shorts) - 1)})
}

// assignPattern makes the shorthand names of the object literal x, the
// left of an assignment, bindings: tree-sitter reads the object as an
// object_pattern, and the describer takes a
// shorthand_property_identifier_pattern for a declared name.
func (p *parser) assignPattern(x int32) {
	if x <= 0 || p.r.exprs[x].kind != xObject {
		return
	}
	for _, i := range p.r.shorts[p.r.exprs[x].a] {
		r := p.res.Refs[i]
		p.r.refs[i].binding = true
		off := int(p.offOf(r.Pos))
		p.bind(token{start: off, end: off + len(r.Name)}, bOther)
	}
}

// objectMethodAhead reports whether the object member at the current
// token is a method: a name (after get, set, async or *) followed by '('.
func (p *parser) objectMethodAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	for i := 0; i < 3; i++ {
		if p.is("*") {
			p.next()
			continue
		}
		if !(p.is("get") || p.is("set") || p.is("async")) {
			break
		}
		t := p.peek()
		if !modifierFollows(p, t) || p.tokIs(t, "{") {
			break
		}
		p.next()
	}
	if p.is("[") {
		return p.methodAfterName()
	}
	if p.tok.kind != tName && p.tok.kind != tString && p.tok.kind != tNum && p.tok.kind != tPrivate {
		return false
	}
	return p.methodAfterName()
}

// metaProperty reads the name after new. or import.: meta_property's
// word, or (new.x) a name tree-sitter reads as a reference.
func (p *parser) metaProperty(word string) {
	if p.tok.kind != tName {
		p.failHere("expected a name")
	}
	if !p.is(word) {
		// new.x and import.x: names to tree-sitter, whose descriptors
		// read them in ways no rule here follows.
		p.failHere("meta property other than " + word)
	}
	p.next()
}
