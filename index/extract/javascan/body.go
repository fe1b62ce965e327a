package javascan

// Bodies and expressions are scanned as token streams: every identifier
// is a reference (contextual keywords where they are keywords excepted),
// a name before ( is a method call's, the type after new is the callee of
// an object creation when it is one simple name, the decision points of
// lang_java.go's branches count towards the innermost method, and local
// and anonymous classes are parsed as declarations.

// Stop conditions of an expression scan, at bracket depth 0; any closing
// bracket at depth 0 stops one too. A block scan (stop 0) runs to end.
const (
	stopSemi uint8 = 1 << iota
	stopComma
	stopArrow
	stopColon
)

// scan scans tokens from the current one up to end (exclusive), or in an
// expression scan (stop != 0) up to the first stop token at depth 0.
func (s *scanner) scan(end int, stop uint8) {
	s.depth++
	if s.depth > maxDepth {
		s.fail("nesting too deep")
	}
	depth := 0
	var pending mods // modifiers that may begin a local class
	for s.i < end {
		t := s.toks[s.i]
		if t.kind == tEOF {
			s.fail("unexpected end of file")
		}
		if stop != 0 && depth == 0 && s.stops(t, stop) {
			break
		}
		mod := t.kind == tKw && (t.kw == kwFinal || t.kw == kwAbstract || t.kw == kwStatic || t.kw == kwStrictfp)
		if mod && !s.canFollowModifier(s.i+1) || t.kind == tKw && s.isOp(s.i+1, '=') {
			// tree-sitter reads a keyword where only a name fits (x =
			// final = 1) as a name, without an error mark.
			s.fail("keyword where a name stands")
		}
		if t.kind == tOp && t.op == '@' && !s.isKw(s.i+1, kwInterface) || mod {
			if !pending.any {
				pending.any, pending.start = true, t.start
			}
			if mod {
				if !pending.sigSet {
					pending.sigSet, pending.sig = true, t.start
				}
				s.i++
			} else {
				s.annotation()
			}
			continue
		}
		m := pending
		pending = mods{}
		switch t.kind {
		case tIdent:
			s.ident(m)
		case tKw:
			s.keyword(t, m)
		case tOp:
			switch t.op {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			}
			s.op(t, m)
		default:
			s.i++
		}
	}
	s.depth--
}

// canFollowModifier reports whether token k can follow a modifier: a
// type, a name, an annotation, another modifier or a type declaration.
func (s *scanner) canFollowModifier(k int) bool {
	t := s.toks[k]
	return t.kind == tIdent || t.kind == tOp && t.op == '@' ||
		t.kind == tKw && (isPrimitive(t.kw) || isModifier(t.kw) || t.kw == kwClass || t.kw == kwInterface || t.kw == kwEnum)
}

func (s *scanner) stops(t tok, stop uint8) bool {
	if t.kind != tOp {
		return false
	}
	switch t.op {
	case ')', ']', '}':
		return true
	case ';':
		return stop&stopSemi != 0
	case ',':
		return stop&stopComma != 0
	case opArrow:
		return stop&stopArrow != 0
	case ':':
		return stop&stopColon != 0
	case '?':
		if stop&stopColon != 0 {
			s.fail("conditional in a case label")
		}
	}
	return false
}

func (s *scanner) ident(m mods) {
	k := s.i
	switch string(s.src[s.toks[k].start:s.toks[k].end]) {
	case "yield":
		if s.yieldStatement(k) {
			s.i++
			return
		}
	case "record":
		if s.typeDecl(m) {
			return
		}
	}
	if n := s.toks[k+1]; n.kind == tKw {
		switch n.kw {
		case kwInstanceof, kwExtends, kwImplements, kwSuper, kwThis, kwThrows:
		default:
			// tree-sitter reads a keyword after a name (T true;) as a
			// name, without an error mark.
			s.fail("keyword after a name")
		}
	}
	s.ref(k, s.isOp(k+1, '('))
	s.i++
}

// yieldStatement reports whether yield at token k begins a yield
// statement: it stands where a statement starts and what follows is not
// how a name used as a variable or method goes on.
func (s *scanner) yieldStatement(k int) bool {
	if !s.statementStart(k) {
		return false
	}
	n := s.toks[k+1]
	if n.kind == tOp {
		switch n.op {
		case '=', '.', '[', opOther, opArrow, ')', ';', ',', opColons:
			return false
		}
	}
	return true
}

// statementStart reports whether token k stands where a statement
// starts: after ; { } : -> else do, or after the condition of an if,
// while or for.
func (s *scanner) statementStart(k int) bool {
	if k == 0 {
		return false
	}
	p := s.toks[k-1]
	switch {
	case p.kind == tOp && (p.op == ';' || p.op == '{' || p.op == '}' || p.op == opArrow || p.op == ':'):
		return true
	case p.kind == tKw && (p.kw == kwElse || p.kw == kwDo):
		return true
	case p.kind == tOp && p.op == ')':
		o := int(p.match)
		return o > 0 && (s.isKw(o-1, kwIf) || s.isKw(o-1, kwWhile) || s.isKw(o-1, kwFor))
	}
	return false
}

func (s *scanner) keyword(t tok, m mods) {
	k := s.i
	switch t.kw {
	case kwBreak, kwContinue, kwReturn, kwThrow, kwTry, kwIf, kwFor, kwDo, kwAssert, kwWhile:
		if !s.statementStart(k) && !(t.kw == kwWhile && s.isOp(k-1, '}')) {
			// tree-sitter may read a misplaced keyword as a name
			// (c break;) without an error; only it knows its records.
			s.fail("statement keyword inside a statement")
		}
	}
	switch t.kw {
	case kwNew:
		if k > 0 && s.isOp(k-1, opColons) { // a constructor reference, Foo::new
			s.i++
			return
		}
		s.newExpr()
		return
	case kwClass, kwInterface, kwEnum:
		if k > 0 && s.isOp(k-1, '.') { // a class literal, Foo.class
			s.i++
			return
		}
		if !s.typeDecl(m) {
			s.fail("expected a local type declaration")
		}
		return
	case kwIf, kwFor, kwCatch:
		s.branch()
	case kwWhile:
		if n := len(s.doWhiles); n > 0 && s.doWhiles[n-1] == k {
			s.doWhiles = s.doWhiles[:n-1]
		} else {
			s.branch()
		}
	case kwDo:
		s.branch()
		s.doWhile(k)
	case kwCase:
		s.branch()
		s.i++
		s.caseLabel()
		return
	case kwInstanceof:
		s.i++
		s.pattern()
		return
	}
	s.i++
}

// doWhile notes which while token ends the do statement at token k: it
// is part of the do statement, not a while statement of its own.
func (s *scanner) doWhile(k int) {
	var w int
	if s.isOp(k+1, '{') {
		w = int(s.toks[k+1].match) + 1
	} else {
		// A single-statement body: only an expression statement is
		// followed by the while after its first ; at depth 0.
		if t := s.toks[k+1]; t.kind == tKw || t.kind == tOp && t.op != '(' {
			s.fail("do statement with a compound body")
		}
		w = k + 1
		for !s.isOp(w, ';') {
			t := s.toks[w]
			if t.kind == tEOF {
				s.fail("unterminated do statement")
			}
			if t.kind == tOp && (t.op == '(' || t.op == '[' || t.op == '{') {
				w = int(t.match)
			}
			w++
		}
		w++
	}
	if !s.isKw(w, kwWhile) {
		s.fail("do statement without while")
	}
	s.doWhiles = append(s.doWhiles, w)
}

func (s *scanner) op(t tok, m mods) {
	k := s.i
	switch t.op {
	case '@': // @interface: a local annotation type
		if !s.typeDecl(m) {
			s.fail("expected an annotation type")
		}
		return
	case opAndAnd, opOrOr:
		s.branch()
	case '?':
		if !s.wildcard(k) {
			s.branch()
		} else if s.keywordAfterType(k) {
			// List<?> true;: tree-sitter reads the keyword as a name,
			// without an error mark.
			s.fail("keyword after a type")
		}
	case '.', opColons:
		if s.isOp(k+1, '<') { // explicit type arguments: a.<T>f(), A::<T>f
			s.i++
			s.typeArgs()
			return
		}
	}
	s.i++
}

// wildcard reports whether ? at token k is a wildcard type argument, not
// a conditional.
func (s *scanner) wildcard(k int) bool {
	if s.isOp(k-1, '<') || s.isOp(k-1, ',') {
		return true
	}
	n := s.toks[k+1]
	switch {
	case n.kind == tOp && (n.op == '>' || n.op == ','):
		return true
	case n.kind == tKw && n.kw == kwExtends:
		return true
	case n.kind == tKw && n.kw == kwSuper:
		return !s.isOp(k+2, '.') && !s.isOp(k+2, opColons)
	}
	return false
}

// keywordAfterType reports whether the type whose type arguments hold
// the wildcard at token k is followed by a keyword that cannot follow a
// type.
func (s *scanner) keywordAfterType(k int) bool {
	depth := 0
	for ; k < len(s.toks)-1; k++ {
		switch {
		case s.isOp(k, '<'):
			depth++
		case s.isOp(k, '>'):
			depth--
		case s.isOp(k, ';') || s.isOp(k, '{') || s.isOp(k, '}'):
			return false
		}
		if depth < 0 {
			break
		}
	}
	for k++; s.isOp(k, '>') || s.isOp(k, '[') || s.isOp(k, ']'); k++ {
	}
	t := s.toks[k]
	return t.kind == tKw && t.kw != kwInstanceof && t.kw != kwExtends && t.kw != kwImplements &&
		t.kw != kwSuper && t.kw != kwThis && t.kw != kwThrows
}

// newExpr reads an object or array creation from new: the type, whose
// name is the call's callee when it is one simple name, the arguments and
// an anonymous class body.
func (s *scanner) newExpr() {
	s.i++
	if s.isOp(s.i, '<') {
		s.typeArgs()
	}
	for s.isOp(s.i, '@') {
		s.annotation()
	}
	if t := s.toks[s.i]; t.kind == tKw && isPrimitive(t.kw) {
		s.i++
		return // an array creation; the scan reads its dimensions
	}
	callee, scoped := -1, false
	for {
		if !s.isIdent(s.i) {
			s.fail("expected a type after new")
		}
		r := s.addRef(s.i, false)
		if callee == -1 {
			callee = r
		}
		s.i++
		if s.isOp(s.i, '<') {
			s.typeArgs()
		}
		if !s.isOp(s.i, '.') {
			break
		}
		scoped = true
		s.i++
		for s.isOp(s.i, '@') {
			s.annotation()
		}
	}
	if !s.isOp(s.i, '(') {
		return // an array creation
	}
	if !scoped && callee >= 0 {
		s.res.Refs[callee].Call = true
	}
	s.group()
	if s.isOp(s.i, '{') {
		s.members(bodyClass)
	}
}

// caseLabel reads a switch label after case up to its -> or :: patterns
// (whose names are never calls; when before a guard is a keyword) and
// constant expressions.
func (s *scanner) caseLabel() {
	for {
		if s.patternAhead() {
			s.pattern()
			if s.identIs(s.i, "when") {
				s.i++
				s.scan(len(s.toks)-1, stopArrow|stopColon)
			}
		} else if s.isKw(s.i, kwDefault) && s.isOp(s.i-1, ',') {
			// case null, default: tree-sitter-java's grammar makes this
			// default an identifier.
			s.ref(s.i, false)
			s.i++
		} else {
			s.scan(len(s.toks)-1, stopArrow|stopColon|stopComma)
		}
		if !s.isOp(s.i, ',') {
			return
		}
		s.i++
	}
}

// patternAhead reports whether a type or record pattern starts at the
// current token: a type followed by a binding name or a parenthesized
// component list.
func (s *scanner) patternAhead() bool {
	k := s.i
	if s.isKw(k, kwFinal) || s.isOp(k, '@') {
		return true
	}
	if t := s.toks[k]; t.kind == tKw && isPrimitive(t.kw) {
		return true
	}
	for s.isIdent(k) {
		k++
		if s.isOp(k, '<') {
			return true
		}
		for s.isOp(k, '[') && s.isOp(k+1, ']') {
			k += 2
		}
		if s.isIdent(k) {
			return true
		}
		if s.isOp(k, '(') {
			return s.recordComponents(k)
		}
		if !s.isOp(k, '.') {
			return false
		}
		k++
	}
	return false
}

// recordComponents reports whether the parentheses at token open hold a
// record pattern's components, not a method call's arguments: each is a
// pattern (a type and a name, a nested record pattern, or _), and there
// is at least one, as tree-sitter-java decides between the two.
func (s *scanner) recordComponents(open int) bool {
	close := int(s.toks[open].match)
	k := open + 1
	if k == close {
		return false
	}
	for {
		end := k
		for end < close && !s.isOp(end, ',') {
			if t := s.toks[end]; t.kind == tOp && (t.op == '(' || t.op == '[' || t.op == '{') {
				end = int(t.match)
			}
			end++
		}
		if !s.componentPattern(k, end) {
			return false
		}
		if end == close {
			return true
		}
		k = end + 1
	}
}

// componentPattern reports whether tokens [k, end) are one pattern.
func (s *scanner) componentPattern(k, end int) bool {
	if s.identIs(k, "_") && k+1 == end || s.isKw(k, kwFinal) || s.isOp(k, '@') {
		return true
	}
	if t := s.toks[k]; t.kind == tKw && isPrimitive(t.kw) {
		k++
	} else {
		depth, start := 0, k
		for k < end && (s.isIdent(k) || s.isOp(k, '.') || s.isOp(k, '<') || s.isOp(k, '>') || s.isOp(k, '?') ||
			depth > 0 && (s.isOp(k, ',') || s.toks[k].kind == tKw)) {
			switch {
			case s.isOp(k, '<'):
				depth++
			case s.isOp(k, '>'):
				depth--
			case depth == 0 && s.isIdent(k) && k > start && (s.isIdent(k-1) || s.isOp(k-1, '>')):
				return true // a type then a name
			}
			k++
		}
		if s.isOp(k, '(') && k < end {
			return s.recordComponents(k)
		}
	}
	for s.isOp(k, '[') && s.isOp(k+1, ']') {
		k += 2
	}
	return k < end && s.isIdent(k)
}

// pattern reads a type, type pattern or record pattern (after instanceof
// or case): no name in it is a call.
func (s *scanner) pattern() {
	for s.isKw(s.i, kwFinal) || s.isOp(s.i, '@') {
		if s.isOp(s.i, '@') {
			s.annotation()
		} else {
			s.i++
		}
	}
	if s.identIs(s.i, "_") && (s.isOp(s.i+1, ',') || s.isOp(s.i+1, ')')) {
		s.i++ // a record pattern's bare _ component: an underscore_pattern
		return
	}
	s.typeRef()
	if s.isOp(s.i, '(') {
		close := int(s.toks[s.i].match)
		for s.i++; s.i < close; {
			switch {
			case s.isOp(s.i, ','):
				s.i++
			default:
				s.pattern()
			}
		}
		s.i = close + 1
	}
	if s.isIdent(s.i) && !s.identIs(s.i, "when") {
		// A type pattern's name is an identifier, _ too.
		s.addRef(s.i, false)
		s.i++
	}
}
