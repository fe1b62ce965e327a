package extract

// closureResult describes result idx of a call of the local function
// value a declared as a function literal (mk := func(n string) *T {...};
// x := mk("a")): the type written in the literal's result list. A local
// that is not a literal, a result list with names or an idx past its end
// are not described.
func (o *operands) closureResult(a string, off, idx int) string {
	k := o.def(a, off)
	if k < 0 || o.defs[k].typ || o.defs[k].idx != 0 {
		return ""
	}
	src := o.src
	i := skipSpace(src, o.defs[k].at)
	name, j := identAt(src, i)
	if name != "func" {
		return ""
	}
	j = skipSpace(src, j)
	if j >= len(src) || src[j] != '(' {
		return ""
	}
	end := skipParens(src, j) // the parameters
	if end < 0 {
		return ""
	}
	r := skipSpace(src, end)
	if r >= len(src) || src[r] == '{' {
		return "" // no result
	}
	if src[r] != '(' {
		if idx != 0 {
			return ""
		}
		return o.typeAt(r)
	}
	// (T, error): the type at position idx, unless the results are named
	// (then the first word of an element is a name, not a type).
	at := r + 1
	if idx > 0 {
		if at = nthExpr(src, r+1, idx); at < 0 {
			return ""
		}
	}
	if w, k := identAt(src, skipSpace(src, at)); w != "" {
		if n := skipSpace(src, k); n < len(src) && src[n] != ',' && src[n] != ')' && src[n] != '.' && src[n] != '[' {
			return "" // a named result: "(x *T, err error)"
		}
	}
	return o.typeAt(at)
}
