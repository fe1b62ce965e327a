package cscan

// declarator parses a declarator (abstract when a parameter's may have
// no name) and returns its name, if any, and whether a parameter list
// is on the way to it, as cName follows it.
func (p *parser) declarator(abstract bool) (name tok, isFunc bool) {
	top := p.declTop
	p.declTop = false
	for p.is(p.peek(), "*") {
		p.i++
		for {
			w := p.word(p.peek())
			if w == wIdent && p.macroAt(0) && p.is(p.at(1), "*") {
				p.ref(p.peek(), false) // char *CONST86 *f: a qualifier macro
			} else if w != wQual {
				break
			}
			p.i++
		}
		if p.word(p.peek()) == wAttr {
			fail("attribute after *")
		}
	}
	t := p.peek()
	if next := p.at(1); t.Kind == tIdent && p.word(t) == wIdent && p.macroAt(0) && next.Kind == tIdent && p.word(next) == wIdent {
		// void Z3_API f(void), int ZEXPORT f: a calling convention
		// macro; tree-sitter reads it as the declarator, an error
		// after it, and sometimes a variable of it
		// (TestScanWhereTreeSitterIsWrong).
		p.ref(t, false)
		p.i++
		t = next
	}
	switch {
	case top && p.isRedirect(t):
		return p.redirect(t), true
	case t.Kind == tIdent:
		if p.word(t) != wIdent {
			if abstract {
				return tok{}, false
			}
			fail("%q as a declarator at %d", p.text(t), t.Start)
		}
		name = t
		p.ref(t, false)
		p.i++
	case p.is(t, "(") && (!abstract || p.is(p.at(1), "*") || p.is(p.at(1), "(") || p.is(p.at(1), "[")):
		name, isFunc = p.parenDeclarator(abstract)
	}
	for k := 0; ; k++ {
		t := p.peek()
		switch {
		case k == 1 && isFunc && p.is(t, "(") && p.is(p.at(-1), ")") && name.Kind != 0 && !p.is(p.at(-2), "("):
			// VG_(name)(...), TRANS(Open)(...): a macro, which
			// tree-sitter reads as a function declarator of one
			// (named VG_), as the scanner does; declaration decides
			// whether it may also be an expression.
			p.funcOfFunc = true
			p.params()
			if top {
				p.macroAttributes()
			}
		case k == 0 && name.Kind != 0 && p.prototypeMacro():
			isFunc = true
			if top {
				p.macroAttributes()
			}
		case p.is(t, "["):
			p.i++
			p.expr("]")
			p.expect("]")
		case p.is(t, "("):
			p.params()
			isFunc = true
			if top {
				p.macroAttributes()
			}
		default:
			return name, isFunc
		}
	}
}

// parenDeclarator reads a declarator in parentheses at p.i.
func (p *parser) parenDeclarator(abstract bool) (name tok, isFunc bool) {
	p.i++
	if p.word(p.peek()) == wIdent && p.macroAt(0) && p.is(p.at(1), "*") {
		// void (XMLCALL *h)(int): a calling convention macro, an error
		// node holding the name to tree-sitter, whose records are the
		// same.
		p.ref(p.peek(), false)
		p.i++
	}
	name, isFunc = p.declarator(abstract)
	p.expect(")")
	return name, isFunc
}

// prototypeMacro reads zlib's K&R-compatible parameter list, `deflate
// OF((z_streamp strm, int flush))`, if one is at p.i: OF(args) expands
// to args (zconf.h), so the compiler reads a function declarator, whose
// parameters the scanner reads, OF a called reference. Tree-sitter
// reads a function named OF, or an error, after the type and
// declarator the name before it makes (TestScanWhereTreeSitterIsWrong).
func (p *parser) prototypeMacro() bool {
	if t := p.peek(); t.Kind != tIdent || p.text(t) != "OF" || !p.is(p.at(1), "(") || !p.is(p.at(2), "(") {
		return false
	}
	p.ref(p.peek(), true)
	p.i += 2
	p.params()
	p.expect(")")
	return true
}

// macroAttributes reads the macros tree-sitter-c's function_declarator
// takes after the parameters (glibc's `__THROW __wur __nonnull ((1))`):
// names, and calls whose arguments are preprocessor expressions; each
// name is a reference and a call's name is called. They must end the
// declarator (";" or "," next): a name there could also start the
// parameter declarations of an old-style definition.
//
// Tree-sitter reads them so only when the declarator is a pointer's
// (`char *f (void) __THROW;`); on a plain function declarator (`int f
// (void) __THROW;`) it builds an error node and drops the function's
// symbol, which the scanner records (TestScanBeatsTreeSitter).
func (p *parser) macroAttributes() {
	n, calls := 0, false
	for ; ; n++ {
		t := p.peek()
		if p.word(t) != wIdent {
			break
		}
		call := p.is(p.at(1), "(")
		calls = calls || call
		p.ref(t, call)
		p.i++
		if call {
			p.i++
			p.macroArgs()
		}
	}
	switch next := p.peek(); {
	case n == 0 || p.is(next, ";") || p.is(next, ","):
	case p.word(next) == wAttr && !calls:
	default:
		// After a call, an __attribute__ is an error in tree-sitter's
		// tree (the call read as a declarator's parameters).
		fail("macros after a function declarator before %q at %d", p.text(next), next.Start)
	}
}

// macroArgs reads a macro call's arguments after its "(" to the matching
// ")": preprocessor expressions, whose names are references (called
// before "("), keywords declined. Commas in inner parentheses
// (__nonnull ((1, 2)), __attr_access ((__read_only__, 1, 2))) make
// tree-sitter's tree an error after the call, whose records are the
// scanner's (TestScanMatchesTreeSitter's comma case).
func (p *parser) macroArgs() {
	for depth := 0; ; p.i++ {
		t := p.peek()
		switch {
		case t.Kind == 0 || t.Kind == tDir || t.Kind == tEOL:
			fail("unclosed macro call")
		case t.Kind == tIdent:
			if p.word(t) != wIdent {
				fail("%q in a macro's arguments at %d", p.text(t), t.Start)
			}
			p.ref(t, p.is(p.at(1), "("))
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			if depth == 0 {
				p.i++
				return
			}
			depth--
		case p.is(t, "["), p.is(t, "{"), p.is(t, "]"), p.is(t, "}"):
			fail("%q in a macro's arguments at %d", p.text(t), t.Start)
		}
	}
}

// params parses a parameter list.
func (p *parser) params() {
	p.expect("(")
	if p.is(p.peek(), ")") {
		p.i++
		return
	}
	for {
		if p.is(p.peek(), "...") {
			p.i++
		} else {
			sp := p.specifiers()
			if !sp.typ || sp.defines {
				fail("parameter without a type, or defining one at %d", p.peek().Start)
			}
			p.declarator(true)
			p.attributes()
			p.trailingMacros(")")
		}
		t := p.peek()
		p.i++
		if p.is(t, ")") {
			return
		}
		if !p.is(t, ",") {
			fail("unexpected %q in parameters at %d", p.text(t), t.Start)
		}
	}
}

// expr reads balanced tokens up to one of stops at depth 0 (not
// consumed); it returns the end of the last token read.
func (p *parser) expr(stops string) uint32 { return p.exprTo(stops, false) }

// exprTo is expr; with dirEnds, a directive at depth 0 ends the
// expression too.
func (p *parser) exprTo(stops string, dirEnds bool) uint32 {
	var end uint32
	depth := 0
	for {
		t := p.peek()
		switch t.Kind {
		case tDir:
			if dirEnds && depth == 0 && end != 0 {
				return end
			}
			fail("directive or end of file in an expression")
		case 0, tEOL:
			fail("directive or end of file in an expression")
		case tIdent:
			p.exprWord(t)
		case tPunct:
			c := p.src[t.Start]
			if depth == 0 && t.End-t.Start == 1 && containsByte(stops, c) {
				return end
			}
			switch c {
			case '(', '[', '{':
				if c == '(' {
					if prev := p.at(-1); p.is(prev, ")") || p.is(prev, "]") || p.is(prev, "++") || p.is(prev, "--") {
						fail("call of a call or subscript at %d", t.Start)
					}
				}
				depth++
			case ')', ']', '}':
				depth--
				if depth < 0 {
					fail("unbalanced %q at %d", c, t.Start)
				}
			}
			p.operator(t)
		}
		end = t.End
		p.i++
	}
}

// exprWord handles a word in an expression.
func (p *parser) exprWord(t tok) {
	switch p.word(t) {
	case wIdent:
		call := p.is(p.at(1), "(")
		if call && p.sizeofOperand() {
			fail("a call after sizeof ( or of a type at %d", t.Start)
		}
		p.ref(t, call)
	case wPrim, wSized, wQual, wExpr, wTag:
	default:
		fail("%q in an expression at %d", p.text(t), t.Start)
	}
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}

// sizeofOperand reports whether the name at p.i, before "(", comes
// right after "sizeof (" or before a type: a call there (sizeof
// (htobe16 (i)), A(char)) may be a macro type to tree-sitter, its name
// no callee.
func (p *parser) sizeofOperand() bool {
	if w := p.word(p.at(2)); w == wPrim || w == wSized || w == wTag || w == wQual {
		return true // A(char): a macro type or a declaration to tree-sitter, not a call
	}
	return p.is(p.at(-1), "(") && p.text(p.at(-2)) == "sizeof"
}
