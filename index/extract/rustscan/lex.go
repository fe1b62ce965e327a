package rustscan

import (
	"fmt"
	"unicode/utf8"
)

// Token kinds. Punctuation is lexed one byte at a time: the parser joins
// adjacent bytes ("::", "->", "&&") where the grammar wants them, so that
// ">>" can close two generic lists.
const (
	tEOF uint8 = iota
	tIdent
	tLifetime // 'a, 'static, '_ (start is the quote)
	tChar
	tStr
	tNum
	tPunct
)

// tok is one token: its kind, byte range, line, and for identifiers the
// keyword code (kwNone for plain names and raw identifiers).
type tok struct {
	kind  uint8
	kw    uint8
	start uint32
	end   uint32
	line  uint32
}

// comment is a line or block comment as tree-sitter-rust ranges it: doc
// line comments (///, //!) include their newline, plain ones do not.
type comment struct {
	start, end uint32
	line       uint32
	endLine    uint32 // the last line the comment covers
}

type lexer struct {
	src      []byte
	i        int
	line     uint32
	toks     []tok
	comments []comment
}

func lex(src []byte) ([]tok, []comment) {
	lx := &lexer{src: src, toks: make([]tok, 0, len(src)/4+4)}
	for lx.next() {
	}
	lx.toks = append(lx.toks, tok{kind: tEOF, start: uint32(len(src)), end: uint32(len(src)), line: lx.line})
	return lx.toks, lx.comments
}

func (lx *lexer) add(kind uint8, start int) {
	t := tok{kind: kind, start: uint32(start), end: uint32(lx.i), line: lx.line}
	if kind == tIdent {
		t.kw = keyword(lx.src[start:lx.i])
	}
	lx.toks = append(lx.toks, t)
}

// next lexes one token or comment; false at the end.
func (lx *lexer) next() bool {
	src := lx.src
	for lx.i < len(src) {
		switch src[lx.i] {
		case '\n':
			lx.line++
			lx.i++
		case ' ', '\t', '\r':
			lx.i++
		default:
			goto tokstart
		}
	}
	return false
tokstart:
	start := lx.i
	c := src[start]
	switch {
	case c == '/' && start+1 < len(src) && src[start+1] == '/':
		lx.lineComment()
	case c == '/' && start+1 < len(src) && src[start+1] == '*':
		lx.blockComment()
	case c == '"':
		lx.i++
		lx.quoted('"')
		lx.suffix()
		lx.add(tStr, start)
	case c == '\'':
		lx.quote()
	case c >= '0' && c <= '9':
		lx.number()
	case c == 'b' || c == 'r' || c == 'c':
		if !lx.prefixed() {
			lx.ident()
		}
	case isIdentStart(c):
		lx.ident()
	case c >= 0x80:
		fail("non-ASCII character outside a name")
	case c < 0x20 || c == 0x7f:
		fail("control character")
	default:
		lx.i++
		lx.add(tPunct, start)
	}
	return true
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentByte(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9'
}

// ident lexes a name, r#raw names included. Non-ASCII letters decline:
// tree-sitter's XID classes are not replicated here.
func (lx *lexer) ident() {
	start := lx.i
	if lx.src[start] == 'r' && start+2 < len(lx.src) && lx.src[start+1] == '#' && isIdentStart(lx.src[start+2]) {
		lx.i += 2
	}
	for lx.i < len(lx.src) && isIdentByte(lx.src[lx.i]) {
		lx.i++
	}
	if lx.i < len(lx.src) && lx.src[lx.i] >= 0x80 {
		fail("non-ASCII name")
	}
	lx.add(tIdent, start)
	if lx.src[start] == 'r' && lx.i-start > 2 && lx.src[start+1] == '#' {
		lx.toks[len(lx.toks)-1].kw = kwNone
	}
}

// prefixed lexes b"..", b'.', br"..", r"..", r#".."#, c"..", cr"..";
// false when the letter starts a name instead.
func (lx *lexer) prefixed() bool {
	src, start := lx.src, lx.i
	j := start + 1
	if src[start] != 'r' && j < len(src) && src[j] == 'r' {
		j++
	}
	raw := src[j-1] == 'r'
	if raw && j < len(src) && (src[j] == '#' || src[j] == '"') {
		n := 0
		for j < len(src) && src[j] == '#' {
			n++
			j++
		}
		if j >= len(src) || src[j] != '"' {
			if n == 1 && start+1 == j-1 && src[start] == 'r' {
				return false // r#name
			}
			fail("bad raw string")
		}
		lx.i = j + 1
		lx.rawBody(n)
		lx.suffix()
		lx.add(tStr, start)
		return true
	}
	if j >= len(src) || raw {
		return false
	}
	switch {
	case src[j] == '"':
		lx.i = j + 1
		lx.quoted('"')
		lx.suffix()
		lx.add(tStr, start)
		return true
	case src[j] == '\'' && src[start] == 'b':
		lx.i = j + 1
		lx.quoted('\'')
		lx.add(tChar, start)
		return true
	}
	return false
}

// quoted skips to the closing quote, honouring backslash escapes.
func (lx *lexer) quoted(q byte) {
	src := lx.src
	for lx.i < len(src) {
		switch src[lx.i] {
		case '\\':
			if lx.i+1 < len(src) && src[lx.i+1] == '\n' {
				lx.line++
			}
			lx.i += 2
			continue
		case '\n':
			lx.line++
		case q:
			lx.i++
			return
		}
		lx.i++
	}
	fail("unterminated string")
}

func (lx *lexer) rawBody(hashes int) {
	src := lx.src
	for lx.i < len(src) {
		c := src[lx.i]
		lx.i++
		if c == '\n' {
			lx.line++
			continue
		}
		if c != '"' {
			continue
		}
		k := 0
		for k < hashes && lx.i+k < len(src) && src[lx.i+k] == '#' {
			k++
		}
		if k == hashes {
			lx.i += k
			return
		}
	}
	fail("unterminated raw string")
}

// suffix declines literal suffixes on strings ("x"suffix), which
// tree-sitter may lex apart.
func (lx *lexer) suffix() {
	if lx.i < len(lx.src) && isIdentByte(lx.src[lx.i]) {
		fail("string suffix")
	}
}

// quote tells a char literal ('a', '\n', 'é') from a lifetime or label
// ('a, 'static).
func (lx *lexer) quote() {
	src, start := lx.src, lx.i
	j := start + 1
	if j >= len(src) {
		fail("lone quote")
	}
	if src[j] == '\\' {
		lx.i = j
		lx.quoted('\'')
		lx.add(tChar, start)
		return
	}
	_, n := utf8.DecodeRune(src[j:])
	if j+n < len(src) && src[j+n] == '\'' {
		if src[j] == '\n' {
			fail("newline in char literal")
		}
		lx.i = j + n + 1
		lx.add(tChar, start)
		return
	}
	if !isIdentStart(src[j]) {
		fail("quote before a non-name")
	}
	lx.i = j
	for lx.i < len(src) && isIdentByte(src[lx.i]) {
		lx.i++
	}
	if lx.i < len(src) && src[lx.i] >= 0x80 {
		fail("non-ASCII lifetime")
	}
	lx.add(tLifetime, start)
}

// number lexes integer and float literals with their suffixes; "1..2"
// and "x.0.1" leave the dots to the parser.
func (lx *lexer) number() {
	src, start := lx.src, lx.i
	prev := lx.afterFieldDot()
	if src[start] == '0' && start+1 < len(src) && (src[start+1] == 'x' || src[start+1] == 'o' || src[start+1] == 'b') {
		lx.radix(src[start+1])
		return
	}
	lx.digits()
	if prev {
		// a tuple index: x.0.1 is two fields
		if lx.i < len(src) && isIdentStart(src[lx.i]) {
			fail("tuple index with a suffix")
		}
		lx.add(tNum, start)
		return
	}
	if lx.i+1 < len(src) && src[lx.i] == '.' && src[lx.i+1] >= '0' && src[lx.i+1] <= '9' {
		lx.i++
		lx.digits()
	} else if lx.i < len(src) && src[lx.i] == '.' && (lx.i+1 >= len(src) || src[lx.i+1] != '.' && !isIdentStart(src[lx.i+1])) {
		lx.i++ // "1." is a float
		lx.add(tNum, start)
		return
	}
	if lx.i < len(src) && (src[lx.i] == 'e' || src[lx.i] == 'E') {
		k := lx.i + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && src[k] >= '0' && src[k] <= '9' {
			lx.i = k
			lx.digits()
		}
	}
	if lx.i < len(src) && isIdentStart(src[lx.i]) {
		s := lx.i
		for lx.i < len(src) && isIdentByte(src[lx.i]) {
			lx.i++
		}
		if keyword(src[s:lx.i]) != kwPrim || src[s] == 'b' || src[s] == 's' || src[s] == 'c' {
			// tree-sitter splits 1u256 into a number and a name
			fail("number suffix %q", src[s:lx.i])
		}
	}
	lx.add(tNum, start)
}

func (lx *lexer) digits() {
	for lx.i < len(lx.src) && (lx.src[lx.i] >= '0' && lx.src[lx.i] <= '9' || lx.src[lx.i] == '_') {
		lx.i++
	}
}

func (lx *lexer) lineComment() {
	src, start := lx.src, lx.i
	line := lx.line
	for lx.i < len(src) && src[lx.i] != '\n' {
		lx.i++
	}
	// gotreesitter's scanner takes any comment after "///" or "//!" for
	// doc content ("////" included).
	doc := start+2 < len(src) && (src[start+2] == '!' || src[start+2] == '/')
	endLine := line
	if doc {
		// Doc comments own their newline, and gotreesitter's node takes
		// up to two blank lines more (bare "\n"s, measured).
		for k := 0; k < 3 && lx.i < len(src) && src[lx.i] == '\n'; k++ {
			lx.i++
			lx.line++
			endLine = lx.line - 1
		}
	}
	lx.comments = append(lx.comments, comment{start: uint32(start), end: uint32(lx.i), line: line, endLine: endLine})
}

func (lx *lexer) blockComment() {
	src, start := lx.src, lx.i
	line := lx.line
	depth := 0
	for lx.i+1 < len(src) {
		switch {
		case src[lx.i] == '/' && src[lx.i+1] == '*':
			depth++
			lx.i += 2
		case src[lx.i] == '*' && src[lx.i+1] == '/':
			depth--
			lx.i += 2
			if depth == 0 {
				lx.comments = append(lx.comments, comment{start: uint32(start), end: uint32(lx.i), line: line, endLine: lx.line})
				return
			}
		default:
			if src[lx.i] == '\n' {
				lx.line++
			}
			lx.i++
		}
	}
	fail("unterminated block comment")
}

// errFallback declines a file: the tree-sitter path extracts it.
type errFallback struct{ msg string }

func (e *errFallback) Error() string { return "rustscan: " + e.msg }

func fail(format string, args ...any) {
	panic(&errFallback{fmt.Sprintf(format, args...)})
}

// afterFieldDot reports whether the last token is a lone "." (x.0), not
// part of ".." (a range).
func (lx *lexer) afterFieldDot() bool {
	n := len(lx.toks)
	if n == 0 || lx.toks[n-1].kind != tPunct || lx.src[lx.toks[n-1].start] != '.' || lx.toks[n-1].end != uint32(lx.i) {
		return false
	}
	return n < 2 || lx.toks[n-2].kind != tPunct || lx.src[lx.toks[n-2].start] != '.' || lx.toks[n-2].end != lx.toks[n-1].start
}

// radix lexes 0x, 0o and 0b literals; a digit out of the base, or a
// suffix that is no type, declines the file (tree-sitter splits them).
func (lx *lexer) radix(base byte) {
	src, start := lx.src, lx.i
	lx.i += 2
	for lx.i < len(src) {
		c := src[lx.i]
		ok := c == '_' || c >= '0' && c <= '1' ||
			base != 'b' && c >= '2' && c <= '7' ||
			base == 'x' && (c >= '8' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
		if !ok {
			break
		}
		lx.i++
	}
	if lx.i == start+2 {
		fail("radix literal without digits")
	}
	if lx.i < len(src) && (isIdentByte(src[lx.i])) {
		s := lx.i
		for lx.i < len(src) && isIdentByte(src[lx.i]) {
			lx.i++
		}
		if k := keyword(src[s:lx.i]); k != kwPrim || src[s] == 'f' || src[s] == 'b' || src[s] == 's' || src[s] == 'c' {
			fail("radix literal suffix %q", src[s:lx.i])
		}
	}
	lx.add(tNum, start)
}
