// Package clex is the lexer of the C and C++ scanners (index/extract's
// cscan and cppscan): it turns a file into the tokens and comments
// their parsers read, as tree-sitter-c's and tree-sitter-cpp's lexers
// would. Preprocessor directives are lexed by line: a directive token
// (kind Directive, the directive's name in Dir) starts at its "#", the
// tokens tree-sitter parses follow (a #define's name and parameters, an
// #include's path, an #if's condition), the text it keeps opaque (a
// macro's value, an #error's message) is skipped, and an EOL token ends
// it after the line break, where tree-sitter's directive node ends.
//
// Lex returns an error for input whose tree-sitter reading it does not
// replicate (the scanner then declines the file). It is a pure function
// of its input, safe for concurrent use, and never panics.
package clex

import (
	"bytes"
	"errors"
	"fmt"
)

const (
	Ident uint8 = iota + 1
	Num
	Str // string or character literal, or an #include <path>
	Punct
	Directive
	EOL
	// Bad is a literal the scanners do not read as tree-sitter does (a
	// prefixed one, L"x" or a user-defined literal's operator"", or one
	// continued over a line break), or a directive line whose text they
	// do not (#include MACRO, a comment inside an #if's condition; Dir
	// is its name): a parser declines the item holding it, and only
	// that item (extract.Regions).
	Bad
)

// Mode is the language lexed.
type Mode uint8

// The modes. In C++, ">" is always one token (">>" is two), so that
// template argument lists close one at a time; "::", "->*", "<=>" and
// ".*" are tokens.
const (
	C Mode = iota
	CPP
)

// decline unwinds the lexer to Lex.
type decline struct{ why string }

func fail(format string, args ...any) {
	panic(&decline{fmt.Sprintf(format, args...)})
}

// Tok is a token: Kind, its byte range in the lexed bytes and its
// 0-based line.
type Tok struct {
	Kind       uint8
	Start, End uint32
	Line       uint32
	Dir        string // Directive: the directive's name ("define", "if", ...)
}

// Comment is a comment as tree-sitter ranges it: a line comment ends
// before its line break.
type Comment struct {
	Start, End uint32
	Line       uint32
	EndLine    uint32
}

type lexer struct {
	cpp      bool
	src      []byte
	i        int
	line     uint32
	toks     []Tok
	comments []Comment
}

// Lex lexes src in mode m, or says why it declines it.
func Lex(src []byte, m Mode) (toks []Tok, comments []Comment, err error) {
	defer func() {
		if r := recover(); r != nil {
			d, ok := r.(*decline)
			if !ok {
				panic(r)
			}
			toks, comments, err = nil, nil, errors.New(d.why)
		}
	}()
	l := &lexer{cpp: m == CPP, src: src, toks: make([]Tok, 0, len(src)/5+8)}
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
			l.directiveOrBad()
			continue
		}
		bol = false
		if !l.token(false) {
			fail("unexpected byte %q", c)
		}
	}
	return l.toks, l.comments, nil
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
		l.comments = append(l.comments, Comment{Start: uint32(s), End: uint32(e), Line: l.line, EndLine: l.line})
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
		l.comments = append(l.comments, Comment{Start: uint32(s), End: uint32(e + 2), Line: line, EndLine: l.line})
		l.i = e + 2
	case isIdentStart(c):
		e := s + 1
		for e < len(src) && isIdentPart(src[e]) {
			e++
		}
		if e < len(src) && (src[e] == '"' || src[e] == '\'') {
			if src[e-1] == 'R' && src[e] == '"' {
				fail("raw string literal") // its end cannot be found as a string's
			}
			l.literal(s, e, Bad)
			return true
		}
		l.add(Ident, s, e)
	case c >= '0' && c <= '9' || c == '.' && s+1 < len(src) && src[s+1] >= '0' && src[s+1] <= '9':
		l.number(s)
	case c == '"' || c == '\'':
		l.literal(s, s, Str)
	default:
		n := l.punctLen(src[s:])
		if n == 0 {
			return false
		}
		l.add(Punct, s, s+n)
	}
	return true
}

// literal lexes a string or character literal from s, its quote at q,
// as a kind token, or Bad when it is continued over a line break.
func (l *lexer) literal(s, q int, kind uint8) {
	src, c := l.src, l.src[q]
	lines := uint32(0)
	e := q + 1
	for ; e < len(src) && src[e] != c; e++ {
		switch src[e] {
		case '\\':
			e++
			if e < len(src) && src[e] == '\n' {
				kind = Bad
				lines++
			}
		case '\n':
			fail("unterminated literal")
		}
	}
	if e >= len(src) {
		fail("unterminated literal")
	}
	l.add(kind, s, e+1)
	l.line += lines
}

func (l *lexer) add(kind uint8, s, e int) {
	l.toks = append(l.toks, Tok{Kind: kind, Start: uint32(s), End: uint32(e), Line: l.line})
	l.i = e
}

var (
	puncts3 = []string{"...", "<<=", ">>="}
	puncts2 = []string{"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
		"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##"}
	cppPuncts3 = []string{"...", "<<=", "->*", "<=>"}
	cppPuncts2 = []string{"::", "->", "++", "--", "<<", "<=", "==", "!=", "&&", "||",
		"+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "##", ".*"}
)

func (l *lexer) punctLen(b []byte) int {
	p3, p2 := puncts3, puncts2
	if l.cpp {
		p3, p2 = cppPuncts3, cppPuncts2
	}
	for _, p := range p3 {
		if len(b) >= 3 && string(b[:3]) == p {
			return 3
		}
	}
	for _, p := range p2 {
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
	l.toks = append(l.toks, Tok{Kind: EOL, Start: uint32(l.i), End: uint32(l.i), Line: l.line})
}

// number lexes a number at s: the numbers whose end tree-sitter's
// lexer reads where the scanner does (C: no letter it would stop
// before; C++: plainNumber), others declined.
func (l *lexer) number(s int) {
	src := l.src
	e := s + 1
	for e < len(src) && (isIdentPart(src[e]) || src[e] == '.' ||
		(src[e] == '+' || src[e] == '-') && (src[e-1] == 'e' || src[e-1] == 'E' || src[e-1] == 'p' || src[e-1] == 'P')) {
		e++
	}
	if l.cpp && !plainNumber(src[s:e]) {
		fail("number %q", src[s:e]) // tree-sitter's lexer may split it
	}
	if e < len(src) && src[e] == '\'' {
		fail("digit separator")
	}
	hex := bytes.IndexAny(src[s:e], "xX") >= 0
	for i, c := range src[s:e] {
		if !l.cpp && (c >= 'g' && c <= 'z' && c != 'l' && c != 'p' && c != 'u' && c != 'x' ||
			c >= 'G' && c <= 'Z' && c != 'L' && c != 'P' && c != 'U' && c != 'X' || c == '_' ||
			c == '.' && !hex && s+i+1 < e && isIdentStart(src[s+i+1]) && !bytes.ContainsRune([]byte("eEfFlL"), rune(src[s+i+1]))) {
			fail("number %q", src[s:e]) // tree-sitter's number ends before such a letter
		}
	}
	l.add(Num, s, e)
}

// plainNumber reports a number literal whose reading is certain:
// decimal or hexadecimal digits, a fraction and exponent, and the
// suffixes u, l and f.
func plainNumber(b []byte) bool {
	hex := len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')
	if hex {
		b = b[2:]
	}
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9', c == '.':
		case hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
		case !hex && (c == 'e' || c == 'E'):
		case (c == '+' || c == '-') && i > 0 && (b[i-1] == 'e' || b[i-1] == 'E'):
		case c == 'u' || c == 'U' || c == 'l' || c == 'L' || !hex && (c == 'f' || c == 'F'):
		default:
			return false
		}
	}
	return true
}
