package extract

// Variables of anonymous struct type: `var x struct{ i Int64 }` has no
// type name for a descriptor, but x.i.F has one, read from the field
// list in the declaration.

// anonField describes x.name (with suffix, "()" for a call) where x is
// declared with the type written at at: that field's type when at is a
// struct type listing it, else "".
func (o *operands) anonField(at int, name, suffix string) string {
	src := o.src
	w, j := identAt(src, skipSpace(src, at))
	if w != "struct" || suffix != "" {
		return "" // a method call on x would need x's method set
	}
	i := skipSpace(src, j)
	if i >= len(src) || src[i] != '{' {
		return ""
	}
	// One field per line or ";"-separated: "a, b T", "i Int64".
	for i++; i < len(src); {
		i = skipSpace(src, i)
		if i < len(src) && src[i] == '/' {
			i = skipComment(src, i) + 1
			continue
		}
		if i >= len(src) || src[i] == '}' {
			return ""
		}
		found := false
		for {
			w, j := identAt(src, i)
			if w == "" {
				return ""
			}
			found = found || w == name
			k := skipSpace(src, j)
			if k >= len(src) || src[k] != ',' {
				i = j // the type follows
				break
			}
			i = skipSpace(src, k+1)
		}
		if found {
			return o.typeAt(i)
		}
		// Skip to the next field: past a newline or ";" outside
		// brackets (a nested struct or func type spans lines).
		depth := 0
		for ; i < len(src); i++ {
			end, ok := fieldEnd(src, i, &depth)
			if ok {
				i = end
				break
			}
			i = end // past a comment
		}
	}
	return ""
}

// fieldEnd steps over byte i of a struct field list: ok, with where the
// next field starts, when it ends the field, else the last byte stepped
// over (a comment's); depth counts the brackets open within the field.
func fieldEnd(src []byte, i int, depth *int) (int, bool) {
	switch c := src[i]; c {
	case '/':
		return skipComment(src, i), false
	case '(', '[', '{':
		*depth++
	case ')', ']', '}':
		if *depth == 0 {
			return i, true // the list's "}"
		}
		*depth--
	case '\n', ';':
		if *depth == 0 {
			return i + 1, true
		}
	}
	return i, false
}
