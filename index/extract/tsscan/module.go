package tsscan

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// Imports, exports and TypeScript's declarations.

// addImport records the module string token t for the statement that
// starts at start (jsImport).
func (p *parser) addImport(t token, start int) {
	path := strings.TrimSpace(unquote(string(p.src[t.start:t.end])))
	if path != "" {
		p.res.Imports = append(p.res.Imports, extract.Import{Path: path, Line: p.line(start)})
	}
}

// importStatement parses import … from "x", import "x" and TypeScript's
// import x = require("x") and import x = A.B.
func (p *parser) importStatement() {
	start := p.tok.start
	p.next()
	if p.tok.kind == tString {
		p.addImport(p.tok, start)
		p.next()
		p.attributes()
		p.moduleEnd()
		return
	}
	if p.ts && p.is("type") {
		if t := p.peek(); t.kind == tName && !p.tokIs(t, "from") || p.tokIs(t, "{") || p.tokIs(t, "*") {
			p.next()
		}
	}
	var binds []int32
	var specs []int32
	if p.isName() && !p.is("from") || p.isName() && p.tokIs(p.peek(), "from") {
		name := p.tok
		if t := p.peek(); p.ts && p.tokIs(t, "=") {
			p.ref(name) // import_require_clause: no binding
		} else {
			binds = append(binds, p.refBind(name, bDefault))
		}
		p.next()
		if p.ts && p.eat("=") {
			p.importRequire(start)
			return
		}
		if p.eat(",") && !p.is("*") && !p.is("{") {
			p.failHere("expected * or { after ,")
		}
	}
	clause := p.prev > start+len("import")
	switch {
	case p.eat("*"):
		p.expect("as")
		binds = append(binds, p.refBind(p.tok, bNamespace))
		p.next()
	case p.is("{"):
		_, specs, binds = p.specifiers(false, binds)
	default:
		if !clause {
			p.failHere("import without a clause")
		}
	}
	p.expect("from")
	if p.tok.kind != tString {
		p.failHere("expected a module string")
	}
	mod := p.moduleHead(p.tok)
	for _, b := range binds {
		p.r.binds[b].mod = mod
	}
	for _, s := range specs {
		p.r.specs[s].mod = mod
	}
	p.addImport(p.tok, start)
	p.next()
	p.attributes()
	p.moduleEnd()
}

// moduleHead is the module head of the string token t (tsStringValue).
func (p *parser) moduleHead(t token) string {
	return moduleHead(strings.Trim(string(p.src[t.start:t.end]), "'\"`"))
}

// importRequire parses the rest of import x = require("m") or
// import x = A.B.
func (p *parser) importRequire(start int) {
	if p.is("require") && p.tokIs(p.peek(), "(") {
		p.next()
		p.next()
		if p.tok.kind != tString {
			p.failHere("expected a module string")
		}
		p.addImport(p.tok, start)
		p.next()
		p.expect(")")
		p.semi()
		return
	}
	if p.tok.kind != tName {
		// tree-sitter-typescript's tree then has a stray import token
		// and no error.
		p.failHere("import = of no name")
	}
	x := p.identExpr(p.tok)
	p.ref(p.tok)
	p.next()
	for p.eat(".") {
		if p.tokIs(p.peek(), ".") {
			x = p.property(x) // a member_expression of the nested_identifier's object
		} else {
			p.refAs(p.tok, refCtx{}) // the nested_identifier's property
		}
		p.next()
	}
	p.semi()
}

// attributes skips with { type: "json" } (or assert { … }).
func (p *parser) attributes() {
	if (p.is("with") || p.is("assert")) && !p.tok.nl && p.tokIs(p.peek(), "{") {
		p.next()
		p.object()
	}
}

// specifiers parses { a, b as c, type d }; export adds local names to
// the exports markExports flags, when no from clause follows (the caller
// drops them otherwise).
// It returns the specifiers' records too (their module is the caller's
// to fill in) and, for an import, appends each one's binding to binds.
func (p *parser) specifiers(export bool, binds []int32) ([]string, []int32, []int32) {
	p.expect("{")
	var names []string
	var specs []int32
	for !p.is("}") {
		if p.ts && p.is("type") {
			if t := p.peek(); t.kind == tName || t.kind == tString {
				p.next()
			}
		}
		name := p.tok
		if name.kind != tName && name.kind != tString {
			p.failHere("expected a specifier")
		}
		p.r.specs = append(p.r.specs, specRec{name: string(p.src[name.start:name.end]), nameAt: int32(name.start),
			export: export, scope: p.sc})
		sp := int32(len(p.r.specs) - 1)
		specs = append(specs, sp)
		local := name
		if name.kind == tName && (p.ts || !p.is("default")) {
			// default is a name in TypeScript's specifiers, a keyword in
			// JavaScript's.
			p.refAs(name, refCtx{kind: rSpec, fn: sp})
			if export {
				names = append(names, string(p.src[name.start:name.end]))
			}
		} else if export {
			names = append(names, string(p.src[name.start:name.end]))
		}
		p.next()
		if p.eat("as") {
			local = p.tok
			if p.tok.kind == tName && (p.ts || !p.is("default")) {
				p.refAs(p.tok, refCtx{kind: rSpec, fn: sp})
			}
			p.next()
		}
		p.alias = append(p.alias, string(p.src[local.start:local.end]))
		if !export {
			b := p.bind(local, bImportSpec)
			p.r.binds[b].spec = p.r.specs[sp].name
			binds = append(binds, b)
		}
		if !p.eat(",") {
			break
		}
	}
	p.expect("}")
	return names, specs, binds
}

func (p *parser) exportStatement() { p.exportFrom(p.tok.start) }

// exportFrom parses an export statement from its export keyword; start
// is the statement's start (its decorators').
func (p *parser) exportFrom(start int) {
	w := wrap{start: start, export: true, firstTok: p.tok.start}
	p.next()
	e := p.exportRec()
	defer p.exportDone(e)()
	switch {
	case p.is("default"):
		p.exportDefault(w, e)
	case p.is("*"):
		p.next()
		e.kind = exStar
		if p.eat("as") {
			if p.tok.kind == tName {
				p.ref(p.tok)
			}
			p.next()
			e.kind = exNone
		}
		e.mod = p.moduleHead(p.peek())
		p.exportSource(start)
	case p.is("{") || p.ts && p.is("type") && p.tokIs(p.peek(), "{"):
		p.eat("type")
		e.kind = exClause
		p.alias = p.alias[:0]
		names, specs, _ := p.specifiers(true, nil)
		e.specs, e.alias = specs, append([]string(nil), p.alias...)
		if p.is("from") {
			mod := p.moduleHead(p.peek())
			for _, s := range specs {
				p.r.specs[s].mod = mod
			}
			p.exportSource(start)
			return
		}
		p.exports = append(p.exports, names...)
		p.semi()
	case p.ts && p.is("="):
		p.next()
		p.expression()
		p.semi()
	case p.ts && p.is("as"):
		p.next()
		p.expect("namespace")
		p.ref(p.tok)
		p.next()
		p.semi()
	case p.ts && p.is("import"):
		p.next()
		p.ref(p.tok)
		p.next()
		p.expect("=")
		p.importRequire(start)
	default:
		if !exportable[p.text()] || (p.is("function") || p.is("async")) && !p.functionNamedAhead() {
			p.failHere("export of no declaration")
		}
		e.kind = exDecl
		p.expTop = true
		p.statement(w)
	}
}

// exportable are the words a declaration after export starts with.
var exportable = map[string]bool{
	"var": true, "let": true, "const": true, "function": true, "async": true, "class": true, "abstract": true,
	"interface": true, "type": true, "enum": true, "namespace": true, "module": true, "declare": true, "@": true,
	"import": true, "global": true,
}

func (p *parser) exportSource(start int) {
	p.expect("from")
	if p.tok.kind != tString {
		p.failHere("expected a module string")
	}
	p.addImport(p.tok, start)
	p.next()
	p.attributes()
	p.moduleEnd()
}

// functionNamedAhead reports whether the function at the current token
// has a name (export default function f is a declaration).
func (p *parser) functionNamedAhead() bool {
	st, tok, prev := p.l.save(), p.tok, p.prev
	defer func() { p.l.restore(st); p.tok, p.prev = tok, prev }()
	p.eat("async")
	p.next()
	p.eat("*")
	return p.isName()
}

// exportDefault parses export default's declaration or value, into e.
func (p *parser) exportDefault(w wrap, e *exportRec) {
	p.next()
	e.kind, e.name = exDecl, "default"
	switch {
	case p.is("function") || p.is("async") && p.tokIs(p.peek(), "function"):
		if named := p.functionNamedAhead(); named {
			p.expTop = true
			p.function(w, named)
		} else {
			e.kind, e.val = exValue, p.function(w, named)
		}
	case p.is("class") || p.is("abstract") && p.tokIs(p.peek(), "class"):
		p.expTop = true
		p.class(w, p.tok.start, true)
	case p.ts && p.is("interface"):
		p.expTop = true
		p.tsStatement(w)
	default:
		e.kind = exValue
		e.val = p.assign()
		p.semi()
	}
	if e.kind == exDecl && e.nameOff < 0 {
		e.kind, e.val = exValue, 0 // an anonymous class: its value is unknown
	}
}

// moduleEnd ends an import or export statement after its module string:
// an operator on the next line would continue the string as an
// expression, which tree-sitter reads without an error but with stray
// tokens.
func (p *parser) moduleEnd() {
	if p.tok.kind == tPunct && !p.is(";") && !p.is("}") {
		p.failHere("operator after a module string")
	}
	p.semi()
}
