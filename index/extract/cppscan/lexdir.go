package cppscan

// directive lexes a preprocessor line starting at its "#".
func (l *lexer) directive() {
	s, line := l.i, l.line
	l.i++
	l.skipBlanks()
	ns := l.i
	for l.i < len(l.src) && isIdentPart(l.src[l.i]) {
		l.i++
	}
	name := string(l.src[ns:l.i])
	if name == "" || !isIdentStart(name[0]) {
		fail("null or odd directive") // cMask blanks a null one
	}
	l.toks = append(l.toks, tok{kind: tDir, start: uint32(s), end: uint32(l.i), line: line, dir: name})
	switch name {
	case "define":
		l.define()
	case "include":
		l.skipBlanks()
		if l.i >= len(l.src) {
			fail("include at end of file")
		}
		switch l.src[l.i] {
		case '"':
			l.token(true)
		case '<':
			e := l.i
			for e < len(l.src) && l.src[e] != '>' && l.src[e] != '\n' {
				e++
			}
			if e >= len(l.src) || l.src[e] != '>' {
				fail("include path")
			}
			l.add(tStr, l.i, e+1)
		default:
			fail("computed include")
		}
		l.rest(false)
	case "if", "elif", "ifdef", "ifndef":
		l.rest(true)
	case "else", "endif":
		l.rest(false)
	case "undef", "pragma", "error", "warning", "line", "ident", "sccs", "assert", "unassert", "include_next", "import":
		// a preproc_call whose argument is opaque.
		l.opaque()
	default:
		fail("directive #%s", name)
	}
}

// define lexes a #define's name, parameters and opaque value.
func (l *lexer) define() {
	l.skipBlanks()
	if l.i >= len(l.src) || !isIdentStart(l.src[l.i]) {
		fail("define without a name")
	}
	l.token(true)
	if l.i < len(l.src) && l.src[l.i] == '(' {
		for {
			l.skipBlanks()
			if l.i >= len(l.src) || l.src[l.i] == '\n' {
				fail("unclosed macro parameters")
			}
			if !l.token(true) {
				fail("macro parameters")
			}
			t := l.toks[len(l.toks)-1]
			if t.kind == tPunct && l.src[t.start] == ')' {
				break
			}
		}
	}
	l.skipBlanks()
	if l.i < len(l.src) && l.src[l.i] == '#' {
		fail("macro value starting with #") // tree-sitter reads a directive there
	}
	l.opaque()
}

// opaque skips a directive's opaque argument to its line break. A
// comment after the argument is a comment node; one inside it is
// declined (tree-sitter's preproc_arg rules for it are not replicated).
func (l *lexer) opaque() {
	for {
		l.skipBlanks()
		if l.i >= len(l.src) || l.src[l.i] == '\n' {
			l.eol()
			return
		}
		c := l.src[l.i]
		if c == '/' && l.i+1 < len(l.src) && (l.src[l.i+1] == '/' || l.src[l.i+1] == '*') {
			l.token(true)
			if !l.atEOL() {
				fail("comment inside a directive's argument")
			}
			continue
		}
		if c == '"' || c == '\'' {
			mark := len(l.toks)
			l.token(true)
			l.toks = l.toks[:mark]
			continue
		}
		l.i++
	}
}

// rest lexes the remainder of a directive line: as tokens when keep
// (conditions), else only its comments, anything else declined.
func (l *lexer) rest(keep bool) {
	for !l.atEOL() {
		mark := len(l.toks)
		nc := len(l.comments)
		if !l.token(true) {
			fail("directive text")
		}
		if !keep && len(l.toks) > mark {
			fail("text after a directive")
		}
		if len(l.comments) > nc && !l.atEOL() {
			fail("comment inside a condition") // tree-sitter's reading is not replicated
		}
	}
	l.eol()
}
