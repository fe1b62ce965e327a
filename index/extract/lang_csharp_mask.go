package extract

import "bytes"

// gotreesitter v0.24 parses C# first with its GSS-forest parser and falls
// back to its production GLR parser when the forest parser reaches a dead
// end. On valid code the fallback is 5-10x slower (a 24 KB service: ~0.1 s
// of CPU on the forest path, 0.75-0.9 s on the fallback, which runs with 8
// stack versions it does not merge), and when the tree it returns has an
// ERROR node, the library's C# result passes (normalizeCSharpQueryExpressions,
// normalizeCSharpRecoveredTopLevelChunks and others) reparse the whole
// file or each top-level chunk again: with one LINQ query expression and
// one error anywhere, that costs 20 s of CPU, and the parse budget is gone
// long before a tree comes back. Two common C# 11/12 constructs take the
// parser there, so the C# extractor masks them before parsing (csMask, the
// spec's mask, which ParseTree uses too). Like tsMask, masking keeps every
// byte's offset and every identifier; names, signatures and docs are read
// from the original source.
//
// An empty collection expression, `List<int> xs = [];`, `return [];`,
// `F([])`: the forest parser dead-ends at its `]` (one with elements,
// `[1, 2]`, parses). csMaskEmptyCollection writes it as an empty string
// literal, `""`, an expression that is valid wherever `[]` is.
//
// An interpolation whose expression ends in an element access of a name,
// `$"first: {items[0]}"`: both parsers fail at the `}` (they read
// `items[0]` as an array type), and the whole file becomes one ERROR node.
// The access's brackets are written as parentheses, `{items(0)}`, an
// invocation: the name stays a reference, though one marked as a call.
//
// A slice pattern with a subpattern, `is [1, .. var rest]`, which the
// grammar lacks (its slice_pattern is `..` alone), and a slice followed by
// more elements, `is [.., var last]`, on which the forest parser
// dead-ends: csMaskSlice writes the slice as a discard, `[1, _, var rest]`,
// `[_ , var last]`.

// csMask is src as it is parsed, or src itself when nothing is masked.
func csMask(src []byte) []byte {
	m := csMasker{src: src}
	m.code(0, 0)
	if m.out == nil {
		return src
	}
	return m.out
}

// csMasker scans C# source, skipping comments, character literals and
// string contents, and descending into interpolation holes, which hold
// code.
type csMasker struct {
	src []byte
	out []byte // a copy of src once something is masked
}

func (m *csMasker) set(i int, c byte) {
	if m.out == nil {
		m.out = bytes.Clone(m.src)
	}
	m.out[i] = c
}

// code scans code from i. With hole > 0 it is the expression of an
// interpolation closed by hole braces: it stops there, or at a format
// clause, and returns the index just past the closing braces. Otherwise it
// scans to the end of src.
func (m *csMasker) code(i, hole int) int {
	src := m.src
	depth := 0     // open (, [ and { within this run
	var open []int // positions of the open [s
	last := -1     // the last significant code byte
	lastOpen := -1 // the [ matched by the ] at last, if that is a ]
	lineStart := true
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '#' && lineStart && hole == 0:
			// A preprocessor line: `#region Don't` is no char literal.
			i = csLineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = csLineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if e := bytes.Index(src[i+2:], []byte("*/")); e >= 0 {
				i += e + 4
			} else {
				i = len(src)
			}
			continue
		}
		lineStart = false
		if j, ok := m.literal(i); ok {
			i, last, lastOpen = j, j-1, -1
			continue
		}
		if c == '.' && m.maskSlice(i, last) {
			i, last, lastOpen = i+2, i+1, -1
			continue
		}
		switch c {
		case '[':
			if e := csEmptyCollection(src, i, last); e > 0 {
				m.set(i, '"')
				m.set(e, '"')
				i, last, lastOpen = e+1, e, -1
				continue
			}
			open = append(open, i)
			depth++
		case '(', '{':
			depth++
		case ']':
			lastOpen = -1
			if len(open) > 0 {
				lastOpen = open[len(open)-1]
				open = open[:len(open)-1]
			}
			depth--
			last = i
			i++
			continue
		case ')':
			depth--
		case '}':
			if hole > 0 && depth <= 0 {
				if last >= 0 && src[last] == ']' && lastOpen >= 0 {
					m.maskHoleAccess(lastOpen, last)
				}
				return csSkipRun(src, i, '}', hole)
			}
			depth--
		case ':':
			if hole > 0 && depth <= 0 && !(i+1 < len(src) && src[i+1] == ':') && !(last >= 0 && src[last] == ':') {
				// A format clause runs to the hole's closing braces.
				for i < len(src) && src[i] != '}' && src[i] != '"' {
					i++
				}
				if i < len(src) && src[i] == '}' {
					return csSkipRun(src, i, '}', hole)
				}
				return i
			}
		}
		last, lastOpen = i, -1
		i++
	}
	return i
}

// maskHoleAccess writes the element access src[open:close+1] ending an
// interpolation as an invocation, when it indexes a name (`items[0]`,
// `a.b[i]`, `items?[0]`); other expressions ending in `]` parse.
func (m *csMasker) maskHoleAccess(open, close int) {
	p := open - 1
	if p >= 0 && m.src[p] == '?' {
		p--
	}
	if p < 0 || !csIdentByte(m.src[p]) {
		return
	}
	if m.src[open-1] == '?' {
		m.set(open-1, ' ')
	}
	m.set(open, '(')
	m.set(close, ')')
}

// maskSlice masks the slice pattern `..` at src[i] when it starts a list
// pattern element (after [ or ",", last being that byte) and is followed by
// another element or by `var name`; it reports whether it did.
func (m *csMasker) maskSlice(i, last int) bool {
	src := m.src
	if i+2 >= len(src) || src[i+1] != '.' || src[i+2] == '.' || last < 0 || src[last] != '[' && src[last] != ',' {
		return false
	}
	j := tsSkipSpace(src, i+2)
	switch {
	case j < len(src) && src[j] == ',':
		m.set(i, '_')
		m.set(i+1, ' ')
	case j > i+2 && bytes.HasPrefix(src[j:], []byte("var ")) && tsSkipIdent(src, tsSkipSpace(src, j+4)) > tsSkipSpace(src, j+4):
		m.set(i, '_')
		m.set(i+1, ',')
	default:
		return false
	}
	return true
}

// csEmptyCollection is the index of the ] closing an empty collection
// expression opened at src[i], or 0. last is the code byte before it: the
// expression follows =, =>, (, ",", [, {, a named argument's or a
// conditional's : or ?, return or in. After a name, `>` or a tight `?`,
// brackets are an array type's (`int[]`, `List<T>[]`, `T?[]`), and after
// `is` or `case` a list pattern, which parses.
func csEmptyCollection(src []byte, i, last int) int {
	e := i + 1
	for e < len(src) && (src[e] == ' ' || src[e] == '\t') {
		e++
	}
	if e >= len(src) || src[e] != ']' || last < 0 {
		return 0
	}
	switch src[last] {
	case '=', '(', ',', '[', '{':
		return e
	case '>':
		if last > 0 && src[last-1] == '=' {
			return e
		}
	case ':':
		if last == 0 || src[last-1] != ':' {
			return e
		}
	case '?':
		if last+1 < i {
			return e
		}
	default:
		b := last + 1
		for b > 0 && csIdentByte(src[b-1]) {
			b--
		}
		switch string(src[b : last+1]) {
		case "return", "in":
			if b == 0 || src[b-1] != '.' && src[b-1] != '@' {
				return e
			}
		}
	}
	return 0
}

// literal skips the character, string or interpolated string literal at
// src[i], returning the index past it, or false when none starts there.
func (m *csMasker) literal(i int) (int, bool) {
	src := m.src
	if src[i] == '\'' {
		return csCharEnd(src, i), true
	}
	dollars, verbatim, j := 0, false, i
	for j < len(src) && (src[j] == '$' || src[j] == '@') {
		if src[j] == '$' {
			dollars++
		} else {
			verbatim = true
		}
		j++
	}
	if j >= len(src) || src[j] != '"' || verbatim && j-i-dollars > 1 {
		return 0, false
	}
	quotes := csRunLen(src, j, '"')
	switch {
	case quotes >= 3 && !verbatim:
		return m.rawString(j, quotes, dollars), true
	case verbatim:
		return m.quoted(j+1, dollars > 0, true), true
	default:
		return m.quoted(j+1, dollars > 0, false), true
	}
}

// quoted scans a regular or verbatim string's contents from i, descending
// into the holes of an interpolated one, and returns the index past its
// closing quote (or its line's end for an unterminated regular string).
func (m *csMasker) quoted(i int, interp, verbatim bool) int {
	src := m.src
	for i < len(src) {
		switch c := src[i]; {
		case c == '\\' && !verbatim:
			i += 2
		case c == '"':
			if verbatim && i+1 < len(src) && src[i+1] == '"' {
				i += 2
				continue
			}
			return i + 1
		case c == '\n' && !verbatim:
			return i
		case c == '{' && interp:
			if i+1 < len(src) && src[i+1] == '{' {
				i += 2
				continue
			}
			i = m.code(i+1, 1)
		default:
			i++
		}
	}
	return i
}

// rawString scans a raw string literal whose quote run of n starts at
// src[i]; with dollars > 0 it is interpolated, its holes opened by that many
// braces (more are content).
func (m *csMasker) rawString(i, n, dollars int) int {
	src := m.src
	i += n
	for i < len(src) {
		switch c := src[i]; {
		case c == '"':
			r := csRunLen(src, i, '"')
			if r >= n {
				return i + r
			}
			i += r
		case c == '{' && dollars > 0:
			r := csRunLen(src, i, '{')
			if r < dollars {
				i += r
				continue
			}
			i = m.code(i+r, dollars)
		default:
			i++
		}
	}
	return i
}

// csSkipRun returns the index past up to n bytes c from src[i].
func csSkipRun(src []byte, i int, c byte, n int) int {
	for k := 0; k < n && i < len(src) && src[i] == c; k++ {
		i++
	}
	return i
}

func csRunLen(src []byte, i int, c byte) int {
	n := 0
	for i+n < len(src) && src[i+n] == c {
		n++
	}
	return n
}

// csCharEnd is the index past the character literal at src[i], or the end
// of its line when it is unterminated.
func csCharEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '\'':
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

func csLineEnd(src []byte, i int) int {
	if e := bytes.IndexByte(src[i:], '\n'); e >= 0 {
		return i + e
	}
	return len(src)
}

func csIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
