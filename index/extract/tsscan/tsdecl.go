package tsscan

import "github.com/parleyhq/parley/index/extract"

// TypeScript's declarations: interfaces, type aliases, enums,
// namespaces and ambient (declare) statements.

// tsStatement parses a TypeScript declaration at the current word; false
// when the word starts an expression instead.
func (p *parser) tsStatement(w wrap) bool {
	t := p.peek()
	named := (t.kind == tName || t.kind == tString) && !t.nl
	switch p.text() {
	case "interface":
		if !named {
			return false
		}
		p.interfaceDecl(w)
	case "type":
		if !named || t.kind != tName {
			return false
		}
		p.typeAlias(w)
	case "enum":
		if !named {
			return false
		}
		p.enumDecl(w, p.tok.start)
	case "const":
		p.enumDecl(w, p.tok.start)
	case "namespace", "module":
		if !named || p.is("namespace") && t.kind == tString {
			return false
		}
		p.namespace(w)
	case "abstract":
		if !p.tokIs(t, "class") || t.nl {
			return false
		}
		p.class(w, p.tok.start, true)
	case "declare":
		if !named {
			return false
		}
		p.declare()
	case "global":
		if !p.tokIs(t, "{") {
			return false
		}
		p.next()
		p.block()
	default:
		return false
	}
	return true
}

func (p *parser) interfaceDecl(w wrap) {
	start := p.tok.start
	p.next()
	name := p.tok
	id, opened := p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
		exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindInterface, scope: scopeType})
	obj := p.newObj(name.start)
	p.r.objs[obj].name = string(p.src[name.start:name.end])
	p.r.classes = append(p.r.classes, obj)
	p.declName(name)
	p.bindType(name, bOther)
	p.next()
	defer p.enterThis(-1, obj)()
	if p.is("<") {
		p.typeParams()
	}
	if p.eat("extends") {
		for {
			p.r.objs[obj].supers = append(p.r.objs[obj].supers, heritage{typ: p.typ()})
			if !p.eat(",") {
				break
			}
		}
	}
	p.objectType(obj)
	if opened {
		p.closeScope()
	}
	p.endDef(id, p.prev)
}

func (p *parser) typeAlias(w wrap) {
	start := p.tok.start
	p.next()
	name := p.tok
	id, _ := p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
		exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindClass})
	p.declName(name)
	b := p.bindType(name, bTypeAlias)
	p.next()
	if p.is("<") {
		p.typeParams()
	}
	p.expect("=")
	t := p.typ()
	p.r.binds[b].typ = t
	p.semi()
	p.endDef(id, p.prev)
}

func (p *parser) enumDecl(w wrap, start int) {
	p.eat("const")
	p.expect("enum")
	name := p.tok
	id, opened := p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
		exported: w.export, nameStart: name.start, nameEnd: name.end, kind: extract.KindEnum, scope: scopeType})
	p.declName(name)
	p.refBind(name, bOther)
	p.next()
	p.expect("{")
	for !p.is("}") {
		m := p.tok
		if m.kind != tName && m.kind != tString && m.kind != tNum {
			p.failHere("expected an enum member")
		}
		hasValue := p.tokIs(p.peek(), "=")
		if m.kind == tName || hasValue {
			mid, _ := p.define(defSite{node: m.start, decl: m.start, sig: m.start, wrapper: -1, nameStart: m.start,
				nameEnd: m.end, kind: extract.KindEnumMember})
			if m.kind == tName {
				p.refAs(m, refCtx{}) // property_identifier
			}
			p.next()
			if p.eat("=") {
				p.assign()
			}
			p.endDef(mid, p.prev)
		} else {
			p.next()
		}
		if !p.eat(",") {
			break
		}
	}
	p.expect("}")
	if opened {
		p.closeScope()
	}
	p.endDef(id, p.prev)
}

// namespace parses namespace A.B { … } and module "x" { … }.
func (p *parser) namespace(w wrap) {
	start := p.tok.start
	p.next()
	name := p.tok
	nameEnd := name.end
	if name.kind == tString {
		p.next()
	} else {
		nref := len(p.r.refs)
		p.ref(name)
		p.next()
		for p.is(".") {
			p.next()
			p.refAs(p.tok, refCtx{}) // nested_identifier's property
			nameEnd = p.tok.end
			p.next()
		}
		if nameEnd == name.end && len(p.r.refs) > nref {
			p.r.refs[nref].binding = true
		}
	}
	p.declName(token{start: name.start, end: nameEnd})
	p.bind(token{start: name.start, end: nameEnd}, bOther)
	if !p.is("{") {
		// declare module "x"; has no body and makes no scope.
		id, _ := p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
			exported: w.export, nameStart: name.start, nameEnd: nameEnd, kind: extract.KindNamespace})
		p.endDef(id, nameEnd)
		p.semi()
		return
	}
	id, opened := p.define(defSite{node: start, decl: start, sig: start, wrapper: w.start, wrapSig: w.firstTok,
		exported: w.export, nameStart: name.start, nameEnd: nameEnd, kind: extract.KindNamespace, scope: scopeNS})
	p.block()
	if opened {
		p.closeScope()
	}
	p.endDef(id, p.prev)
}

// declare parses an ambient declaration.
func (p *parser) declare() {
	w := wrap{start: p.tok.start, firstTok: p.tok.start}
	p.expTop = false
	defer p.inCont(p.newCont())()
	p.next()
	switch {
	case p.is("global"):
		p.next()
		p.block()
	case p.is("function") || p.is("async"):
		p.function(w, true)
	case !exportable[p.text()] || p.is("@") || p.is("import"):
		// tree-sitter-typescript then builds a tree with stray tokens
		// and no error.
		p.failHere("declare before no declaration")
	default:
		p.statement(w)
	}
}
