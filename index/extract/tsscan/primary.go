package tsscan

// Primary expressions, object and array literals, arrow functions.

// notRefs are the words that are expressions of their own, not
// identifiers.
var notRefs = map[string]bool{"this": true, "super": true, "null": true, "true": true, "false": true, "undefined": true}

// primary parses a primary expression and returns where a call of it
// would have its callee name, and "require" or "import" when it is that
// identifier.
func (p *parser) primary() (callee int, fn string) {
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
		p.primaryPunct()
		return
	}
	w := p.text()
	switch w {
	case "function":
		p.function(noWrap, false)
		return
	case "async":
		if nt := p.peek(); p.tokIs(nt, "function") && !nt.nl {
			p.function(noWrap, false)
			return
		}
	case "class":
		p.class(noWrap, t.start, false)
		return
	case "new":
		if !p.peek().nl {
			return p.newExpr(), ""
		}
		// tree-sitter reads new before a line break as a name at the
		// end of a file without a final line break, else as new.
		p.failHere("new before a line break")
	case "import":
		p.next()
		if p.eat(".") {
			callee = p.tok.start
			p.metaProperty("meta")
			return callee, ""
		}
		return callee, "import"
	case "require":
		p.ref(t)
		p.next()
		return callee, "require"
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
	return
}

func (p *parser) primaryPunct() {
	switch {
	case p.is("("):
		p.next()
		p.expression()
		p.expect(")")
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
		p.object()
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
}

// newExpr parses new C(args), new C, new.target; it returns where a call
// of it would have its callee name (new.x(): x, as tree-sitter reads it).
func (p *parser) newExpr() int {
	newStart := p.tok.start
	p.next()
	if p.eat(".") {
		name := p.tok.start
		p.metaProperty("target")
		return name
	}
	start := p.tok.start
	if k := p.tok.kind; k == tNum || k == tString || k == tTemplate || k == tTplHead || p.is("await") {
		p.failHere("new of a literal") // tree-sitter reads new as a name then
	}
	var callee int
	if p.is("new") {
		p.newExpr()
		callee = start
	} else {
		callee, _ = p.primary()
		callee = p.memberChain(start, callee)
	}
	if p.ts && p.is("<") {
		p.typeArgs()
	}
	if p.is("(") {
		p.expect("(")
		for !p.is(")") {
			p.eat("...")
			p.assign()
			if !p.eat(",") {
				break
			}
		}
		p.expect(")")
	}
	p.called(newStart, callee)
	return newStart
}

// memberChain parses member accesses without calls (new's constructor).
func (p *parser) memberChain(start, callee int) int {
	for {
		switch {
		case p.is("."):
			p.next()
			callee = p.tok.start
			if p.tok.kind != tName && p.tok.kind != tPrivate {
				p.failHere("expected a property name")
			}
			p.ref(p.tok)
			p.next()
		case p.is("["):
			p.next()
			p.expression()
			p.expect("]")
			callee = start
		default:
			return callee
		}
	}
}

// object parses an object literal (or pattern: the references are the
// same).
func (p *parser) object() {
	p.enter()
	defer p.leave()
	p.expect("{")
	for !p.is("}") {
		switch {
		case p.eat("..."):
			p.assign()
		case p.objectMethodAhead():
			p.member(true)
		default:
			key := p.tok
			p.propertyName()
			switch {
			case p.eat(":"):
				p.assign()
			case key.kind != tName:
				p.failHere("expected : in object")
			case p.eat("="):
				p.assign()
			}
		}
		if !p.eat(",") {
			break
		}
	}
	p.expect("}")
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
		p.ref(p.tok)
	}
	p.next()
}
