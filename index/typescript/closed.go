package typescript

// closed is src, the text before a cursor, with the brackets it leaves
// open closed in order, so that it parses as a whole program whose last
// statement is the one being typed. Strings, template literals (and the
// expressions inside them) and comments are skipped; a regular
// expression literal is not told from a division, so a bracket inside one
// is counted: the close is then wrong and the caller's parse says so.
func closed(src []byte) []byte {
	var stack []byte // the closers owed, innermost last; '`' is a template
	inTemplate := func() bool { return len(stack) > 0 && stack[len(stack)-1] == '`' }
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inTemplate() {
			switch {
			case c == '\\':
				i++
			case c == '`':
				stack = stack[:len(stack)-1]
			case c == '$' && i+1 < len(src) && src[i+1] == '{':
				stack = append(stack, '}')
				i++
			}
			continue
		}
		switch c {
		case '(':
			stack = append(stack, ')')
		case '[':
			stack = append(stack, ']')
		case '{':
			stack = append(stack, '}')
		case ')', ']', '}':
			if len(stack) > 0 && stack[len(stack)-1] == c {
				stack = stack[:len(stack)-1]
			}
		case '`':
			stack = append(stack, '`')
		case '\'', '"':
			i = skipQuoted(src, i)
		case '/':
			if i+1 < len(src) && src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
			} else if i+1 < len(src) && src[i+1] == '*' {
				i += 2
				for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
					i++
				}
				i++
			}
		}
	}
	out := make([]byte, 0, len(src)+len(stack)+1)
	out = append(out, src...)
	out = append(out, '\n')
	for j := len(stack) - 1; j >= 0; j-- {
		out = append(out, stack[j])
	}
	return out
}

// skipQuoted is the offset of the quote closing the string opened at i
// (or of the line's end, where an unterminated string stops).
func skipQuoted(src []byte, i int) int {
	q := src[i]
	for i++; i < len(src) && src[i] != q && src[i] != '\n'; i++ {
		if src[i] == '\\' {
			i++
		}
	}
	return i
}
