package cscan

import "github.com/parleyhq/parley/index/extract"

// specs is what a declaration's specifiers hold.
type specs struct {
	static  bool
	typ     bool  // a type was read
	sized   bool  // the type is unsigned/long... so far
	tag     uint8 // 's' struct or union, 'e' enum, 0 other
	defines bool  // a struct, union or enum body
	onlyID  bool  // the type is one identifier
}

// declaration parses one declaration, type definition or function
// definition at p.i.
func (p *parser) declaration(ctx int) {
	first, at := p.peek(), p.i
	if p.otherDeclaration(ctx, first) {
		return
	}
	sp := p.specifiers()
	if !sp.typ {
		fail("declaration without a type at %d", first.Start)
	}
	if t := p.peek(); p.is(t, ";") {
		p.i++
		return
	}
	if ctx == ctxField && p.is(p.peek(), ":") {
		p.i++ // an unnamed bit-field
		p.expr(";")
		p.expect(";")
		return
	}
	var syms []int32
	for n := 0; ; n++ {
		start := p.peek()
		if sp.onlyID && n == 0 && p.is(start, "(") && !p.is(p.at(1), "*") {
			fail("a macro call or a declarator in parentheses at %d", start.Start)
		}
		// A field's function pointer may be followed by macros too
		// (Tcl's stubs: `(*tcl_Panic) (const char *format, ...)
		// TCL_FORMAT_PRINTF(1, 2);`), an error to tree-sitter, which
		// ends the field before them (TestScanWhereTreeSitterIsWrong).
		p.declTop, p.funcOfFunc = ctx == ctxTop || ctx == ctxField, false
		name, isFunc := p.declarator(false)
		if name.Kind == 0 {
			fail("declarator without a name at %d", start.Start)
		}
		if p.funcOfFunc && ctx == ctxTop {
			p.noProduct(at, start)
		}
		if p.attributes() != 0 && p.is(p.peek(), "=") {
			fail("attribute before an initializer") // tree-sitter ends the declaration there
		}
		if n == 0 && isFunc && ctx == ctxTop && p.is(p.peek(), "{") {
			if sp.defines {
				fail("function returning a type it defines")
			}
			p.function(first, name, sp.static)
			return
		}
		kind := extract.KindVariable
		switch {
		case isFunc:
			kind = extract.KindFunction
		case ctx == ctxField:
			kind = extract.KindField
		}
		sym, _ := p.define(&def{kind: kind, node: start.Start, decl: first.Start, declLine: first.Line,
			name: name, static: sp.static, topOnly: true})
		syms = append(syms, sym)
		switch t := p.peek(); {
		case p.is(t, "=") && ctx == ctxTop:
			p.i++
			p.expr(",;")
		case p.is(t, ":") && ctx == ctxField:
			p.i++
			p.expr(",;")
		}
		p.attributes()
		p.trailingMacros(";")
		t := p.peek()
		p.i++
		if p.is(t, ";") {
			for _, s := range syms {
				p.end(s, false, t.End)
			}
			return
		}
		if !p.is(t, ",") {
			fail("unexpected %q after a declarator at %d", p.text(t), t.Start)
		}
	}
}

// otherDeclaration reads a type definition or, at the top or in a
// struct, a macro statement or field, if one starts at first, p.i.
func (p *parser) otherDeclaration(ctx int, first tok) bool {
	switch {
	case p.word(first) == wTypedef:
		p.typedef(first)
	case p.text(first) == "__extension__" && p.word(p.at(1)) == wTypedef:
		// glibc's `__extension__ typedef struct {...} lldiv_t;`:
		// tree-sitter's type_definition starts at __extension__.
		p.i++
		p.typedef(first)
	case ctx == ctxTop && p.word(first) == wIdent && p.macroType() == 0 && p.macroStatement(first):
	case ctx == ctxField && (p.fieldMacro(first) || p.fieldMacroType(first)):
	default:
		return false
	}
	return true
}

// noProduct declines a top-level declaration from token at whose
// declarator, starting at start, is a function's returning a function
// (W* VG_(copy)(W* w);) after a name and "*", before no body: also a
// product of a call's call, which tree-sitter prefers in some files'
// context.
func (p *parser) noProduct(at int, start tok) {
	if !p.is(p.peek(), "{") && p.word(p.toks[at]) == wIdent && p.is(p.toks[at+1], "*") {
		fail("function returning a function at %d", start.Start)
	}
}

// fieldMacro reads a name alone on its line in a struct (Python's
// PyObject_HEAD), fields, a directive or the "}" to come: tree-sitter
// reads it as the next field's type, the field's range and signature
// starting there (TestScanWhereTreeSitterIsWrong).
func (p *parser) fieldMacro(name tok) bool {
	next, after := p.at(1), p.at(2)
	if p.word(name) != wIdent || next.Line <= name.Line {
		return false
	}
	// A field must follow (a type, then a name or "*"): before "A;"
	// tree-sitter reads a field A of type name.
	if next.Kind != tDir && !p.is(next, "}") && (next.Kind != tIdent || after.Kind != tIdent && !p.is(after, "*")) {
		return false
	}
	p.ref(name, false)
	p.i++
	return true
}

// typedef parses a type definition at its typedef keyword, first its
// first token: its symbol is recorded before the type it names, and
// opens the scope the type's own symbols are in.
func (p *parser) typedef(first tok) {
	if p.primitiveTypedef(first) {
		return
	}
	mark, dry := p.i, p.dry
	p.dry = true
	p.i++
	sp := p.specifiers()
	name, _ := p.declarator(false)
	p.i, p.dry = mark+1, dry
	if name.Kind == 0 || !sp.typ || p.word(name) != wIdent {
		fail("typedef without a name at %d", first.Start)
	}
	kind := extract.KindClass
	switch sp.tag {
	case 's':
		kind = extract.KindStruct
	case 'e':
		kind = extract.KindEnum
	}
	sym, opened := p.define(&def{kind: kind, scope: scopeType, node: first.Start, decl: first.Start,
		declLine: first.Line, name: name})
	p.specifiers()
	for {
		if n, _ := p.declarator(false); n.Kind == 0 {
			fail("typedef declarator without a name")
		}
		p.attributes()
		p.trailingMacros(";")
		t := p.peek()
		p.i++
		if p.is(t, ";") {
			p.end(sym, opened, t.End)
			return
		}
		if !p.is(t, ",") {
			fail("unexpected %q in a typedef", p.text(t))
		}
	}
}

// primitiveTypedef reads a type definition naming a type tree-sitter-c
// has as a primitive (typedef __ssize_t ssize_t;, typedef unsigned long
// wchar_t;): a primitive_type declarator, which is no reference. The
// type before it must be names and keywords only.
func (p *parser) primitiveTypedef(first tok) bool {
	k := 1
	for ; k < 8 && !p.is(p.at(k), ";"); k++ {
		if w := p.word(p.at(k)); w != wIdent && w != wPrim && w != wSized && w != wQual {
			return false
		}
	}
	name := p.at(k - 1)
	if !p.is(p.at(k), ";") || k < 3 || p.word(name) != wPrim {
		return false
	}
	switch p.text(name) {
	case "int", "char", "float", "double", "void", "bool", "_Bool", "__int128":
		return false // typedef unsigned int;: a type, no name
	}
	sym, opened := p.define(&def{kind: extract.KindClass, scope: scopeType, node: first.Start, decl: first.Start,
		declLine: first.Line, name: name})
	for j := 1; j < k-1; j++ {
		if p.word(p.at(j)) == wIdent {
			p.ref(p.at(j), false)
		}
	}
	end := p.at(k).End
	p.i += k + 1
	p.end(sym, opened, end)
	return true
}

// specifiers reads storage classes, qualifiers, attributes and the type.
func (p *parser) specifiers() specs {
	var sp specs
	for {
		t := p.peek()
		switch p.word(t) {
		case wQual:
			p.i++
		case wStatic:
			sp.static = true
			p.i++
		case wPrim:
			if sp.typ && !sp.sized {
				fail("two types at %d", t.Start)
			}
			if sp.sized && p.is(p.at(1), "(") && !p.is(p.at(2), "*") {
				fail("a sized type before ( at %d", t.Start) // long int(A): tree-sitter names int
			}
			sp.typ, sp.sized, sp.onlyID = true, false, false
			p.i++
		case wSized:
			if sp.typ && !sp.sized {
				fail("a size after a type at %d", t.Start)
			}
			sp.typ, sp.sized = true, true
			p.i++
			if p.is(p.peek(), "(") && !p.is(p.at(1), "*") {
				fail("a size before ( at %d", t.Start) // unsigned long(A): tree-sitter names long
			}
		case wTag:
			if sp.typ {
				fail("two types at %d", t.Start)
			}
			sp.typ = true
			p.tagSpec(&sp)
		case wAttr:
			if sp.onlyID {
				fail("attribute after a type name at %d", t.Start)
			}
			p.attribute()
		case wIdent:
			if !p.specName(&sp, t) {
				return sp
			}
		case 255:
			return sp
		default:
			fail("%q in specifiers at %d", p.text(t), t.Start)
		}
	}
}

// specName reads the name t, at p.i, in specifiers: the type, a macro
// before or after it, or a macro type; false if it is no specifier
// (the declarator's).
func (p *parser) specName(sp *specs, t tok) bool {
	if next := p.at(1); sp.sized && next.Kind == tIdent && p.word(next) == wIdent {
		// unsigned SQLITE_INT64_TYPE x;: the size's type
		sp.sized = false
		p.ref(t, false)
		p.i++
		return true
	}
	if sp.typ && p.is(p.at(1), "*") && (p.macroAt(0) || p.at(2).Kind == tIdent || p.is(p.at(2), "*")) {
		// void __user *p, XColor _Xconst *x: a qualifier macro (a name
		// between a type and a declarator is no C), read by
		// tree-sitter into an error with the same records
		p.ref(t, false)
		p.i++
		return true
	}
	if sp.typ {
		return false
	}
	if n := p.macroType(); n > 0 {
		sp.typ = true
		p.ref(t, false)
		for k := 2; k < n; k++ {
			if p.word(p.at(k)) == wIdent {
				p.ref(p.at(k), false)
			}
		}
		p.i += n
		return true
	}
	if !p.specifierMacro() {
		sp.typ, sp.onlyID = true, true
	}
	p.ref(t, false)
	p.i++
	return true
}

// tagSpec parses a struct, union or enum specifier, with its body if it
// has one.
func (p *parser) tagSpec(sp *specs) {
	kw := p.peek()
	p.i++
	sp.tag = 's'
	kind := extract.KindStruct
	if p.text(kw) == "enum" {
		sp.tag, kind = 'e', extract.KindEnum
	}
	if p.word(p.peek()) == wAttr {
		if sp.tag == 'e' {
			fail("attribute after enum") // an error tree
		}
		p.attributes()
	}
	var name tok
	if t := p.peek(); t.Kind == tIdent {
		if p.word(t) != wIdent {
			fail("%q as a tag name", p.text(t))
		}
		name = t
		p.i++
	}
	if !p.is(p.peek(), "{") {
		if name.Kind == 0 {
			fail("tag without a name or body")
		}
		p.ref(name, false)
		return
	}
	sp.defines = true
	sym, opened := int32(-1), false
	if name.Kind != 0 {
		sym, opened = p.define(&def{kind: kind, scope: scopeType, node: kw.Start, decl: kw.Start,
			declLine: kw.Line, name: name})
		p.ref(name, false)
	}
	p.i++
	if sp.tag == 'e' {
		p.enumBody()
	} else {
		p.items(ctxField)
	}
	end := p.expect("}").End
	if sp.tag == 'e' && p.word(p.peek()) == wAttr {
		// tree-sitter reads the attribute into the enum or into the
		// declaration around it, as its parse goes (ch11.h's
		// hub_led_mode, a one-line copy of it).
		fail("attribute after an enum's body")
	}
	if e := p.attributes(); e != 0 {
		end = e
	}
	p.end(sym, opened, end)
}

// enumBody parses enumerators to the closing "}" (or, in a
// conditional's branch, to its #else, #elif or #endif). A #define there
// is recorded as anywhere else: tree-sitter-c reads a preproc_call
// instead, without the macro's symbol, and drops the next enumerator
// into an error (TestScanWhereTreeSitterIsWrong).
func (p *parser) enumBody() {
	comma := true // the last enumerator's comma was read
	for {
		t := p.peek()
		if p.is(t, "}") {
			return
		}
		if t.Kind == tDir {
			if t.Dir == "else" || t.Dir == "elif" || t.Dir == "endif" {
				return
			}
			p.directive(ctxEnum, nil)
			continue
		}
		if !comma && p.is(t, ",") {
			// RLIMIT_CPU = 0\n#define RLIMIT_CPU RLIMIT_CPU\n,
			p.i++
			comma = true
			continue
		}
		if t.Kind != tIdent || p.word(t) != wIdent || !comma {
			fail("unexpected %q in an enum", p.text(t))
		}
		sym, _ := p.define(&def{kind: extract.KindEnumMember, node: t.Start, decl: t.Start, declLine: t.Line, name: t})
		p.ref(t, false)
		p.i++
		end := t.End
		if p.is(p.peek(), "=") {
			p.i++
			// A value may end before a directive (glibc's `PRIO_USER
			// = 2\n#define PRIO_USER PRIO_USER\n};`).
			end = p.exprTo(",}", true)
		}
		p.end(sym, false, end)
		comma = p.is(p.peek(), ",")
		if comma {
			p.i++
		}
	}
}

// attributes reads __attribute__((...)) lists; it returns the end of
// the last, 0 for none.
func (p *parser) attributes() uint32 {
	var end uint32
	for p.word(p.peek()) == wAttr {
		end = p.attribute()
	}
	return end
}

func (p *parser) attribute() uint32 {
	p.i++
	if !p.is(p.peek(), "(") || !p.is(p.at(1), "(") {
		fail("attribute without ((")
	}
	p.i++
	for k, depth := 0, 0; depth >= 0; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir:
			fail("unclosed attribute")
		case t.Kind == tIdent && p.word(t) != wIdent:
			fail("keyword %q in an attribute", p.text(t)) // __attribute__((const)): an error tree
		case p.is(t, "("):
			depth++
		case p.is(t, ")"):
			depth--
		}
	}
	p.expr(")")
	return p.expect(")").End
}
