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
		p.semi()
		return
	}
	if p.ts && p.is("type") {
		if t := p.peek(); t.kind == tName && !p.tokIs(t, "from") || p.tokIs(t, "{") || p.tokIs(t, "*") {
			p.next()
		}
	}
	if p.isName() && !p.is("from") || p.isName() && p.tokIs(p.peek(), "from") {
		p.ref(p.tok)
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
		p.ref(p.tok)
		p.next()
	case p.is("{"):
		p.specifiers(false)
	default:
		if !clause {
			p.failHere("import without a clause")
		}
	}
	p.expect("from")
	if p.tok.kind != tString {
		p.failHere("expected a module string")
	}
	p.addImport(p.tok, start)
	p.next()
	p.attributes()
	p.semi()
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
	p.ref(p.tok)
	p.next()
	for p.eat(".") {
		p.ref(p.tok)
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
func (p *parser) specifiers(export bool) []string {
	p.expect("{")
	var names []string
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
		if name.kind == tName && (p.ts || !p.is("default")) {
			// default is a name in TypeScript's specifiers, a keyword in
			// JavaScript's.
			p.ref(name)
			if export {
				names = append(names, string(p.src[name.start:name.end]))
			}
		} else if export {
			names = append(names, string(p.src[name.start:name.end]))
		}
		p.next()
		if p.eat("as") {
			if p.tok.kind == tName && (p.ts || !p.is("default")) {
				p.ref(p.tok)
			}
			p.next()
		}
		if !p.eat(",") {
			break
		}
	}
	p.expect("}")
	return names
}

func (p *parser) exportStatement() { p.exportFrom(p.tok.start) }

// exportFrom parses an export statement from its export keyword; start
// is the statement's start (its decorators').
func (p *parser) exportFrom(start int) {
	w := wrap{start: start, export: true, firstTok: p.tok.start}
	p.next()
	switch {
	case p.is("default"):
		p.next()
		switch {
		case p.is("function") || p.is("async") && p.tokIs(p.peek(), "function"):
			p.function(w, p.functionNamedAhead())
		case p.is("class") || p.is("abstract") && p.tokIs(p.peek(), "class"):
			p.class(w, p.tok.start, true)
		case p.ts && p.is("interface"):
			p.tsStatement(w)
		default:
			p.assign()
			p.semi()
		}
	case p.is("*"):
		p.next()
		if p.eat("as") {
			if p.tok.kind == tName {
				p.ref(p.tok)
			}
			p.next()
		}
		p.exportSource(start)
	case p.is("{") || p.ts && p.is("type") && p.tokIs(p.peek(), "{"):
		p.eat("type")
		names := p.specifiers(true)
		if p.is("from") {
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
		p.statement(w)
	}
}

func (p *parser) exportSource(start int) {
	p.expect("from")
	if p.tok.kind != tString {
		p.failHere("expected a module string")
	}
	p.addImport(p.tok, start)
	p.next()
	p.attributes()
	p.semi()
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
