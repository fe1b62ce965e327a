package tsscan

// The lexer is driven by the parser, one token at a time: whether a '/'
// starts a regular expression, and where a template literal resumes after
// a substitution's '}', depend on what the parser expects, so the parser
// asks (regex, templateRest) instead of the lexer guessing.

type tokKind uint8

const (
	tEOF      tokKind = iota
	tName             // identifiers and keywords alike: the parser judges
	tPunct            // operators and punctuation
	tNum              // numeric literals
	tString           // '…' and "…"
	tTemplate         // a whole template literal without substitutions
	tTplHead          // `…${ : a template literal up to its first substitution
	tTplMid           // }…${ after templateRest
	tTplTail          // }…` after templateRest
	tRegex            // /…/flags after regex
	tPrivate          // #name
)

// token is one token: its kind, its byte span and whether a line break
// precedes it (automatic semicolon insertion).
type token struct {
	kind       tokKind
	start, end int
	nl         bool
}

// comment is one comment's byte span.
type comment struct{ start, end int }

// lexer holds the position after the current token.
type lexer struct {
	src      []byte
	pos      int
	comments []comment
}

// lexState is what peeking saves and restores.
type lexState struct {
	pos, ncomments int
}

func (l *lexer) save() lexState { return lexState{l.pos, len(l.comments)} }

func (l *lexer) restore(s lexState) {
	l.pos = s.pos
	l.comments = l.comments[:s.ncomments]
}

// skip passes blanks and comments, reporting whether a line break was
// among them.
func (l *lexer) skip() (nl bool) {
	src := l.src
	for l.pos < len(src) {
		c := src[l.pos]
		switch {
		case c == '\n':
			nl = true
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			l.pos++
		case c == '/' && l.pos+1 < len(src) && src[l.pos+1] == '/':
			s := l.pos
			for l.pos < len(src) && src[l.pos] != '\n' && src[l.pos] != '\r' {
				l.pos++
			}
			l.comments = append(l.comments, comment{s, l.pos})
		case c == '/' && l.pos+1 < len(src) && src[l.pos+1] == '*':
			s := l.pos
			l.pos += 2
			for l.pos+1 < len(src) && !(src[l.pos] == '*' && src[l.pos+1] == '/') {
				if src[l.pos] == '\n' {
					nl = true
				}
				l.pos++
			}
			if l.pos+1 >= len(src) {
				fail("unterminated comment")
			}
			l.pos += 2
			l.comments = append(l.comments, comment{s, l.pos})
		case c >= 0x80:
			if isUnicodeSpace(src[l.pos:]) {
				fail("non-ASCII white space")
			}
			return nl
		default:
			return nl
		}
	}
	return nl
}

// isUnicodeSpace reports U+00A0, U+FEFF and the U+2000 block's spaces and
// line separators, which the scanner does not place as tree-sitter does.
func isUnicodeSpace(b []byte) bool {
	if len(b) >= 2 && b[0] == 0xc2 && b[1] == 0xa0 {
		return true
	}
	if len(b) >= 3 && (b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf || b[0] == 0xe2 && b[1] == 0x80 || b[0] == 0xe3 && b[1] == 0x80 && b[2] == 0x80) {
		return true
	}
	return false
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// puncts are the operators, longest first within each leading byte.
var puncts = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "**", "<<", ">>",
}

// next lexes the token after the blanks at l.pos; '/' is always an
// operator here (see regex).
func (l *lexer) next() token {
	nl := l.skip()
	src := l.src
	s := l.pos
	if s >= len(src) {
		return token{kind: tEOF, start: s, end: s, nl: nl}
	}
	c := src[s]
	t := token{start: s, nl: nl}
	switch {
	case identByte(c) && !('0' <= c && c <= '9'):
		l.pos++
		for l.pos < len(src) && identByte(src[l.pos]) {
			l.pos++
		}
		t.kind = tName
	case c == '\\':
		fail("escaped identifier")
	case '0' <= c && c <= '9' || c == '.' && s+1 < len(src) && '0' <= src[s+1] && src[s+1] <= '9':
		l.number()
		t.kind = tNum
	case c == '"' || c == '\'':
		l.str(c)
		t.kind = tString
	case c == '`':
		l.pos++
		t.kind = l.template(tTemplate, tTplHead)
	case c == '#':
		l.pos++
		for l.pos < len(src) && identByte(src[l.pos]) {
			l.pos++
		}
		if l.pos == s+1 {
			fail("stray #")
		}
		t.kind = tPrivate
	default:
		t.kind = tPunct
		l.pos++
		for _, p := range puncts {
			if p[0] == c && len(src)-s >= len(p) && string(src[s:s+len(p)]) == p {
				if p == "?." && s+2 < len(src) && '0' <= src[s+2] && src[s+2] <= '9' {
					continue // a ? .5 : b
				}
				l.pos = s + len(p)
				break
			}
		}
	}
	t.end = l.pos
	return t
}

// number scans a numeric literal; an exponent's sign belongs to it
// unless the literal is hexadecimal (0x1e+2 is a sum).
func (l *lexer) number() {
	src := l.src
	s := l.pos
	hex := src[s] == '0' && s+1 < len(src) && (src[s+1] == 'x' || src[s+1] == 'X')
	for l.pos < len(src) && (identByte(src[l.pos]) || src[l.pos] == '.') {
		c := src[l.pos]
		l.pos++
		if !hex && (c == 'e' || c == 'E') && l.pos < len(src) && (src[l.pos] == '+' || src[l.pos] == '-') {
			l.pos++
		}
	}
	if !validNumber(src[s:l.pos]) {
		// 1.a, 00A: tree-sitter splits them where JavaScript has no
		// token at all.
		fail("malformed number")
	}
}

// validNumber reports whether b is one numeric literal: decimal with an
// optional fraction, exponent or BigInt n, or 0x, 0o, 0b digits.
func validNumber(b []byte) bool {
	digits := func(i int, ok func(byte) bool) int {
		for i < len(b) && (ok(b[i]) || b[i] == '_') {
			i++
		}
		return i
	}
	dec := func(c byte) bool { return '0' <= c && c <= '9' }
	if len(b) > 2 && b[0] == '0' {
		var ok func(byte) bool
		switch b[1] {
		case 'x', 'X':
			ok = func(c byte) bool { return dec(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
		case 'o', 'O':
			ok = func(c byte) bool { return '0' <= c && c <= '7' }
		case 'b', 'B':
			ok = func(c byte) bool { return c == '0' || c == '1' }
		}
		if ok != nil {
			i := digits(2, ok)
			if i < len(b) && b[i] == 'n' {
				i++
			}
			return i == len(b) && i > 2
		}
	}
	i := digits(0, dec)
	if i < len(b) && b[i] == 'n' {
		return i+1 == len(b) && i > 0
	}
	if i < len(b) && b[i] == '.' {
		i = digits(i+1, dec)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(i, dec)
		if j == i {
			return false
		}
		i = j
	}
	return i == len(b)
}

func (l *lexer) str(q byte) {
	src := l.src
	l.pos++
	for l.pos < len(src) {
		switch src[l.pos] {
		case q:
			l.pos++
			return
		case '\\':
			l.pos += 2
			continue
		case '\n':
			fail("line break in string")
		}
		l.pos++
	}
	fail("unterminated string")
}

// template scans template characters from l.pos up to the closing '`'
// (returning whole) or a "${" (returning open).
func (l *lexer) template(whole, open tokKind) tokKind {
	src := l.src
	for l.pos < len(src) {
		switch src[l.pos] {
		case '`':
			l.pos++
			return whole
		case '\\':
			l.pos += 2
			continue
		case '$':
			if l.pos+1 < len(src) && src[l.pos+1] == '{' {
				l.pos += 2
				return open
			}
		}
		l.pos++
	}
	fail("unterminated template")
	return whole
}

// templateRest re-lexes the '}' token t as the continuation of a
// template literal.
func (l *lexer) templateRest(t token) token {
	l.pos = t.start + 1
	t.kind = l.template(tTplTail, tTplMid)
	t.end = l.pos
	return t
}

// regex re-lexes the '/' or '/=' token t as a regular expression.
func (l *lexer) regex(t token) token {
	src := l.src
	l.pos = t.start + 1
	class := false
	for {
		if l.pos >= len(src) || src[l.pos] == '\n' {
			fail("unterminated regex")
		}
		c := src[l.pos]
		l.pos++
		switch {
		case c == '\\':
			l.pos++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			// Flags: tree-sitter's regex_flags are lower-case letters.
			for l.pos < len(src) && 'a' <= src[l.pos] && src[l.pos] <= 'z' {
				l.pos++
			}
			t.kind, t.end = tRegex, l.pos
			return t
		}
	}
}
