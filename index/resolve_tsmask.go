package index

import (
	"bytes"
)

// gotreesitter v0.24's TypeScript grammar fails on a class whose extends
// clause has type arguments and whose body has a method:
//
//	class B extends S<T> { m() {} }
//
// parses as one ERROR node (it reads `S < T > {…}` as comparisons), so the
// class, its members and everything after it resolve nothing. In rxjs that
// is Subject, AsyncAction, OperatorSubscriber and a dozen more. Until the
// grammar is fixed, the resolver parses such sources with the type
// arguments' angle brackets turned into parentheses, `extends S(T)`, which
// the grammar reads as a call in the extends clause: every byte keeps its
// offset and every identifier stays an identifier, so positions and
// references are unchanged (tsHeritageCallee reads the call's callee).

// tsMaskHeritage returns src with the type arguments of each class's
// extends clause written as call parentheses, or src itself when it has
// none.
func tsMaskHeritage(src []byte) []byte {
	var out []byte
	for i := 0; ; {
		k := bytes.Index(src[i:], []byte("class"))
		if k < 0 {
			break
		}
		k += i
		i = k + len("class")
		if k > 0 && isIdentByte(src[k-1]) || i >= len(src) || isIdentByte(src[i]) {
			continue
		}
		j := tsSkipSpace(src, i)
		j = tsSkipIdent(src, j)
		if j == i {
			continue
		}
		j = tsSkipSpace(src, j)
		if j < len(src) && src[j] == '<' {
			if j = tsMatchAngle(src, j); j < 0 {
				continue
			}
			j = tsSkipSpace(src, j+1)
		}
		if !bytes.HasPrefix(src[j:], []byte("extends")) {
			continue
		}
		j = tsSkipSpace(src, j+len("extends"))
		for {
			e := tsSkipIdent(src, j)
			if e == j {
				break
			}
			j = e
			if j < len(src) && src[j] == '.' {
				j++
				continue
			}
			break
		}
		j = tsSkipSpace(src, j)
		if j >= len(src) || src[j] != '<' {
			continue
		}
		end := tsMatchAngle(src, j)
		if end < 0 || !tsMaskable(src[j:end+1]) {
			continue
		}
		if out == nil {
			out = bytes.Clone(src)
		}
		for p := j; p <= end; p++ {
			switch src[p] {
			case '<':
				out[p] = '('
			case '>':
				out[p] = ')'
			case '[', ']':
				out[p] = ' '
			}
		}
		i = end + 1
	}
	if out == nil {
		return src
	}
	return out
}

// tsMaskable reports whether type arguments are plain enough to read as
// call arguments once bracketed: names, dots, commas, unions, arrays.
func tsMaskable(args []byte) bool {
	for _, c := range args {
		switch {
		case isIdentByte(c), c == '<', c == '>', c == '.', c == ',', c == ' ', c == '\t', c == '\n', c == '\r',
			c == '|', c == '&', c == '[', c == ']':
		default:
			return false
		}
	}
	return true
}

// tsMatchAngle is the index of the '>' closing the '<' at src[i], or -1.
func tsMatchAngle(src []byte, i int) int {
	depth := 0
	for p := i; p < len(src); p++ {
		switch src[p] {
		case '<':
			depth++
		case '>':
			if p > 0 && src[p-1] == '=' {
				continue // an arrow in a function type
			}
			if depth--; depth == 0 {
				return p
			}
		case '{', ';':
			return -1
		}
	}
	return -1
}

func tsSkipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

func tsSkipIdent(src []byte, i int) int {
	for i < len(src) && isIdentByte(src[i]) {
		i++
	}
	return i
}
