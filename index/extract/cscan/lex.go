package cscan

import "bytes"

// The lexer turns a C file into tokens and comments. Preprocessor
// directives are lexed by line: a directive token (kind tDir, the
// directive's name in dir) starts at its "#", the tokens tree-sitter-c
// parses follow (a #define's name and parameters, an #include's path,
// an #if's condition), the text it keeps opaque (a macro's value, an
// #error's message) is skipped, and a tEOL token ends it after the line
// break, where tree-sitter's directive node ends.

const (
	tIdent uint8 = iota + 1
	tNum
	tStr // string or character literal, or an #include <path>
	tPunct
	tDir
	tEOL
)

type tok struct {
	kind       uint8
	start, end uint32
	line       uint32
	dir        string // tDir: the directive's name ("define", "if", ...)
}

// comment is a comment as tree-sitter-c ranges it: a line comment ends
// before its line break.
type comment struct {
	start, end uint32
	line       uint32
	endLine    uint32
}

type lexer struct {
	src      []byte
	i        int
	line     uint32
	toks     []tok
	comments []comment
}

func lex(src []byte) ([]tok, []comment) {
	l := &lexer{src: src, toks: make([]tok, 0, len(src)/5+8)}
	bol := true // only blanks since the line's start
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case c == '\n':
			l.line++
			l.i++
			bol = true
			continue
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			l.i++
			continue
		case c == '\\' && l.i+1 < len(src) && src[l.i+1] == '\n':
			l.i += 2
			l.line++
			continue
		case c == '#' && bol:
			l.directive()
			continue
		}
		bol = false
		if !l.token(false) {
			fail("unexpected byte %q", c)
		}
	}
	return l.toks, l.comments
}

// token lexes one token or comment at l.i; inDir stops line comments and
// strings at the line's end as a directive does.
func (l *lexer) token(inDir bool) bool {
	src, s := l.src, l.i
	c := src[s]
	switch {
	case c == '/' && s+1 < len(src) && src[s+1] == '/':
		e := s
		for e < len(src) && src[e] != '\n' {
			if src[e] == '\\' && e+1 < len(src) && src[e+1] == '\n' {
				fail("line comment continued")
			}
			e++
		}
		l.comments = append(l.comments, comment{start: uint32(s), end: uint32(e), line: l.line, endLine: l.line})
		l.i = e
	case c == '/' && s+1 < len(src) && src[s+1] == '*':
		line := l.line
		e := s + 2
		for ; ; e++ {
			if e+1 >= len(src) {
				fail("unterminated comment")
			}
			if src[e] == '\n' {
				l.line++
			}
			if src[e] == '*' && src[e+1] == '/' {
				break
			}
		}
		l.comments = append(l.comments, comment{start: uint32(s), end: uint32(e + 2), line: line, endLine: l.line})
		l.i = e + 2
	case isIdentStart(c):
		e := s + 1
		for e < len(src) && isIdentPart(src[e]) {
			e++
		}
		if e < len(src) && (src[e] == '"' || src[e] == '\'') {
			fail("prefixed literal")
		}
		l.add(tIdent, s, e)
	case c >= '0' && c <= '9' || c == '.' && s+1 < len(src) && src[s+1] >= '0' && src[s+1] <= '9':
		l.number(s)
	case c == '"' || c == '\'':
		e := s + 1
		for ; e < len(src) && src[e] != c; e++ {
			switch src[e] {
			case '\\':
				e++
				if e < len(src) && src[e] == '\n' {
					fail("continued literal")
				}
			case '\n':
				fail("unterminated literal")
			}
		}
		if e >= len(src) {
			fail("unterminated literal")
		}
		l.add(tStr, s, e+1)
	default:
		n := punctLen(src[s:])
		if n == 0 {
			return false
		}
		l.add(tPunct, s, s+n)
	}
	return true
}

func (l *lexer) add(kind uint8, s, e int) {
	l.toks = append(l.toks, tok{kind: kind, start: uint32(s), end: uint32(e), line: l.line})
	l.i = e
}

var puncts3 = []string{"...", "<<=", ">>="}
var puncts2 = []string{"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##"}

func punctLen(b []byte) int {
	for _, p := range puncts3 {
		if len(b) >= 3 && string(b[:3]) == p {
			return 3
		}
	}
	for _, p := range puncts2 {
		if len(b) >= 2 && string(b[:2]) == p {
			return 2
		}
	}
	switch b[0] {
	case '{', '}', '(', ')', '[', ']', ';', ',', ':', '?', '~', '!', '+', '-', '*', '/', '%',
		'<', '>', '=', '&', '|', '^', '.':
		return 1
	}
	return 0
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// skipBlanks skips spaces and continued line breaks within a directive.
func (l *lexer) skipBlanks() {
	for l.i < len(l.src) {
		switch c := l.src[l.i]; {
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			l.i++
		case c == '\\' && l.i+1 < len(l.src) && l.src[l.i+1] == '\n':
			l.i += 2
			l.line++
		default:
			return
		}
	}
}

// atEOL reports whether the directive's logical line ends at l.i.
func (l *lexer) atEOL() bool {
	l.skipBlanks()
	return l.i >= len(l.src) || l.src[l.i] == '\n'
}

// eol ends a directive after its line break.
func (l *lexer) eol() {
	if l.i >= len(l.src) {
		fail("directive at end of file")
	}
	l.line++
	l.i++
	l.toks = append(l.toks, tok{kind: tEOL, start: uint32(l.i), end: uint32(l.i), line: l.line})
}

// number lexes a number at s.
func (l *lexer) number(s int) {
	src := l.src
	e := s + 1
	for e < len(src) && (isIdentPart(src[e]) || src[e] == '.' ||
		(src[e] == '+' || src[e] == '-') && (src[e-1] == 'e' || src[e-1] == 'E' || src[e-1] == 'p' || src[e-1] == 'P')) {
		e++
	}
	if e < len(src) && src[e] == '\'' {
		fail("digit separator")
	}
	hex := bytes.IndexAny(src[s:e], "xX") >= 0
	for i, c := range src[s:e] {
		if c >= 'g' && c <= 'z' && c != 'l' && c != 'p' && c != 'u' && c != 'x' ||
			c >= 'G' && c <= 'Z' && c != 'L' && c != 'P' && c != 'U' && c != 'X' || c == '_' ||
			c == '.' && !hex && s+i+1 < e && isIdentStart(src[s+i+1]) && !bytes.ContainsRune([]byte("eEfFlL"), rune(src[s+i+1])) {
			fail("number %q", src[s:e]) // tree-sitter's number ends before such a letter
		}
	}
	l.add(tNum, s, e)
}
