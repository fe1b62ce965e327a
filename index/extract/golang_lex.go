package extract

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// goLexer is a minimal Go tokenizer for the scan pass. It only tells apart
// what scanGo needs (identifiers, the keywords that matter, brackets,
// && and ||, comments, and the semicolons the language inserts at line
// ends); everything else is an "other" token. It is about twice as fast as
// go/scanner because it never builds literal strings and copies comment
// text only when the comment holds a TODO-style marker. The parse pass
// still uses go/parser, so a lexing mistake can only cost speed or a
// reference, never a wrong declaration.
type goLexer struct {
	src   []byte
	pos   int
	lines []int // offsets of line starts seen so far
	// semi is set when a newline after the previous token would end the
	// statement (Go's automatic semicolon rule).
	semi bool
}

type lexTok uint8

const (
	tEOF lexTok = iota
	tIdent
	tComment
	tSemi
	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tBranch // if, for, case, &&, ||
	tFunc
	tTypeLit // struct, interface
	tVar     // var, const
	tType    // type
	tAssign  // a lone "="
	tDot     // a selector's "." (not "..." or a number's)
	tComma
	tDefine // ":="
	tSwitch // switch, select (a statement header that may declare)
	tOther
)

// newGoLexer lexes src, collecting line starts into lines (reused).
func newGoLexer(src []byte, lines []int) *goLexer {
	return &goLexer{src: src, lines: append(lines[:0], 0)}
}

// next returns the next token and its start offset; for identifiers and
// comments, end is the offset after it.
func (l *goLexer) next() (tok lexTok, start, end int) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case '\n':
			l.line(l.pos + 1)
			l.pos++
			if l.semi {
				l.semi = false
				return tSemi, l.pos - 1, l.pos
			}
			continue
		case ' ', '\t', '\r':
			l.pos++
			continue
		}
		break
	}
	start = l.pos
	if l.pos >= len(l.src) {
		if l.semi {
			l.semi = false
			return tSemi, start, start
		}
		return tEOF, start, start
	}
	c := l.src[l.pos]
	switch {
	case asciiClass[c] == classLetter || c >= utf8.RuneSelf && l.letterAt(l.pos):
		return l.word(start)
	case '0' <= c && c <= '9' || c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		l.number()
		l.semi = true
		return tOther, start, l.pos
	}
	l.pos++
	if c == '/' && l.pos < len(l.src) && (l.src[l.pos] == '/' || l.src[l.pos] == '*') {
		return l.comment(start) // comments leave the semicolon state alone
	}
	l.semi = false
	switch c {
	case '"', '\'':
		l.quoted(c)
		l.semi = true
	case '`':
		l.raw()
		l.semi = true
	case '(':
		return tLParen, start, l.pos
	case ')':
		l.semi = true
		return tRParen, start, l.pos
	case '[':
		return tLBrack, start, l.pos
	case ']':
		l.semi = true
		return tRBrack, start, l.pos
	case '{':
		return tLBrace, start, l.pos
	case '}':
		l.semi = true
		return tRBrace, start, l.pos
	case ';':
		return tSemi, start, l.pos
	case ',':
		return tComma, start, l.pos
	case ':':
		if l.pos < len(l.src) && l.src[l.pos] == '=' {
			l.pos++
			return tDefine, start, l.pos
		}
	case '&', '|':
		if l.pos < len(l.src) && l.src[l.pos] == c {
			l.pos++
			return tBranch, start, l.pos
		}
	case '+', '-':
		if l.pos < len(l.src) && l.src[l.pos] == c { // ++ and -- end statements
			l.pos++
			l.semi = true
		}
	case '=':
		if l.pos < len(l.src) && l.src[l.pos] == '=' {
			l.pos++
			return tOther, start, l.pos
		}
		return tAssign, start, l.pos
	case '.':
		if l.pos+1 < len(l.src) && l.src[l.pos] == '.' && l.src[l.pos+1] == '.' {
			l.pos += 2
			return tOther, start, l.pos
		}
		return tDot, start, l.pos
	}
	// Compound operators ("!=", "<=", ":=", "+=", ...) must not leave a
	// lone "=" behind.
	if l.pos < len(l.src) && l.src[l.pos] == '=' && bytes.IndexByte([]byte("!<>:*/%^&|+-"), c) >= 0 {
		l.pos++
	}
	return tOther, start, l.pos
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// asciiClass classifies bytes for identifiers: one table load instead of
// up to seven comparisons per byte of every identifier in GOROOT/src.
var asciiClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			t[c] = classLetter
		case isDigit(byte(c)):
			t[c] = classDigit
		}
	}
	return t
}()

const (
	classOther uint8 = iota
	classLetter
	classDigit
)

func (l *goLexer) letterAt(i int) bool {
	r, _ := utf8.DecodeRune(l.src[i:])
	return unicode.IsLetter(r)
}

// word scans an identifier or keyword.
func (l *goLexer) word(start int) (lexTok, int, int) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if asciiClass[c] != classOther {
			l.pos++
			continue
		}
		if c < utf8.RuneSelf {
			break
		}
		r, size := utf8.DecodeRune(l.src[l.pos:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		l.pos += size
	}
	w := l.src[start:l.pos]
	l.semi = false
	if len(w) >= 2 && len(w) <= 11 && 'a' <= w[0] && w[0] <= 'z' {
		switch string(w) {
		case "if", "for", "case":
			return tBranch, start, l.pos
		case "func":
			return tFunc, start, l.pos
		case "struct", "interface":
			return tTypeLit, start, l.pos
		case "break", "continue", "fallthrough", "return":
			l.semi = true
			return tOther, start, l.pos
		case "var", "const":
			return tVar, start, l.pos
		case "type":
			return tType, start, l.pos
		case "switch", "select":
			return tSwitch, start, l.pos
		case "chan", "default", "defer", "else", "go", "goto", "import",
			"map", "package", "range":
			return tOther, start, l.pos
		}
	}
	l.semi = true
	return tIdent, start, l.pos
}

// number skips a numeric literal, including exponents with signs.
func (l *goLexer) number() {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isDigit(c) || c == '.' || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			l.pos++
		case (c == '+' || c == '-') && l.pos > 0 && bytes.IndexByte([]byte("eEpP"), l.src[l.pos-1]) >= 0:
			l.pos++
		default:
			return
		}
	}
}

// quoted skips an interpreted string or rune literal; it stops at the end
// of the line if the literal is unterminated, as the Go scanner does.
func (l *goLexer) quoted(q byte) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case '\\':
			// An escaped newline does not continue the literal (go/scanner
			// leaves it unconsumed): skipping it would lose a line start.
			if l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n' {
				l.pos++
				return
			}
			l.pos += 2
			continue
		case '\n':
			return
		}
		l.pos++
		if c == q {
			return
		}
	}
	l.pos = min(l.pos, len(l.src))
}

func (l *goLexer) raw() {
	end := bytes.IndexByte(l.src[l.pos:], '`')
	if end < 0 {
		end = len(l.src) - l.pos
	}
	l.markLines(l.pos, l.pos+end)
	l.pos = min(l.pos+end+1, len(l.src))
}

// comment scans a comment starting at start (l.pos is past the '/'). The
// newline that ends a line comment is left for next, which inserts the
// semicolon if one is due.
func (l *goLexer) comment(start int) (lexTok, int, int) {
	if l.src[l.pos] == '/' {
		end := bytes.IndexByte(l.src[l.pos:], '\n')
		if end < 0 {
			end = len(l.src) - l.pos
		}
		l.pos += end
		return tComment, start, l.pos
	}
	end := bytes.Index(l.src[l.pos+1:], []byte("*/"))
	if end < 0 {
		l.markLines(l.pos, len(l.src))
		l.pos = len(l.src)
		return tComment, start, l.pos
	}
	stop := l.pos + 1 + end + 2
	l.markLines(l.pos, stop)
	l.pos = stop
	return tComment, start, stop
}

// markLines records the line starts inside src[from:to].
func (l *goLexer) markLines(from, to int) {
	for i := from; i < to; {
		j := bytes.IndexByte(l.src[i:to], '\n')
		if j < 0 {
			return
		}
		l.line(i + j + 1)
		i += j + 1
	}
}

// line records a line start; like token.File, none at the very end.
func (l *goLexer) line(off int) {
	if off < len(l.src) {
		l.lines = append(l.lines, off)
	}
}
