package rustscan

import "github.com/parleyhq/parley/index/extract"

// fnItem reads a function_item or function_signature_item.
func (p *parser) fnItem(start int, pub bool) {
	for !p.isKw(kwFn) {
		switch {
		case p.isKw(kwConst) || p.isKw(kwAsync) || p.isKw(kwUnsafe) || p.isKw(kwDefault):
			p.i++
		case p.isKw(kwExtern):
			p.i++
			if p.at(tStr) {
				p.i++
			}
		default:
			p.failHere("function modifiers")
		}
	}
	p.i++
	d := p.newDef(start, extract.KindFunction, scopeNone, pub)
	d.name = p.name()
	if p.isP('<') {
		p.generics()
	}
	p.params(false)
	if p.eatOp("->") {
		p.typ()
	}
	p.whereClause()
	if p.eatP(';') {
		sym, _ := p.define(d)
		p.end(sym, false, p.prevEnd())
		return
	}
	d.scope = scopeFunc
	sym, opened := p.define(d)
	p.block()
	p.end(sym, opened, p.prevEnd())
}

// params reads a parameter list; closure lists use |...|.
func (p *parser) params(typesOnly bool) {
	p.expectP('(')
	for !p.eatP(')') {
		p.outerAttrs()
		switch {
		case p.isSelfParam():
			p.selfParam()
		case p.isOp("..."):
			p.i += 3
		case p.isKw(kwUnderscore) && (p.isPAt(1, ',') || p.isPAt(1, ')')):
			p.i++ // the '_' parameter
		case typesOnly || !p.hasColonBefore():
			p.typ()
		default:
			p.pattern()
			p.expectP(':')
			p.typ()
		}
		if !p.eatP(',') {
			p.expectP(')')
			return
		}
	}
}

func (p *parser) isSelfParam() bool {
	k := 0
	if p.isPAt(0, '&') {
		k++
		if p.peek(k).kind == tLifetime {
			k++
		}
	}
	if p.isKwAt(k, kwMut) {
		k++
	}
	return p.isKwAt(k, kwSelf) && !p.isPAt(k+1, ':') || p.isKwAt(k, kwSelf) && p.isPAt(k+1, ':') && !p.isPAt(k+2, ':')
}

func (p *parser) selfParam() {
	if p.eatP('&') {
		if p.at(tLifetime) {
			p.lifetime()
		}
	}
	p.eatKw(kwMut)
	p.expectKw(kwSelf)
	if p.isP(':') && !p.isOp("::") {
		p.i++
		p.typ()
	}
}

// hasColonBefore reports whether a lone ':' comes before the next ',' or
// closing bracket at this nesting level: a named parameter.
func (p *parser) hasColonBefore() bool {
	depth := 0
	for k := p.i; k < len(p.toks); k++ {
		t := &p.toks[k]
		switch p.byteAt(t) {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return false
			}
			depth--
		case ',':
			if depth == 0 {
				return false
			}
		case ':':
			if depth == 0 {
				next := &p.toks[k+1]
				if p.byteAt(next) == ':' && next.start == t.end {
					k++
					continue
				}
				return true
			}
		case 0:
			if t.kind == tEOF {
				return false
			}
		}
	}
	return false
}

func (p *parser) constItem(start int, pub bool, kind extract.SymbolKind) {
	p.i++
	p.eatKw(kwMut)
	d := p.newDef(start, kind, scopeNone, pub)
	if p.isKw(kwUnderscore) {
		d.name = *p.t()
		p.ref(d.name.start, d.name.end, d.name.line)
		p.i++
	} else {
		d.name = p.name()
	}
	sym, _ := p.define(d)
	p.expectP(':')
	p.typ()
	if p.eatP('=') {
		p.expr(0)
	}
	p.expectP(';')
	p.end(sym, false, p.prevEnd())
}

func (p *parser) typeItem(start int, pub bool) {
	p.i++
	// an associated type without "=" is not a symbol: scan for it.
	if !p.typeItemHasEq() {
		p.name()
		if p.isP('<') {
			p.generics()
		}
		if p.isP(':') {
			p.i++
			p.bounds()
		}
		p.whereClause()
		p.expectP(';')
		return
	}
	d := p.newDef(start, extract.KindClass, scopeNone, pub)
	d.name = p.name()
	sym, _ := p.define(d)
	if p.isP('<') {
		p.generics()
	}
	if p.isP(':') {
		fail("bounded type alias")
	}
	p.whereClause()
	p.expectP('=')
	p.typeBounds()
	p.whereClause()
	p.expectP(';')
	p.end(sym, false, p.prevEnd())
}

func (p *parser) typeItemHasEq() bool {
	depth := 0
	for k := p.i; k < len(p.toks); k++ {
		switch p.byteAt(&p.toks[k]) {
		case '-':
			if p.byteAt(&p.toks[k+1]) == '>' {
				k++ // ->
			}
		case '<', '(', '[', '{':
			depth++
		case '>', ')', ']', '}':
			depth--
		case '=':
			if depth == 0 {
				return true
			}
		case ';':
			if depth <= 0 {
				return false
			}
		}
		if p.toks[k].kind == tEOF {
			return false
		}
	}
	return false
}
