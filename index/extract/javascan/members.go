package javascan

import "github.com/parleyhq/parley/index/extract"

// Members of type bodies: fields, methods, constructors, initializers,
// nested types, enum constants; and the types they are declared with.

// members parses a body from its { to its matching }.
func (s *scanner) members(body bodyKind) {
	if !s.isOp(s.i, '{') {
		s.fail("expected a body")
	}
	close := int(s.toks[s.i].match)
	s.i++
	s.memberList(body, close)
	s.i = close + 1
}

// memberList parses members up to token close.
func (s *scanner) memberList(body bodyKind, close int) {
	for s.i < close {
		if s.isOp(s.i, ';') {
			s.i++
			continue
		}
		s.member(body)
	}
	if s.i != close {
		s.fail("member overran its body")
	}
}

func (s *scanner) member(body bodyKind) {
	m := s.modifiers()
	if s.isOp(s.i, '{') { // an initializer block
		s.group()
		return
	}
	if s.typeDecl(m) {
		return
	}
	d := decl{private: m.private, scopeKind: extract.ScopeFunc, start: s.toks[s.i].start, sig: s.toks[s.i].start}
	if m.any {
		d.start = m.start
	}
	if m.sigSet {
		d.sig = m.sig
	}
	if s.isOp(s.i, '<') {
		s.typeArgs()
	}
	switch {
	case s.isIdent(s.i) && s.isOp(s.i+1, '('):
		d.kind = extract.KindConstructor
		s.method(&d, body)
	case s.isIdent(s.i) && s.isOp(s.i+1, '{') && body == bodyRecord:
		d.kind, d.name = extract.KindConstructor, s.i
		idx := s.define(&d, d.start)
		s.ref(s.i, false)
		s.i++
		close := int(s.toks[s.i].match)
		s.group()
		s.end(idx, &d, s.toks[close].end)
	default:
		s.typeRef()
		if !s.isIdent(s.i) {
			s.fail("expected a member name")
		}
		if s.isOp(s.i+1, '(') {
			d.kind = extract.KindMethod
			s.method(&d, body)
			return
		}
		d.kind, d.scopeKind = extract.KindField, extract.ScopeNone
		if body == bodyInterface || body == bodyAnnotation {
			d.kind = extract.KindConstant
		} else if m.static && m.final {
			d.kind = extract.KindConstant
		}
		s.fields(&d)
	}
}

// method parses a method, constructor or annotation element from its
// name to the end of its body.
func (s *scanner) method(d *decl, body bodyKind) {
	d.name = s.i
	idx := s.define(d, d.start)
	s.ref(s.i, false)
	s.i++
	s.group() // parameters
	s.dims()
	if s.isKw(s.i, kwThrows) {
		s.i++
		for {
			s.typeRef()
			if !s.isOp(s.i, ',') {
				break
			}
			s.i++
		}
	}
	switch {
	case s.isOp(s.i, '{'):
		close := int(s.toks[s.i].match)
		s.group()
		s.end(idx, d, s.toks[close].end)
		return
	case s.isKw(s.i, kwDefault) && body == bodyAnnotation:
		s.i++
		s.scan(len(s.toks)-1, stopSemi)
	}
	if !s.isOp(s.i, ';') {
		s.fail("method without a body")
	}
	s.i++
	s.end(idx, d, s.toks[s.i-1].end)
}

// fields parses a field declaration's declarators; each is a symbol whose
// range is the whole declaration's.
func (s *scanner) fields(d *decl) {
	var syms []int32 // the declarators' symbols, not those of anonymous classes in initializers
	for {
		if !s.isIdent(s.i) {
			s.fail("expected a field name")
		}
		d.name = s.i
		if idx := s.define(d, s.toks[s.i].start); idx >= 0 {
			syms = append(syms, idx)
		}
		s.ref(s.i, false)
		s.i++
		s.dims()
		if s.isOp(s.i, '=') {
			s.i++
			s.scan(len(s.toks)-1, stopSemi|stopComma)
		}
		if s.isOp(s.i, ',') {
			s.i++
			if !s.declaratorAhead() {
				// The initializer's comma was not a declarator's: a <
				// read as less-than began type arguments (Map<K, V>::new).
				s.fail("unexpected comma in a field declaration")
			}
			continue
		}
		if !s.isOp(s.i, ';') {
			s.fail("field declaration without ;")
		}
		end := s.pos(s.toks[s.i].end)
		for _, k := range syms {
			s.res.Symbols[k].Range.End = end
		}
		s.i++
		return
	}
}

// declaratorAhead reports whether a variable declarator starts at the
// current token: a name followed by =, [, a comma or ;.
func (s *scanner) declaratorAhead() bool {
	return s.isIdent(s.i) && (s.isOp(s.i+1, '=') || s.isOp(s.i+1, '[') || s.isOp(s.i+1, ',') || s.isOp(s.i+1, ';'))
}

// enumBody parses an enum's constants, then its other members.
func (s *scanner) enumBody() {
	if !s.isOp(s.i, '{') {
		s.fail("expected an enum body")
	}
	close := int(s.toks[s.i].match)
	s.i++
	for s.i < close && !s.isOp(s.i, ';') {
		if s.isOp(s.i, ',') {
			s.i++
			continue
		}
		s.enumConstant()
	}
	if s.isOp(s.i, ';') {
		s.i++
		s.memberList(bodyClass, close)
	}
	s.i = close + 1
}

func (s *scanner) enumConstant() {
	m := s.modifiers()
	if m.sigSet || !s.isIdent(s.i) {
		s.fail("expected an enum constant")
	}
	d := decl{kind: extract.KindEnumMember, name: s.i, start: s.toks[s.i].start, sig: s.toks[s.i].start}
	if m.any {
		d.start = m.start
	}
	idx := s.define(&d, d.start)
	s.ref(s.i, false)
	s.i++
	if s.isOp(s.i, '(') {
		s.group()
	}
	if s.isOp(s.i, '{') {
		s.members(bodyClass)
	}
	s.end(idx, &d, s.toks[s.i-1].end)
}

// typeRef reads a type: annotations, a primitive or a qualified name with
// type arguments, then dimensions.
func (s *scanner) typeRef() {
	for s.isOp(s.i, '@') {
		s.annotation()
	}
	if t := s.toks[s.i]; t.kind == tKw && isPrimitive(t.kw) {
		s.i++
	} else {
		for {
			if !s.isIdent(s.i) {
				s.fail("expected a type")
			}
			s.addRef(s.i, false)
			s.i++
			if s.isOp(s.i, '<') {
				s.typeArgs()
			}
			if !s.isOp(s.i, '.') {
				break
			}
			s.i++
			for s.isOp(s.i, '@') {
				s.annotation()
			}
		}
	}
	s.dims()
}

// dims reads [] pairs, annotated or not.
func (s *scanner) dims() {
	for {
		k := s.i
		for s.isOp(k, '@') {
			s.annotation()
			k = s.i
		}
		if !s.isOp(k, '[') || !s.isOp(k+1, ']') {
			return
		}
		s.i = k + 2
	}
}

// typeArgs reads <...>: type arguments or parameters, nested.
func (s *scanner) typeArgs() {
	depth := 0
	for {
		t := s.toks[s.i]
		switch {
		case t.kind == tOp && t.op == '<':
			depth++
			s.i++
		case t.kind == tOp && t.op == '>':
			depth--
			s.i++
			if depth == 0 {
				return
			}
		case t.kind == tIdent:
			s.addRef(s.i, false)
			s.i++
		case t.kind == tOp && t.op == '@':
			s.annotation()
		case t.kind == tOp && (t.op == ',' || t.op == '.' || t.op == '&' || t.op == '?' || t.op == '[' || t.op == ']'),
			t.kind == tKw && (t.kw == kwExtends || t.kw == kwSuper || isPrimitive(t.kw)):
			s.i++
		default:
			s.fail("unexpected token in type arguments")
		}
	}
}
