package extract

import (
	"bytes"
)

// gotreesitter v0.24's TypeScript grammar fails on two common constructs,
// which the TypeScript and TSX extractors mask before parsing (tsMask, the
// spec's mask; ParseTree too, so the index's resolver reads the same
// trees). Masking keeps every byte's offset and every identifier, so
// positions, names and the text read from the original source are
// unchanged.
//
// A class whose extends clause has type arguments and whose body has a
// method:
//
//	class B extends S<T> { m() {} }
//
// parses as one ERROR node (it reads `S < T > {…}` as comparisons), so the
// class, its members and everything after it lose their symbols and
// resolve nothing. In rxjs that is Subject, AsyncAction,
// OperatorSubscriber and a dozen more. Until the grammar is fixed, such
// sources are parsed with the type arguments' angle brackets turned into
// parentheses, `extends S(T)`, which the grammar reads as a call in the
// extends clause (the resolver's tsHeritageCallee reads the call's
// callee).
//
// A parameter whose default is a literal and that has no type annotation,
// `function interval(period = 0, s: S)`, `(x = 'a') =>`, `m(y = false)`:
// the function becomes an ERROR node. tsMaskDefaults writes such a literal
// as underscores, an identifier default, which the grammar reads.

// tsMask is src as it is parsed: tsMaskHeritage, then
// tsMaskDefaults.
func tsMask(src []byte) []byte {
	return tsMaskDefaults(tsMaskHeritage(src))
}

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
		if k > 0 && tsIdentByte(src[k-1]) || i >= len(src) || tsIdentByte(src[i]) {
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
		case tsIdentByte(c), c == '<', c == '>', c == '.', c == ',', c == ' ', c == '\t', c == '\n', c == '\r',
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
	for i < len(src) && tsIdentByte(src[i]) {
		i++
	}
	return i
}

// tsMaskDefaults returns src (a copy once changed) with each literal
// default of an unannotated parameter, `(x = 0,` or `, x = 'a')`, written
// as underscores.
func tsMaskDefaults(src []byte) []byte {
	out, copied := src, false
	for i := 0; i < len(src); i++ {
		if src[i] != '=' || i+1 < len(src) && (src[i+1] == '=' || src[i+1] == '>') ||
			i > 0 && bytes.IndexByte([]byte("=!<>+-*/%&|^?"), src[i-1]) >= 0 {
			continue
		}
		// Before: ( or , then a name.
		e := i
		for e > 0 && (src[e-1] == ' ' || src[e-1] == '\t') {
			e--
		}
		b := e
		for b > 0 && tsIdentByte(src[b-1]) {
			b--
		}
		if b == e || src[b] >= '0' && src[b] <= '9' {
			continue
		}
		for b > 0 && (src[b-1] == ' ' || src[b-1] == '\t' || src[b-1] == '\n' || src[b-1] == '\r') {
			b--
		}
		if b == 0 || src[b-1] != '(' && src[b-1] != ',' {
			continue
		}
		// After: a literal, then , or ).
		start := tsSkipSpace(src, i+1)
		end := tsLiteralEnd(src, start)
		if end < 0 {
			continue
		}
		if k := tsSkipSpace(src, end); k >= len(src) || src[k] != ',' && src[k] != ')' {
			continue
		}
		if !copied {
			out, copied = bytes.Clone(src), true
		}
		for p := start; p < end; p++ {
			out[p] = '_'
		}
		i = end - 1
	}
	return out
}

// tsLiteralEnd is the end of the number, string, boolean, null or
// undefined literal at src[i], or -1.
func tsLiteralEnd(src []byte, i int) int {
	if i >= len(src) {
		return -1
	}
	switch c := src[i]; {
	case c == '\'' || c == '"':
		for p := i + 1; p < len(src); p++ {
			switch src[p] {
			case c:
				return p + 1
			case '\\', '\n', '`':
				return -1
			}
		}
		return -1
	case c == '-' || c >= '0' && c <= '9':
		p := i + 1
		for p < len(src) && (tsIdentByte(src[p]) || src[p] == '.') {
			p++
		}
		if p == i+1 && c == '-' {
			return -1
		}
		return p
	}
	e := tsSkipIdent(src, i)
	switch string(src[i:e]) {
	case "true", "false", "null", "undefined":
		return e
	}
	return -1
}

func tsIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// TSMask is src as the TypeScript and TSX extractors parse it (tsMask),
// for scanners that must read the same syntax: index/extract/tsscan.
func TSMask(src []byte) []byte { return tsMask(src) }
