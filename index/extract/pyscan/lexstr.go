package pyscan

import "bytes"

// Literals and operators of the lexer.

// isStrPrefix reports whether p is a string prefix (r, b, u, f and their
// legal combinations, any case).
func isStrPrefix(p []byte) bool {
	if len(p) > 2 {
		return false
	}
	var r, b, u, f int
	for _, c := range p {
		switch c | 0x20 {
		case 'r':
			r++
		case 'b':
			b++
		case 'u':
			u++
		case 'f':
			f++
		default:
			return false
		}
	}
	if r > 1 || b > 1 || u > 1 || f > 1 {
		return false
	}
	return u == 0 || len(p) == 1
}

// str lexes a string literal whose prefix starts at s and whose quote is
// at l.pos.
func (l *lexer) str(s int) error {
	end, err := stringEnd(l.src, s)
	if err != nil {
		return err
	}
	l.pos = end
	l.emit(tString, s, end)
	return nil
}

// stringEnd returns the end of the string literal whose prefix starts at
// s. In an f-string a quote of the literal's own kind cannot appear inside
// a replacement field before Python 3.12, so the first unescaped closing
// quote ends it; a backslash escapes the next byte in every kind, raw
// included.
func stringEnd(src []byte, s int) (int, error) {
	i := s
	for i < len(src) && src[i] != '\'' && src[i] != '"' {
		i++
	}
	if i >= len(src) {
		return 0, fallback("bad string")
	}
	q := src[i]
	triple := i+2 < len(src) && src[i+1] == q && src[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			i += 2
			continue
		case c == q:
			if !triple {
				return i + 1, nil
			}
			if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
				return i + 3, nil
			}
		case (c == '\n' || c == '\r') && !triple:
			return 0, fallback("unterminated string")
		}
		i++
	}
	return 0, fallback("unterminated string")
}

// number lexes a numeric literal; a '.' after the exponent or a first
// '.' starts an attribute (1.5e100.__format__).
func (l *lexer) number() {
	src := l.src
	s := l.pos
	dot, exp := false, false
	for l.pos < len(src) {
		c := src[l.pos]
		if c == '.' {
			if dot || exp || isHex(src[s:l.pos]) {
				break
			}
			dot = true
		}
		if (c == 'e' || c == 'E') && !isHex(src[s:l.pos]) {
			exp = true
		}
		switch {
		case c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.':
			if (c == 'e' || c == 'E') && l.pos+1 < len(src) && (src[l.pos+1] == '+' || src[l.pos+1] == '-') && !isHex(src[s:l.pos]) {
				l.pos++
			}
			l.pos++
			continue
		}
		break
	}
	l.emit(tNumber, s, l.pos)
	if !validNumber(src[s:l.pos]) {
		// tree-sitter reads 1.5e as 1.5 and a name e; Python rejects it.
		l.err = &errFallback{why: "invalid number", line: 1 + bytes.Count(src[:s], []byte("\n"))}
	}
}

// validNumber reports whether b is a Python numeric literal.
func validNumber(b []byte) bool {
	if len(b) > 2 && b[0] == '0' {
		digits := b[2:]
		if digits[0] == '_' { // 0x_ff
			digits = digits[1:]
		}
		switch b[1] | 0x20 {
		case 'x':
			return digitsIn(digits, "0123456789abcdefABCDEF")
		case 'o':
			return digitsIn(digits, "01234567")
		case 'b':
			return digitsIn(digits, "01")
		}
	}
	if n := len(b); n > 0 && b[n-1]|0x20 == 'j' {
		b = b[:n-1]
	}
	mant, exp := b, []byte(nil)
	for i, c := range b {
		if c|0x20 == 'e' {
			mant, exp = b[:i], b[i+1:]
			if len(exp) > 0 && (exp[0] == '+' || exp[0] == '-') {
				exp = exp[1:]
			}
			if !digitsIn(exp, "0123456789") {
				return false
			}
			break
		}
	}
	intPart, frac, dot := mant, []byte(nil), false
	for i, c := range mant {
		if c == '.' {
			intPart, frac, dot = mant[:i], mant[i+1:], true
			break
		}
	}
	switch {
	case !dot:
		return digitsIn(intPart, "0123456789")
	case len(intPart) == 0:
		return digitsIn(frac, "0123456789")
	case len(frac) == 0:
		return digitsIn(intPart, "0123456789")
	}
	return digitsIn(intPart, "0123456789") && digitsIn(frac, "0123456789")
}

// digitsIn reports whether b is digits of set, single underscores allowed
// between them.
func digitsIn(b []byte, set string) bool {
	if len(b) == 0 || b[0] == '_' || b[len(b)-1] == '_' {
		return false
	}
	for i, c := range b {
		if c == '_' {
			if b[i-1] == '_' {
				return false
			}
			continue
		}
		if !oneOfByte(c, set) {
			return false
		}
	}
	return true
}

func isHex(b []byte) bool { return len(b) > 1 && b[0] == '0' && (b[1]|0x20) == 'x' }

// op lexes an operator or delimiter, the longest that matches.
func (l *lexer) op() error {
	src := l.src[l.pos:]
	n := 1
	switch c := src[0]; c {
	case '(', '[', '{':
		l.depth++
	case ')', ']', '}':
		if l.depth == 0 {
			return fallback("unbalanced bracket")
		}
		l.depth--
	case ',', ';', '~':
	case '.':
		if len(src) >= 3 && src[1] == '.' && src[2] == '.' {
			n = 3
		}
	case '-':
		if len(src) >= 2 && (src[1] == '>' || src[1] == '=') {
			n = 2
		}
	case ':', '+', '%', '@', '&', '|', '^', '=':
		if len(src) >= 2 && src[1] == '=' {
			n = 2
		}
	case '!':
		if len(src) < 2 || src[1] != '=' {
			return fallback("unknown character")
		}
		n = 2
	case '*', '/', '<', '>':
		// **, //, <<, >>, each maybe with '='; <= >= *= /=.
		if len(src) >= 2 && src[1] == c {
			n = 2
		}
		if len(src) > n && src[n] == '=' {
			n++
		}
	default:
		return fallback("unknown character")
	}
	l.emit(tOp, l.pos, l.pos+n)
	l.pos += n
	return nil
}
