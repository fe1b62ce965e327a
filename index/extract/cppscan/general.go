package cppscan

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// specs is what a declaration's specifiers held.
type specs struct {
	start    tok  // the declaration's first token
	static   bool // a "static" specifier
	typed    bool // a type was read
	named    bool // by a name, a tag or decltype
	prim     bool // a primitive type was read
	body     bool // a class or enum body was read
	tag      tagKind
	ctorName tok  // a name read as a type that may be a constructor's
	macro    bool // the type read is a macro's name alone (BOOST_ASIO_DECL)
}

type tagKind uint8

const (
	tagNone tagKind = iota
	tagStruct
	tagEnum
)

// general parses a declaration or definition with specifiers and
// declarators: functions, methods, constructors, fields, variables.
func (p *parser) general(ctx int, w tmpl) {
	s := specs{start: p.peek()}
	first := p.i
	p.specifiers(&s, ctx, w)
	if ctx != ctxClass && !w.ok && p.isName(s.start) && p.closesTwice(first) {
		// A<B<C>> a; with nothing but names before: tree-sitter may
		// read the comparisons A < B<C> > a (or a shift) instead.
		fail("nested template arguments closing together at %d", s.start.Start)
	}
	if p.is(p.peek(), ";") {
		if s.tag == tagNone {
			fail("a declaration without a declarator at %d", s.start.Start)
		}
		p.i++
		return
	}
	if w.ok && s.body {
		// The class is then no template_declaration's child: its
		// signature and doc would not start at "template".
		fail("a template class with declarators at %d", s.start.Start)
	}
	for {
		done := p.declarator(ctx, w, &s)
		if done {
			return
		}
	}
}

// specifiers reads a declaration's specifiers and type, stopping at its
// first declarator.
func (p *parser) specifiers(s *specs, ctx int, w tmpl) {
	for {
		t := p.peek()
		switch p.word(t) {
		case wSpec:
			// auto is a type to tree-sitter (placeholder_type_specifier):
			// auto f() -> T declares f.
			if p.text(t) == "auto" {
				s.typed = true
			}
			p.i++
		case wStatic:
			s.static = true
			p.i++
		case wPrim, wSized:
			p.macroSpec(s)
			if s.typed && (s.named || p.word(t) == wPrim && s.prim) {
				fail("two types at %d", t.Start)
			}
			s.typed, s.prim = true, s.prim || p.word(t) == wPrim
			p.i++
		case wTypename:
			p.i++
		case wTag, wEnum:
			p.macroSpec(s)
			if s.typed {
				fail("two types at %d", t.Start)
			}
			s.typed, s.named, s.tag = true, true, tagStruct
			s.body = p.tagSpecifier(ctx, w)
		case wDecltype:
			if s.typed {
				fail("two types at %d", t.Start)
			}
			s.typed, s.named = true, true
			p.argWord(t)
		case wIdent:
			if s.typed {
				return
			}
			if p.macroType() {
				s.typed, s.named = true, true
				continue
			}
			if p.is(p.at(1), "(") {
				// A constructor (in a class) or a declarator with no
				// type: the caller decides.
				return
			}
			if p.qualifiedCtor() {
				return
			}
			s.typed, s.named = true, true
			s.macro = isMacroName(p.text(t)) && !p.is(p.at(1), "<") && !p.is(p.at(1), "::")
			p.typeName()
		default:
			if p.is(t, "::") && !s.typed && p.isName(p.at(1)) && !p.is(p.at(2), "(") && !p.globalPrim() {
				// ::boost::x: a qualified_identifier without a scope,
				// whose names tree-sitter types as boost::x's.
				p.i++
				s.typed, s.named = true, true
				p.typeName()
				continue
			}
			if p.is(t, "::") && !s.typed {
				fail("global qualifier at %d", t.Start)
			}
			return
		}
	}
}

// macroSpec takes a macro's name read as the type back when a type
// follows it (static BOOST_ASIO_CONSTEXPR const char* f(),
// extern BOOST_ASIO_DECL struct s* g()), as the compiler reads it, a
// specifier: tree-sitter has two types, an error tree (pinned in
// TestScanWhereTreeSitterIsWrong).
func (p *parser) macroSpec(s *specs) {
	if s.macro {
		s.typed, s.named, s.macro = false, false, false
	}
}

// macroType reads a macro's call that is a declaration's type, as
// the compiler does (typedef BOOST_CONTAINER_IMPDEF(x) name;): the
// parentheses are followed by a declarator, which tree-sitter has no
// reading of but an error (pinned in TestScanWhereTreeSitterIsWrong).
func (p *parser) macroType() bool {
	if !isMacroName(p.text(p.peek())) || !p.is(p.at(1), "(") {
		return false
	}
	n, ok := p.afterCall()
	return ok && (p.isName(n) || p.is(n, "*") || p.is(n, "&")) && p.macroArg()
}

// isMacroName reports whether a name is spelled as a macro's: capitals,
// digits and underscores, with an underscore.
func isMacroName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return strings.Contains(s, "_") && strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// closesTwice reports whether, between the token first and p.i,
// nested template arguments close other than before ","
// (A<B<C>> a, A<B<C> > a, A<B<C>::type> a, A<B<0>!0> a).
func (p *parser) closesTwice(first int) bool {
	depth := 0
	for k := first; k < p.i; k++ {
		switch t := p.toks[k]; {
		case p.is(t, "<"):
			depth++
		case p.is(t, ">"):
			depth--
			if depth >= 1 && (k+1 >= len(p.toks) || !p.is(p.toks[k+1], ",")) {
				return true
			}
		}
	}
	return false
}

// globalPrim reports whether the global qualifier at p.i leads to a
// primitive type's name (::boost::uint32_t), which tree-sitter reads
// as an error.
func (p *parser) globalPrim() bool {
	for k := 1; ; k += 2 {
		if w := p.word(p.at(k)); w == wPrim || w == wSized {
			return true
		}
		if !p.isName(p.at(k)) {
			return false
		}
		n := k + 1
		if p.is(p.at(n), "<") {
			if n = p.skipAngle(n + 1); n < 0 {
				return false
			}
		}
		if !p.is(p.at(n), "::") {
			return false
		}
		k = n - 1
	}
}

// qualifiedCtor reports whether the name at p.i is A::A( or A<T>::~A(,
// an out-of-class constructor or destructor, or A::operator.
func (p *parser) qualifiedCtor() bool {
	var segs []tok
	k := 0
	for {
		t := p.at(k)
		if !p.isName(t) {
			return false
		}
		segs = append(segs, t)
		k++
		if p.is(p.at(k), "<") {
			k = p.skipAngle(k + 1)
			if k < 0 {
				return false
			}
		}
		if !p.is(p.at(k), "::") {
			return false
		}
		k++
		n := p.at(k)
		if p.is(n, "~") || p.word(n) == wOperator {
			return true
		}
		if p.isName(n) && p.is(p.at(k+1), "(") {
			return p.text(n) == p.text(segs[len(segs)-1])
		}
	}
}

// skipAngle returns the index after the ">" matching a "<" before
// p.i+k, or -1.
func (p *parser) skipAngle(k int) int {
	depth := 1
	for ; ; k++ {
		t := p.at(k)
		switch {
		case t.Kind == 0 || t.Kind == tDir || p.is(t, ";") || p.is(t, "{") || p.is(t, "}"):
			return -1
		case p.is(t, "<"):
			depth++
		case p.is(t, ">"):
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
}

// typeName reads a (qualified, templated) type name: references.
func (p *parser) typeName() {
	for {
		t := p.peek()
		if w := p.word(t); (w == wPrim || w == wSized) && p.is(p.at(-1), "::") {
			p.i++ // std::size_t: a primitive type, no reference
			return
		}
		if !p.isName(t) {
			fail("type name at %d", t.Start)
		}
		p.ref(t, false)
		p.i++
		if p.is(p.peek(), "<") {
			p.i++
			p.angle()
		}
		if !p.is(p.peek(), "::") {
			return
		}
		p.i++
		if p.word(p.peek()) == wTemplate {
			p.i++
		}
	}
}

// tagSpecifier reads class, struct, union or enum: a definition with a
// body, or a name.
func (p *parser) tagSpecifier(ctx int, w tmpl) bool {
	kw := p.peek()
	isEnum := p.word(kw) == wEnum
	p.i++
	if isEnum && p.word(p.peek()) == wTag {
		p.i++ // enum class
	}
	name := p.peek()
	var nameEnd uint32
	if p.isName(name) {
		p.ref(name, false)
		p.i++
		nameEnd = name.End
		if p.is(p.peek(), "<") {
			p.i++
			p.angle()
			nameEnd = p.at(-1).End
		}
		for p.is(p.peek(), "::") {
			// traits::query_member<T> { ... }: the name is the
			// qualified text, as tree-sitter's name field holds it.
			p.i++
			seg := p.peek()
			if !p.isName(seg) {
				fail("qualified class name at %d", name.Start)
			}
			p.ref(seg, false)
			p.i++
			nameEnd = seg.End
			if p.is(p.peek(), "<") {
				p.i++
				p.angle()
				nameEnd = p.at(-1).End
			}
		}
	} else {
		name = tok{}
	}
	if p.word(p.peek()) == wVirtSpec {
		p.i++
	}
	if p.is(p.peek(), ":") {
		p.i++
		if isEnum {
			p.enumBase()
		} else {
			p.bases()
		}
	}
	if !p.is(p.peek(), "{") {
		if name.Kind == 0 {
			fail("tag without a name or body at %d", kw.Start)
		}
		return false
	}
	if isEnum {
		p.enumBody(kw, name, nameEnd, w)
	} else {
		p.classBody(kw, name, nameEnd, w)
	}
	return true
}

// bases reads a base clause up to the class body's "{".
func (p *parser) bases() {
	for {
		t := p.peek()
		switch {
		case p.is(t, "{"):
			return
		case p.word(t) == wAccess || p.word(t) == wSpec:
			p.i++
		case p.is(t, ","):
			p.i++
		case p.isName(t) || p.is(t, "::"):
			if p.is(t, "::") && !p.globalPrim() {
				p.i++ // ::boost::x, as boost::x
			} else if p.is(t, "::") {
				fail("global qualifier in bases")
			}
			p.typeName()
			if p.is(p.peek(), "...") {
				p.i++
			}
		default:
			fail("%q in a base clause at %d", p.text(t), t.Start)
		}
	}
}

// defAt fills the parts of a def the walker takes from the declaration
// node and its template wrapper.
func defAt(d *def, decl tok, w tmpl) {
	d.node, d.decl, d.declLine = decl.Start, decl.Start, decl.Line
	d.first, d.firstLine, d.sig = decl.Start, decl.Line, decl.Start
	if w.ok {
		d.first, d.firstLine = w.start, w.line
		if w.line == decl.Line {
			d.sig = w.start
		}
	}
}

// classBody records a class, struct or union with a body and reads its
// members.
func (p *parser) classBody(kw, name tok, nameEnd uint32, w tmpl) {
	var sym int32 = -1
	opened := false
	if name.Kind != 0 {
		d := def{kind: extract.KindStruct, scope: extract.ScopeType, name: name, nameEnd: nameEnd, raw: true}
		if p.text(kw) == "class" {
			d.kind, d.private = extract.KindClass, true
		}
		defAt(&d, kw, w)
		sym, opened = p.define(&d)
	}
	p.classOpen()
	p.i++ // {
	p.items(ctxClass)
	end := p.expect("}")
	p.classClose()
	p.end(sym, opened, end.End)
}

// enumBody records an enum with a body and its enumerators.
func (p *parser) enumBody(kw, name tok, nameEnd uint32, w tmpl) {
	var sym int32 = -1
	opened := false
	if name.Kind != 0 {
		d := def{kind: extract.KindEnum, scope: extract.ScopeType, name: name, nameEnd: nameEnd}
		defAt(&d, kw, w)
		sym, opened = p.define(&d)
	}
	p.i++ // {
	for {
		t := p.peek()
		if p.is(t, "}") {
			break
		}
		if t.Kind == tDir {
			fail("directive in an enum at %d", t.Start)
		}
		if !p.isName(t) {
			fail("enumerator %q at %d", p.text(t), t.Start)
		}
		d := def{kind: extract.KindEnumMember, name: t, nameEnd: t.End}
		defAt(&d, t, tmpl{})
		esym, eopened := p.define(&d)
		p.ref(t, false)
		p.i++
		end := t.End
		if p.is(p.peek(), "=") {
			p.i++
			p.exprUntil(",", "}")
			end = p.at(-1).End
		}
		p.end(esym, eopened, end)
		if p.is(p.peek(), ",") {
			p.i++
		}
	}
	end := p.expect("}")
	p.end(sym, opened, end.End)
}

// enumBase reads an enum's underlying type up to its body or ";".
func (p *parser) enumBase() {
	typed := false
	for {
		t := p.peek()
		switch w := p.word(t); {
		case p.is(t, "{") || p.is(t, ";"):
			return
		case w == wPrim || w == wSized:
			p.i++
			typed = true
		case p.isName(t) && typed:
			return // enum E : int a;: a declarator
		case p.isName(t):
			p.typeName()
			if !p.is(p.peek(), "{") && !p.is(p.peek(), ";") {
				fail("enum type at %d", t.Start)
			}
		default:
			fail("%q in an enum's type at %d", p.text(t), t.Start)
		}
	}
}
