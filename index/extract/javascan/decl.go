package javascan

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// The declaration parser: the compilation unit, type declarations and
// their members, down to the bodies and initializers, which body.go
// scans as token streams. It follows tree-sitter-java's shapes for what
// the records see (which node a declaration's range covers, which
// identifiers a definition's name is) and declines what it does not
// expect.

// bodyKind is the kind of body members are parsed in.
type bodyKind uint8

const (
	bodyClass bodyKind = iota
	bodyInterface
	bodyAnnotation
	bodyRecord
)

// maxDepth bounds the nesting of declarations and bodies, which recurse.
const maxDepth = 400

func (s *scanner) fail(why string) {
	line := 0
	if s.i < len(s.toks) {
		line = int(s.pos(s.toks[s.i].start).Line) + 1
	}
	panic(&errFallback{why: why, line: line})
}

func (s *scanner) isOp(k int, op byte) bool {
	return k >= 0 && k < len(s.toks) && s.toks[k].kind == tOp && s.toks[k].op == op
}

func (s *scanner) isKw(k int, kw kwID) bool {
	return k >= 0 && k < len(s.toks) && s.toks[k].kind == tKw && s.toks[k].kw == kw
}

func (s *scanner) isIdent(k int) bool { return k >= 0 && k < len(s.toks) && s.toks[k].kind == tIdent }

func (s *scanner) identIs(k int, word string) bool {
	return s.isIdent(k) && string(s.src[s.toks[k].start:s.toks[k].end]) == word
}

func (s *scanner) expectOp(op byte) {
	if !s.isOp(s.i, op) {
		s.fail("expected " + string(rune(op)))
	}
	s.i++
}

// file parses the compilation unit: package, imports, type declarations.
func (s *scanner) file() {
	m := s.modifiers()
	if s.isKw(s.i, kwPackage) {
		s.packageDecl(m)
		m = s.modifiers()
	}
	for {
		switch {
		case s.toks[s.i].kind == tEOF:
			if m.any {
				s.fail("modifiers at the end of the file")
			}
			return
		case s.isKw(s.i, kwImport) && !m.any:
			s.importDecl()
		case s.isOp(s.i, ';') && !m.any:
			s.i++
		default:
			if !s.typeDecl(m) {
				s.fail("expected a type declaration")
			}
		}
		m = s.modifiers()
	}
}

// packageDecl records the package name; with annotations before it, the
// walker's package is the first annotation's text (the declaration's
// first named child).
func (s *scanner) packageDecl(m mods) {
	s.i++
	first := s.i
	s.qualifiedName()
	if !s.isOp(s.i, ';') {
		s.fail("package name")
	}
	start, end := s.toks[first].start, s.toks[s.i-1].end
	if m.any {
		if m.sigSet {
			s.fail("modifiers before package")
		}
		start, end = m.start, m.annEnd
	}
	if s.commentIn(start, end) {
		s.fail("comment inside the package name")
	}
	s.res.Package = squash(string(s.src[start:end]))
	s.i++
}

func (s *scanner) importDecl() {
	line := s.pos(s.toks[s.i].start).Line
	s.i++
	if s.isKw(s.i, kwStatic) {
		s.i++
	}
	first := s.i
	s.qualifiedName()
	path := squash(string(s.src[s.toks[first].start:s.toks[s.i-1].end]))
	if s.isOp(s.i, '.') && s.isOp(s.i+1, '*') {
		path += ".*"
		s.i += 2
	}
	if s.commentIn(s.toks[first].start, s.toks[s.i-1].end) {
		s.fail("comment inside an import")
	}
	s.expectOp(';')
	s.res.Imports = append(s.res.Imports, extract.Import{Path: path, Line: line})
}

// qualifiedName reads a.b.c, each name a reference.
func (s *scanner) qualifiedName() {
	for {
		if !s.isIdent(s.i) {
			s.fail("expected a name")
		}
		s.addRef(s.i, false)
		s.i++
		if !s.isOp(s.i, '.') || !s.isIdent(s.i+1) {
			return
		}
		s.i++
	}
}

func (s *scanner) commentIn(start, end uint32) bool {
	for _, c := range s.comments[s.ci:] {
		if c.start >= end {
			return false
		}
		if c.start >= start {
			return true
		}
	}
	return false
}

// squash is extract's: names lose their whitespace.
func squash(str string) string {
	if !strings.ContainsAny(str, " \t\r\n\f") {
		return str
	}
	return strings.Join(strings.Fields(str), "")
}

// mods is a run of modifiers and annotations before a declaration.
type mods struct {
	any                    bool
	start                  uint32 // the first modifier's first byte
	sig                    uint32 // the first keyword modifier's, if sigSet
	sigSet                 bool
	annEnd                 uint32 // the end of the first annotation
	private, static, final bool
}

// modifiers reads annotations and modifier keywords (sealed and
// non-sealed included).
func (s *scanner) modifiers() mods {
	var m mods
	for {
		t := s.toks[s.i]
		switch {
		case t.kind == tOp && t.op == '@' && !s.isKw(s.i+1, kwInterface):
			if !m.any {
				m.any, m.start = true, t.start
			}
			s.annotation()
			if m.annEnd == 0 {
				m.annEnd = s.toks[s.i-1].end
			}
			continue
		case t.kind == tKw && isModifier(t.kw):
			m.private = m.private || t.kw == kwPrivate
			m.static = m.static || t.kw == kwStatic
			m.final = m.final || t.kw == kwFinal
			s.i++
		case s.identIs(s.i, "sealed") && s.modifierFollows(s.i+1):
			s.i++
		case s.identIs(s.i, "non") && s.isOp(s.i+1, '-') && s.identIs(s.i+2, "sealed") &&
			s.toks[s.i+1].start == t.end && s.toks[s.i+2].start == t.end+1:
			s.i += 3
		default:
			return m
		}
		if !m.any {
			m.any, m.start = true, t.start
		}
		if !m.sigSet {
			m.sigSet, m.sig = true, t.start
		}
	}
}

// modifierFollows reports whether token k can follow the modifier
// sealed: another modifier or the keyword of a type declaration.
func (s *scanner) modifierFollows(k int) bool {
	t := s.toks[k]
	return t.kind == tKw && (isModifier(t.kw) || t.kw == kwClass || t.kw == kwInterface) ||
		t.kind == tOp && t.op == '@' || s.identIs(k, "non") || s.identIs(k, "sealed")
}

// annotation reads @Name(.Name)* and its arguments.
func (s *scanner) annotation() {
	s.i++ // @
	s.qualifiedName()
	if s.isOp(s.i, '(') {
		s.group()
	}
}

// group scans a bracketed group at the current token as a body.
func (s *scanner) group() {
	open := s.i
	close := int(s.toks[open].match)
	s.i = open + 1
	s.scan(close, 0)
	if s.i != close {
		s.fail("group not scanned to its end")
	}
	s.i = close + 1
}

// typeDecl parses a class, interface, enum, record or annotation type
// declaration at the current token, after its modifiers; false when none
// starts here.
func (s *scanner) typeDecl(m mods) bool {
	kw := s.i
	d := decl{kind: extract.KindClass, scopeKind: extract.ScopeType, private: m.private}
	body := bodyClass
	switch {
	case s.isKw(kw, kwClass):
	case s.isKw(kw, kwInterface):
		d.kind, body = extract.KindInterface, bodyInterface
	case s.isKw(kw, kwEnum):
		d.kind = extract.KindEnum
	case s.isOp(kw, '@') && s.isKw(kw+1, kwInterface):
		if s.toks[kw].end != s.toks[kw+1].start {
			// tree-sitter's @interface is one token; @ interface is an
			// annotation named interface to it.
			s.fail("@ and interface apart")
		}
		d.kind, body = extract.KindInterface, bodyAnnotation
		s.i++
	case s.identIs(kw, "record") && s.isIdent(kw+1) && (s.isOp(kw+2, '(') || s.isOp(kw+2, '<')):
		body = bodyRecord
	default:
		return false
	}
	s.i++
	if !s.isIdent(s.i) {
		s.fail("type declaration without a name")
	}
	d.name = s.i
	d.start, d.sig = s.toks[kw].start, s.toks[kw].start
	if m.any {
		d.start = m.start
	}
	if m.sigSet {
		d.sig = m.sig
	}
	s.depth++
	if s.depth > maxDepth {
		s.fail("nesting too deep")
	}
	idx := s.define(&d, d.start)
	s.ref(s.i, false)
	s.i++
	s.header()
	open := s.i
	if d.kind == extract.KindEnum {
		s.enumBody()
	} else {
		s.members(body)
	}
	s.end(idx, &d, s.toks[s.toks[open].match].end)
	s.depth--
	return true
}

// header reads what stands between a type's name and its body: type
// parameters, record components, extends, implements and permits.
func (s *scanner) header() {
	for !s.isOp(s.i, '{') {
		t := s.toks[s.i]
		switch {
		case t.kind == tEOF:
			s.fail("type without a body")
		case t.kind == tIdent:
			if !s.identIs(s.i, "permits") {
				s.addRef(s.i, false)
			}
			s.i++
		case t.kind == tOp && t.op == '@':
			s.annotation()
		case t.kind == tOp && t.op == '(':
			s.group()
		case t.kind == tOp && (t.op == '<' || t.op == '>' || t.op == ',' || t.op == '.' || t.op == '&' || t.op == '?' || t.op == '[' || t.op == ']'),
			t.kind == tKw && (t.kw == kwExtends || t.kw == kwImplements || t.kw == kwSuper || isPrimitive(t.kw)):
			s.i++
		default:
			s.fail("unexpected token in a type's header")
		}
	}
}
