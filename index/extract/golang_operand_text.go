package extract

import "bytes"

// Byte-level readers of Go source the operand descriptors use to step
// over expressions, literals, brackets and blanks without a parse: the
// scanner's tokens end at statement granularity, and these walk the text
// between them.

// nthExpr returns the offset of element n (0-based) of the expression
// list of one statement starting at off, or -1 when the list is shorter
// (one multi-valued expression).
func nthExpr(src []byte, off, n int) int {
	depth := 0
	for i := off; i < len(src); i++ {
		switch c := src[i]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				return -1
			}
			depth--
		case '\n', ';':
			if depth == 0 {
				return -1
			}
		case ',':
			if depth == 0 {
				if n--; n == 0 {
					return i + 1
				}
			}
		case '"', '\'', '`':
			end := skipLiteral(src, i)
			if end < 0 {
				return -1
			}
			i = end - 1
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				return -1 // a comment ends the statement
			}
		}
	}
	return -1
}

// skipLiteral returns the offset after the string or rune literal that
// starts at i, or -1 when it does not end.
func skipLiteral(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case q:
			return i + 1
		case '\\':
			if q != '`' {
				i++
			}
		case '\n':
			if q != '`' {
				return -1
			}
		}
	}
	return -1
}

// endsExpr reports whether the expression read so far is complete at j:
// what follows ends a statement or a list element, not an index, operator
// or further selector.
func endsExpr(src []byte, j int) bool {
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
		j++
	}
	if j >= len(src) {
		return true
	}
	switch src[j] {
	case '\n', ';', ')', ',', '}', '{':
		return true
	case '/':
		return j+1 < len(src) && (src[j+1] == '/' || src[j+1] == '*')
	}
	return false
}

func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r' || src[i] == '\n') {
		i++
	}
	return i
}

// identAt reads an ASCII identifier at i; "" when there is none.
func identAt(src []byte, i int) (string, int) {
	j := i
	for j < len(src) {
		c := src[j]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > i && '0' <= c && c <= '9' {
			j++
			continue
		}
		break
	}
	return string(src[i:j]), j
}

// skipBrackets returns the offset after the "]" matching the "[" at i
// on the same line, or -1.
func skipBrackets(src []byte, i int) int {
	depth := 0
	for ; i < len(src) && src[i] != '\n'; i++ {
		switch src[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i + 1
			}
		case '"', '\'', '`':
			end := skipLiteral(src, i)
			if end < 0 {
				return -1
			}
			i = end - 1
		}
	}
	return -1
}

// skipParens returns the offset after the ")" matching the "(" at i,
// skipping string and rune literals, or -1.
func skipParens(src []byte, i int) int {
	depth := 0
	for ; i < len(src); i++ {
		switch c := src[i]; c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"', '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case '`':
			for i++; i < len(src) && src[i] != '`'; i++ {
			}
		}
	}
	return -1
}

// matchBracket returns the offset of the "[" matching the "]" at i on
// the same line, or -1.
func matchBracket(src []byte, i int) int {
	return matchOpen(src, i, '[', ']')
}

// matchOpen returns the offset of the open byte matching the close byte
// at i on the same line, or -1.
func matchOpen(src []byte, i int, open, close byte) int {
	depth := 0
	for ; i >= 0 && src[i] != '\n'; i-- {
		switch src[i] {
		case close:
			depth++
		case open:
			if depth--; depth == 0 {
				return i
			}
		case '"', '\'', '`':
			// m["a"]: back to the literal's opening quote, the first
			// one not escaped (a raw string has no escapes).
			q := src[i]
			for i--; i >= 0 && src[i] != '\n' && (src[i] != q || q != '`' && i > 0 && src[i-1] == '\\'); i-- {
			}
			if i < 0 || src[i] != q {
				return -1
			}
		}
	}
	return -1
}

// skipComment returns the offset of the last byte of the comment starting
// at the "/" at j, or j when none starts there.
func skipComment(src []byte, j int) int {
	if j+1 >= len(src) {
		return j
	}
	switch src[j+1] {
	case '/':
		if n := bytes.IndexByte(src[j:], '\n'); n >= 0 {
			return j + n - 1
		}
		return len(src) - 1
	case '*':
		if n := bytes.Index(src[j+2:], []byte("*/")); n >= 0 {
			return j + 2 + n + 1
		}
		return len(src) - 1
	}
	return j
}

// isIdentByte accepts ASCII identifier bytes and any byte of a multi-byte
// UTF-8 sequence (Go identifiers may be Unicode letters).
func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= 0x80
}
