package rustscan

// tnode is a type as far as impl names need it: its extent and the node
// rustImpl steps into (generic_type's type, scoped_type_identifier's
// name, reference_type's and pointer_type's type).
type tnode struct {
	start, end uint32
	inner      *tnode
}

// generics reads type_parameters: <'a: 'b, T: Bound = D, const N: usize>.
func (p *parser) generics() {
	p.expectP('<')
	for !p.eatP('>') {
		p.outerAttrs()
		switch {
		case p.at(tLifetime):
			p.lifetime()
			if p.eatP(':') {
				p.bounds()
			}
		case p.eatKw(kwConst):
			p.name()
			p.expectP(':')
			p.typ()
			if p.eatP('=') {
				p.constDefault()
			}
		default:
			p.name()
			if p.isP(':') && !p.isOp("::") {
				p.i++
				p.bounds()
			}
			if p.eatP('=') {
				p.typ()
			}
		}
		if !p.eatP(',') {
			p.expectP('>')
			return
		}
	}
}

// bounds reads trait_bounds after the colon: A + ?Sized + 'a + for<'b> F.
func (p *parser) bounds() int {
	for n := 1; ; n++ {
		switch {
		case p.at(tLifetime):
			p.lifetime()
		case p.isP('?') || p.isP('~'):
			if p.isP('~') {
				fail("~const bound")
			}
			p.i++
			p.typePath()
		case p.isP('('):
			p.i++
			p.bounds()
			p.expectP(')')
		case p.isKw(kwFor):
			p.forLifetimes()
			p.typePath()
		case p.isKw(kwUse) || p.isKw(kwAsync) || p.isKw(kwConst):
			fail("use, async or const bound")
		case p.isP('{') || p.isP(',') || p.isP(';') || p.isP('>') || p.isP('=') || p.isP(')'):
			return n - 1 // empty bound list
		default:
			p.typePath()
		}
		if !p.eatP('+') {
			return n
		}
	}
}

func (p *parser) forLifetimes() {
	p.expectKw(kwFor)
	p.expectP('<')
	for !p.eatP('>') {
		p.lifetime()
		if !p.eatP(',') {
			p.expectP('>')
			return
		}
	}
}

// whereClause reads an optional where clause.
func (p *parser) whereClause() {
	if !p.eatKw(kwWhere) {
		return
	}
	for !p.isP('{') && !p.isP(';') && !p.isP('=') && !p.at(tEOF) {
		if p.at(tLifetime) {
			p.lifetime()
			p.expectP(':')
			p.bounds()
		} else {
			if p.isKw(kwFor) {
				p.forLifetimes()
			}
			p.typ()
			p.expectP(':')
			p.bounds()
		}
		if !p.eatP(',') {
			return
		}
	}
}

// typ reads a type.
func (p *parser) typ() *tnode {
	p.enter()
	defer p.leave()
	t := p.t()
	start := t.start
	underRef := p.underRef
	p.underRef = false
	switch {
	case p.isP('&'):
		p.i++
		if p.at(tLifetime) {
			p.lifetime()
		}
		p.eatKw(kwMut)
		p.underRef = true
		in := p.typ()
		return &tnode{start: start, end: p.prevEnd(), inner: in}
	case p.isP('*'):
		p.i++
		if !p.eatKw(kwConst) && !p.eatKw(kwMut) {
			p.failHere("pointer without const or mut")
		}
		p.underRef = true
		in := p.typ()
		return &tnode{start: start, end: p.prevEnd(), inner: in}
	case p.isP('('):
		p.i++
		for !p.eatP(')') {
			p.typeBounds()
			if !p.eatP(',') {
				p.expectP(')')
				break
			}
		}
	case p.isP('['):
		p.i++
		p.typ()
		if p.eatP(';') {
			p.expr(0)
		}
		p.expectP(']')
	case p.isP('!'):
		p.i++
	case p.isKw(kwUnderscore):
		p.ref(t.start, t.end, t.line) // tree-sitter types the _ type as an identifier
		p.i++
	case p.isKw(kwDyn) && p.dynStart(), p.isKw(kwImpl):
		p.i++
		if p.bounds() > 1 && underRef {
			// &dyn A + B: tree-sitter bounds the reference, rustc
			// rejects it.
			fail("bounds after a reference's dyn or impl")
		}
	case p.isKw(kwFn) || p.isKw(kwUnsafe) || p.isKw(kwExtern):
		p.fnPointer()
	case p.isKw(kwFor):
		p.forLifetimes()
		if p.isKw(kwFn) || p.isKw(kwUnsafe) || p.isKw(kwExtern) {
			p.fnPointer()
		} else {
			p.typePath()
		}
	case t.kind == tLifetime:
		p.failHere("lifetime as a type")
	default:
		return p.typePath()
	}
	return &tnode{start: start, end: p.prevEnd()}
}

// dynStart tells dyn Trait from a type named dyn (2015 edition).
func (p *parser) dynStart() bool {
	n := p.peek(1)
	return n.kind == tIdent || n.kind == tLifetime || p.isPAt(1, '?') || p.isPAt(1, '(')
}

func (p *parser) fnPointer() {
	p.eatKw(kwUnsafe)
	if p.eatKw(kwExtern) && p.at(tStr) {
		p.i++
	}
	p.expectKw(kwFn)
	p.params(false)
	if p.eatOp("->") {
		p.typ()
	}
}

// typePath reads a path type: a::B<T>, <T as Tr>::X, Fn(A) -> B, m!(..),
// a primitive type.
func (p *parser) typePath() *tnode {
	refs := len(p.res.Refs)
	start := p.t().start
	t := p.t()
	if t.kind == tIdent && t.kw == kwPrim && !p.isOp2At(1, "::") {
		p.i++
		return &tnode{start: start, end: p.prevEnd()}
	}
	var last *tnode
	scoped := true
	if p.isP('<') {
		p.qualified()
		p.expectOp("::")
	} else {
		scoped = p.eatOp("::")
	}
	for first := !scoped; ; first = false {
		seg := p.t()
		switch {
		case seg.kind == tIdent && (seg.kw == kwSelf || seg.kw == kwSuper || seg.kw == kwCrate):
			if !first {
				p.pathKeyword()
				break
			}
			p.i++
		case p.isOp("$crate"):
			p.i += 2
		case seg.kind == tIdent && seg.kw == kwPrim:
			p.ref(seg.start, seg.end, seg.line)
			p.i++
		default:
			p.name()
		}
		name := &tnode{start: seg.start, end: p.prevEnd()}
		if last != nil || scoped {
			name = &tnode{start: start, end: p.prevEnd(), inner: name}
		}
		last = name
		if p.isP('!') && !p.isOp("!=") {
			p.call(refs, start, seg.start)
			p.i++
			p.tokenTree()
			return &tnode{start: start, end: p.prevEnd()}
		}
		if p.isOp("::<") {
			p.i += 2
		}
		if p.isP('<') && !p.isOp("<=") && !p.isOp("<-") {
			p.typeArgs()
			last = &tnode{start: start, end: p.prevEnd(), inner: last}
		} else if p.isP('(') {
			p.params(true)
			if p.eatOp("->") {
				p.typ()
			}
			return &tnode{start: start, end: p.prevEnd()}
		}
		if !p.isOp("::") || p.isOp("::{") || p.isOp("::*") {
			return last
		}
		p.i += 2
	}
}

func (p *parser) isOp2At(k int, op string) bool {
	a, b := p.peek(k), p.peek(k+1)
	return p.byteAt(a) == op[0] && p.byteAt(b) == op[1] && b.start == a.end
}

// qualified reads <T as Trait> or <T>.
func (p *parser) qualified() {
	p.expectP('<')
	p.typ()
	if p.eatKw(kwAs) {
		p.typ()
	}
	p.expectP('>')
}

// typeArgs reads <T, 'a, N = U, {expr}, 3>.
func (p *parser) typeArgs() {
	p.expectP('<')
	for !p.eatP('>') {
		p.genericArg()
		if !p.eatP(',') {
			p.expectP('>')
			return
		}
	}
}

func (p *parser) genericArg() {
	switch {
	case p.at(tLifetime):
		p.lifetime()
	case p.isP('{'):
		p.block()
	case p.at(tNum) || p.at(tStr) || p.at(tChar) || p.isP('-') || p.isKw(kwTrue) || p.isKw(kwFalse):
		p.eatP('-')
		p.i++
	case p.isName() && (p.isPAt(1, '=') && !p.isOp2At(1, "==") || p.isPAt(1, ':') && !p.isOp2At(1, "::")):
		p.name()
		if p.eatP('=') {
			p.typ()
		} else {
			p.i++
			p.bounds()
		}
	default:
		p.typeBounds()
	}
}

// typeBounds reads a type that may be a bare trait object with more
// bounds: Fn() + Send + 'a (bounded_type).
func (p *parser) typeBounds() {
	p.typ()
	for p.isP('+') {
		p.i++
		if p.at(tLifetime) {
			p.lifetime()
		} else {
			p.typePath()
		}
	}
}

// constDefault reads a const parameter's default: a block, a literal or
// a name (an identifier even when it spells a primitive type).
func (p *parser) constDefault() {
	t := p.t()
	switch {
	case p.isP('{'):
		p.block()
	case t.kind == tNum || t.kind == tStr || t.kind == tChar || p.isKw(kwTrue) || p.isKw(kwFalse):
		p.i++
	case p.isP('-') && p.peek(1).kind == tNum:
		p.i += 2
	case t.kind == tIdent && !strict(t.kw):
		p.ref(t.start, t.end, t.line)
		p.i++
	default:
		p.failHere("const parameter default")
	}
}
