package clex

// directiveOrBad lexes a preprocessor line starting at its "#", or,
// where the lexer does not read it as tree-sitter does, makes the whole
// logical line one Bad token, which declines only the item holding it.
func (l *lexer) directiveOrBad() {
	s, line, ntoks, ncom := l.i, l.line, len(l.toks), len(l.comments)
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if _, ok := r.(*decline); !ok {
			panic(r)
		}
		l.toks, l.comments, l.i, l.line = l.toks[:ntoks], l.comments[:ncom], s, line
		name := l.directiveName()
		e, lines, ok := logicalLineEnd(l.src, s)
		if !ok {
			panic(r)
		}
		l.toks = append(l.toks, Tok{Kind: Bad, Start: uint32(s), End: uint32(e), Line: line, Dir: name})
		l.i, l.line = e, line+lines
	}()
	l.directive()
}

// directiveName is the name of the directive at l.i (its "#").
func (l *lexer) directiveName() string {
	i := l.i + 1
	for i < len(l.src) && (l.src[i] == ' ' || l.src[i] == '\t') {
		i++
	}
	j := i
	for j < len(l.src) && isIdentPart(l.src[j]) {
		j++
	}
	return string(l.src[i:j])
}

// logicalLineEnd is where the directive line from s ends (its line
// break, or the end of src), past backslash continuations and block
// comments, and how many line breaks it holds; ok is false for a block
// comment that does not end.
func logicalLineEnd(src []byte, s int) (end int, lines uint32, ok bool) {
	for i := s; i < len(src); i++ {
		switch {
		case src[i] == '\n':
			return i, lines, true
		case src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i++
			lines++
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for ; j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/'); j++ {
				if src[j] == '\n' {
					lines++
				}
			}
			if j+1 >= len(src) {
				return 0, 0, false
			}
			i = j + 1
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				if src[i] == '\\' && i+1 < len(src) && src[i+1] == '\n' {
					i++
					lines++
				}
				i++
			}
			return i, lines, true
		}
	}
	return len(src), lines, true
}

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
	l.toks = append(l.toks, Tok{Kind: Directive, Start: uint32(s), End: uint32(l.i), Line: line, Dir: name})
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
			l.add(Str, l.i, e+1)
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
			if t.Kind == Punct && l.src[t.Start] == ')' {
				break
			}
		}
	}
	end := l.toks[len(l.toks)-1].End
	l.skipBlanks()
	if l.i < len(l.src) && l.src[l.i] == '#' {
		if l.cpp {
			fail("macro value starting with #") // hashValue not checked against tree-sitter-cpp
		}
		l.hashValue(end)
		return
	}
	l.opaque()
}

// hashValue reads a macro value starting with "#" (#define S(x) #x):
// tree-sitter ends the #define at its name or parameters, whose end is
// end, and reads the rest as another directive (a preproc_call named
// "#x"), which records nothing. A comment there, or a "#" not before a
// name, is declined.
func (l *lexer) hashValue(end uint32) {
	j := l.i + 1
	for j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t') {
		j++
	}
	if j >= len(l.src) || !isIdentStart(l.src[j]) {
		fail("macro value starting with # but no name")
	}
	k := j
	for k < len(l.src) && isIdentPart(l.src[k]) {
		k++
	}
	switch name := string(l.src[j:k]); {
	case uint32(l.i) == end:
		fail("macro value starting with # right after the name")
	case name == "define" || name == "undef" || name == "include" || name == "if" || name == "ifdef" ||
		name == "ifndef" || name == "elif" || name == "else" || name == "endif" || name == "pragma" ||
		name == "error" || name == "warning" || name == "line" || name == "elifdef" || name == "elifndef":
		fail("macro value starting with #%s", name) // tree-sitter reads that directive
	}
	for first := l.i; l.i < len(l.src) && l.src[l.i] != '\n'; l.i++ {
		switch c := l.src[l.i]; {
		case c == '#' && l.i > first:
			fail("another # in a macro value starting with #") // #x#define y: tree-sitter reads a directive
		case c == '/' && l.i+1 < len(l.src) && (l.src[l.i+1] == '/' || l.src[l.i+1] == '*'):
			fail("comment in a macro value starting with #")
		case c == '\\' && l.i+1 < len(l.src) && l.src[l.i+1] == '\n':
			l.i++
			l.line++
		case c == '"' || c == '\'':
			mark := len(l.toks)
			l.token(true)
			l.toks = l.toks[:mark]
			l.i--
		}
	}
	l.eol()
	l.toks[len(l.toks)-1].Start = end // the #define's end
}

// opaque skips a directive's opaque argument to its line break. The
// comment that ends the line is a comment node; any before it, even
// one spanning lines, is in tree-sitter's preproc_arg, no comment (no
// TODO, no doc). C++ declines those: its reading there is not checked
// against tree-sitter-cpp.
func (l *lexer) opaque() {
	if l.skipBlanks(); l.i < len(l.src) && l.src[l.i] == '#' {
		fail("directive argument starting with #") // #pragma #define A: tree-sitter reads the #define
	}
	for {
		l.skipBlanks()
		if l.i >= len(l.src) || l.src[l.i] == '\n' {
			l.eol()
			return
		}
		c := l.src[l.i]
		if c == '/' && l.i+1 < len(l.src) && (l.src[l.i+1] == '/' || l.src[l.i+1] == '*') {
			l.token(true)
			if l.cpp {
				if !l.atEOL() {
					fail("comment inside a directive's argument") // not checked against tree-sitter-cpp
				}
				continue
			}
			j := l.i
			for j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t') {
				j++
			}
			if j < len(l.src) && l.src[j] != '\n' {
				// Not the line's last (a line continued counts as
				// more): part of the argument's text.
				l.comments = l.comments[:len(l.comments)-1]
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
