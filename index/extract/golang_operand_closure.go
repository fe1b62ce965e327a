package extract

// closureResult describes result idx of a call of the local function
// value a: one declared as a function literal (mk := func(n string) *T
// {...}; x := mk("a")), a function literal's parameter of a func type
// (func(h func() T) {...}), or a func-typed parameter of the enclosing
// function. Other locals, a result list with names and an idx
// past its end are not described.
func (o *operands) closureResult(a string, off, idx int) string {
	k := o.def(a, off)
	if k < 0 {
		if f := o.funcAt(off); f != nil && idx == 0 {
			return f.results[a]
		}
		return ""
	}
	if o.defs[k].idx != 0 {
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
