package javascan

import (
	"errors"
	"strconv"
)

// The lexer turns a file into Java's tokens: identifiers (contextual
// keywords such as record, yield or var included: the parser decides
// what they are where they stand), reserved keywords, literals and
// operators. Comments go to their own list; the parser never sees them.
// Brackets ((), [], {}) are matched here, so the parser can skip a
// balanced group in one step and an unbalanced file declines at once.

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tKw  // a reserved keyword; tok.kw says which
	tLit // number, string, text block or character literal
	tOp  // operator or punctuation; tok.op says which
)

// tok is one token, [start, end) in the source. match is the index of
// the matching bracket for ( ) [ ] { }, else 0.
type tok struct {
	kind       tokKind
	kw         kwID
	op         byte // the operator's code (see ops)
	start, end uint32
	match      int32
}

// Operator codes: single-byte operators are their byte; the multi-byte
// ones the parser tells apart get a code of their own.
const (
	opArrow    = 'A' // ->
	opColons   = 'C' // ::
	opAndAnd   = '&' + 0x80
	opOrOr     = '|' + 0x80
	opEllipsis = 'E' // ...
	opOther    = 'O' // any other multi-byte operator (==, +=, <=, ++ ...)
)

// errFallback marks input the scanner does not handle with certainty; the
// caller then uses the tree-sitter path. The message says why.
type errFallback struct {
	why  string
	line int
}

func (e *errFallback) Error() string {
	if e.line > 0 {
		return "javascan: line " + strconv.Itoa(e.line) + ": " + e.why
	}
	return "javascan: " + e.why
}

func fallback(why string) error { return &errFallback{why: why} }

// IsFallback reports whether err is the scanner declining a file.
func IsFallback(err error) bool {
	var f *errFallback
	return errors.As(err, &f)
}

// comment is one comment of the file.
type comment struct{ start, end uint32 }

type lexer struct {
	src      []byte
	pos      int
	toks     []tok
	comments []comment
	open     []int32 // indices of unmatched opening brackets
}

// lex tokenizes src completely; the last token is tEOF.
func lex(src []byte) ([]tok, []comment, error) {
	l := &lexer{src: src, toks: make([]tok, 0, len(src)/5+16)}
	if err := l.run(); err != nil {
		return nil, nil, err
	}
	return l.toks, l.comments, nil
}

func isIdentStart(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '_' || b == '$'
}

func isIdentByte(b byte) bool { return isIdentStart(b) || b >= '0' && b <= '9' }

func (l *lexer) fail(why string) error {
	line := 1
	for _, c := range l.src[:min(l.pos, len(l.src))] {
		if c == '\n' {
			line++
		}
	}
	return &errFallback{why: why, line: line}
}

func (l *lexer) run() error {
	src := l.src
	if len(src) >= 3 && src[0] == 0xef && src[1] == 0xbb && src[2] == 0xbf {
		return fallback("byte order mark") // tree-sitter's token source reads it as text
	}
	for l.pos < len(src) {
		c := src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			l.pos++
		case isIdentStart(c):
			if err := l.ident(); err != nil {
				return err
			}
		case c >= 0x80:
			if err := l.unicodeIdent(); err != nil {
				return err
			}
		case c >= '0' && c <= '9' || c == '.' && l.pos+1 < len(src) && src[l.pos+1] >= '0' && src[l.pos+1] <= '9':
			// tree-sitter's token source reads .5 as an error node
			// holding . and then 5: no record differs.
			l.number()
		case c == '"':
			if err := l.str(); err != nil {
				return err
			}
		case c == '\'':
			if err := l.char(); err != nil {
				return err
			}
		case c == '/' && l.pos+1 < len(src) && (src[l.pos+1] == '/' || src[l.pos+1] == '*'):
			if err := l.comment(); err != nil {
				return err
			}
		default:
			if err := l.operator(c); err != nil {
				return err
			}
		}
	}
	if len(l.open) > 0 {
		return l.fail("unclosed bracket")
	}
	l.toks = append(l.toks, tok{kind: tEOF, start: uint32(len(src)), end: uint32(len(src))})
	return nil
}

func (l *lexer) add(kind tokKind, start int) {
	l.toks = append(l.toks, tok{kind: kind, start: uint32(start), end: uint32(l.pos)})
}

func (l *lexer) ident() error {
	start := l.pos
	for l.pos < len(l.src) && isIdentByte(l.src[l.pos]) {
		l.pos++
	}
	if l.pos < len(l.src) && (l.src[l.pos] >= 0x80 || l.src[l.pos] == '\\') {
		l.pos = start
		return l.unicodeIdent()
	}
	if k := keyword(l.src[start:l.pos]); k != kwNone {
		l.toks = append(l.toks, tok{kind: tKw, kw: k, start: uint32(start), end: uint32(l.pos)})
		return nil
	}
	l.add(tIdent, start)
	return nil
}

// unicodeIdent declines an identifier with a non-ASCII letter or a
// unicode escape: tree-sitter's Java token source does not read either
// as part of a name (int été = 1 is an error tree there), so only the
// tree-sitter path can say what its records are.
func (l *lexer) unicodeIdent() error {
	for l.pos < len(l.src) && isIdentByte(l.src[l.pos]) {
		l.pos++
	}
	if l.pos < len(l.src) && l.src[l.pos] == '\\' {
		return l.fail("unicode escape outside a literal")
	}
	return l.fail("non-ASCII character outside a literal")
}

// number reads a numeric literal loosely: digits, letters, underscores,
// dots and an exponent's sign. The records need only its extent.
func (l *lexer) number() {
	start := l.pos
	src := l.src
	hex := l.pos+1 < len(src) && src[l.pos] == '0' && (src[l.pos+1] == 'x' || src[l.pos+1] == 'X')
	for l.pos < len(src) {
		c := src[l.pos]
		switch {
		case isIdentByte(c) && c != '$':
			l.pos++
			if (c == 'e' || c == 'E') && !hex || (c == 'p' || c == 'P') && hex {
				if l.pos < len(src) && (src[l.pos] == '+' || src[l.pos] == '-') {
					l.pos++
				}
			}
		case c == '.' && !(l.pos+1 < len(src) && src[l.pos+1] == '.'):
			l.pos++
		default:
			l.add(tLit, start)
			return
		}
	}
	l.add(tLit, start)
}

func (l *lexer) str() error {
	start := l.pos
	src := l.src
	if l.pos+2 < len(src) && src[l.pos+1] == '"' && src[l.pos+2] == '"' {
		return l.textBlock()
	}
	for l.pos++; l.pos < len(src); l.pos++ {
		switch src[l.pos] {
		case '\\':
			l.pos++
		case '\n':
			return l.fail("newline in a string")
		case '"':
			l.pos++
			l.add(tLit, start)
			return nil
		}
	}
	return l.fail("unterminated string")
}

func (l *lexer) textBlock() error {
	start := l.pos
	src := l.src
	l.pos += 3
	// Only blanks may follow the opening quotes on their line.
	for l.pos < len(src) && (src[l.pos] == ' ' || src[l.pos] == '\t' || src[l.pos] == '\f' || src[l.pos] == '\r') {
		l.pos++
	}
	if l.pos >= len(src) || src[l.pos] != '\n' {
		return l.fail("text block without a line break")
	}
	for ; l.pos < len(src); l.pos++ {
		switch src[l.pos] {
		case '\\':
			l.pos++
		case '"':
			if l.pos+2 < len(src) && src[l.pos+1] == '"' && src[l.pos+2] == '"' {
				l.pos += 3
				l.add(tLit, start)
				return nil
			}
		}
	}
	return l.fail("unterminated text block")
}

func (l *lexer) char() error {
	start := l.pos
	src := l.src
	for l.pos++; l.pos < len(src); l.pos++ {
		switch src[l.pos] {
		case '\\':
			l.pos++
		case '\n':
			return l.fail("newline in a character literal")
		case '\'':
			l.pos++
			if l.pos-start < 3 {
				return l.fail("empty character literal")
			}
			l.add(tLit, start)
			return nil
		}
	}
	return l.fail("unterminated character literal")
}

func (l *lexer) comment() error {
	start := l.pos
	src := l.src
	if src[l.pos+1] == '/' {
		for l.pos < len(src) && src[l.pos] != '\n' {
			l.pos++
		}
	} else {
		end := -1
		for i := l.pos + 2; i+1 < len(src); i++ {
			if src[i] == '*' && src[i+1] == '/' {
				end = i + 2
				break
			}
		}
		if end < 0 {
			return l.fail("unterminated comment")
		}
		l.pos = end
	}
	l.comments = append(l.comments, comment{uint32(start), uint32(l.pos)})
	return nil
}

// operator reads punctuation. > is always one token (a>>b and
// List<List<T>> read the same to the scanner, which never evaluates).
func (l *lexer) operator(c byte) error {
	start := l.pos
	src := l.src
	next := byte(0)
	if l.pos+1 < len(src) {
		next = src[l.pos+1]
	}
	op := c
	n := 1
	switch c {
	case '(', '[', '{':
		l.open = append(l.open, int32(len(l.toks)))
	case ')', ']', '}':
		k := len(l.open) - 1
		if k < 0 || src[l.toks[l.open[k]].start] != pair(c) {
			return l.fail("unbalanced bracket")
		}
		l.toks[l.open[k]].match = int32(len(l.toks))
		l.pos++
		l.toks = append(l.toks, tok{kind: tOp, op: c, start: uint32(start), end: uint32(l.pos), match: l.open[k]})
		l.open = l.open[:k]
		return nil
	case '-':
		switch next {
		case '>':
			op, n = opArrow, 2
		case '-', '=':
			op, n = opOther, 2
		}
	case ':':
		if next == ':' {
			op, n = opColons, 2
		}
	case '&', '|':
		if next == c {
			op, n = c+0x80, 2
		} else if next == '=' {
			op, n = opOther, 2
		}
	case '.':
		if next == '.' && l.pos+2 < len(src) && src[l.pos+2] == '.' {
			op, n = opEllipsis, 3
		}
	case '+':
		if next == '+' || next == '=' {
			op, n = opOther, 2
		}
	case '=', '!', '*', '/', '%', '^':
		if next == '=' {
			op, n = opOther, 2
		}
	case '<':
		if next == '=' {
			op, n = opOther, 2
		}
	case ';', ',', '@', '?', '~', '>':
	default:
		return l.fail("unexpected character " + strconv.QuoteRune(rune(c)))
	}
	l.pos += n
	l.toks = append(l.toks, tok{kind: tOp, op: op, start: uint32(start), end: uint32(l.pos)})
	return nil
}

func pair(c byte) byte {
	switch c {
	case ')':
		return '('
	case ']':
		return '['
	}
	return '{'
}
