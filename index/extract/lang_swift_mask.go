package extract

import "bytes"

// gotreesitter v0.24's Swift grammar fails on two common constructs, which
// the Swift extractor masks before parsing (swiftMask, the spec's mask;
// ParseTree too). An ERROR node in a Swift tree is costly as well as
// lossy: the library reparses around it (parser_result_swift*.go), and an
// 8 KB file with two such errors took 6-10 s, far over its 320 ms budget.
// Like tsMask, masking keeps every byte's offset and every identifier.
//
// An if or while whose last condition is an optional binding with a value,
// `if let due = item.dueBack {`: the statement becomes an ERROR node (the
// shorthand `if let due {` parses, and so does the binding when another
// condition follows it). The binding is written as a comparison, `if
// due ==item.dueBack {`: the name stays a reference, though no longer a
// binding for the locals resolver. Only values ending in a name are
// masked (see swiftMaskLastBinding).
//
// A parenthesized tuple type with generic arguments used as a metatype,
// `withTaskGroup(of: (UUID, Result<Date, Error>).self)`: the angle brackets
// read as comparisons. Inside such parentheses they are written as call
// parentheses, `Result(Date, Error)`.

// swiftMask is src as it is parsed, or src itself when nothing is masked.
func swiftMask(src []byte) []byte {
	var out []byte
	set := func(i int, c byte) {
		if out == nil {
			out = bytes.Clone(src)
		}
		out[i] = c
	}
	var parens []int // open ( positions
	condStart := -1  // just past the if/while keyword of the condition being scanned
	depth := 0       // ( [ { nesting
	condDepth := 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = csLineEnd(src, i)
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = swiftCommentEnd(src, i)
			continue
		case c == '"' || c == '#' && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '#'):
			i = swiftStringEnd(src, i)
			continue
		case csIdentByte(c):
			e := tsSkipIdent(src, i)
			if w := string(src[i:e]); (w == "if" || w == "while") && (i == 0 || !csIdentByte(src[i-1]) && src[i-1] != '.') {
				condStart, condDepth = e, depth
			}
			i = e
			continue
		case c == '(' || c == '[':
			if c == '(' {
				parens = append(parens, i)
			}
			depth++
		case c == ')' || c == ']':
			depth--
			if c == ')' && len(parens) > 0 {
				open := parens[len(parens)-1]
				parens = parens[:len(parens)-1]
				if bytes.HasPrefix(src[i+1:], []byte(".self")) && !(i+6 < len(src) && csIdentByte(src[i+6])) {
					swiftMaskTupleGenerics(src, open, i, set)
				}
			}
		case c == '{':
			if condStart >= 0 && depth == condDepth {
				swiftMaskLastBinding(src, condStart, i, set)
				condStart = -1
			}
			depth++
		case c == '}':
			depth--
		}
		i++
	}
	if out == nil {
		return src
	}
	return out
}

// swiftMaskLastBinding writes the condition src[from:to]'s last clause as a
// comparison when it is `let name = value` or `var name = value` with a
// space after the = and a value ending in a name.
func swiftMaskLastBinding(src []byte, from, to int, set func(int, byte)) {
	start, depth := from, 0
	for p := from; p < to; p++ {
		switch src[p] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				start = p + 1
			}
		}
	}
	kw := tsSkipSpace(src, start)
	if !bytes.HasPrefix(src[kw:to], []byte("let ")) && !bytes.HasPrefix(src[kw:to], []byte("var ")) {
		return
	}
	name := tsSkipSpace(src, kw+3)
	ne := tsSkipIdent(src, name)
	eq := tsSkipSpace(src, ne)
	if ne == name || eq+1 >= to || src[eq] != '=' || src[eq+1] != ' ' || eq == ne {
		return
	}
	// Only a value ending in a name: after a subscript or a call the
	// comparison can go wrong in its turn (index/testdata/locals_swift's
	// `if let cached = cache[id] {` became two ERROR nodes in that file).
	end := to - 1
	for end > eq && (src[end] == ' ' || src[end] == '\t') {
		end--
	}
	if !csIdentByte(src[end]) {
		return
	}
	for p := kw; p < kw+3; p++ {
		set(p, ' ')
	}
	set(eq+1, '=')
}

// swiftMaskTupleGenerics writes the generic arguments' angle brackets
// inside src[open:close+1], the parentheses before a `.self`, as
// parentheses, when they are plain type names.
func swiftMaskTupleGenerics(src []byte, open, close int, set func(int, byte)) {
	inner := src[open+1 : close]
	if bytes.IndexByte(inner, '<') < 0 || !tsMaskable(inner) {
		return
	}
	for p := open + 1; p < close; p++ {
		switch src[p] {
		case '<':
			set(p, '(')
		case '>':
			set(p, ')')
		}
	}
}

// swiftCommentEnd is the index past the (nestable) block comment at src[i].
func swiftCommentEnd(src []byte, i int) int {
	depth := 0
	for i < len(src) {
		switch {
		case bytes.HasPrefix(src[i:], []byte("/*")):
			depth++
			i += 2
		case bytes.HasPrefix(src[i:], []byte("*/")):
			depth--
			i += 2
			if depth == 0 {
				return i
			}
		default:
			i++
		}
	}
	return i
}

// swiftStringEnd is the index past the string literal at src[i]: single or
// triple quoted, raw with # delimiters; an interpolation's nested strings
// are followed through its parentheses.
func swiftStringEnd(src []byte, i int) int {
	hashes := csRunLen(src, i, '#')
	i += hashes
	if i >= len(src) || src[i] != '"' {
		return i
	}
	quotes := 1
	if bytes.HasPrefix(src[i:], []byte(`"""`)) {
		quotes = 3
	}
	i += quotes
	closing := append(bytes.Repeat([]byte{'"'}, quotes), bytes.Repeat([]byte{'#'}, hashes)...)
	for i < len(src) {
		switch {
		case src[i] == '\\' && hashes == 0 && i+1 < len(src) && src[i+1] == '(':
			i = swiftInterpolationEnd(src, i+1)
		case src[i] == '\\':
			i += 2
		case src[i] == '\n' && quotes == 1:
			return i
		case bytes.HasPrefix(src[i:], closing):
			return i + len(closing)
		default:
			i++
		}
	}
	return i
}

// swiftInterpolationEnd is the index past the parenthesized interpolation
// opened at src[i].
func swiftInterpolationEnd(src []byte, i int) int {
	depth := 0
	for i < len(src) {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1
			}
		case '"':
			i = swiftStringEnd(src, i)
			continue
		case '\n':
			return i
		}
		i++
	}
	return i
}
