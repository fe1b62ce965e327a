package extract

import (
	"sort"
	"strings"
)

// Parenthesized operands: (*x).F, (*x.f).F and y.(T).F, whose "." follows
// a ")" that closes no call.

// parenDesc is the descriptor of what the parentheses closed at j hold
// in (x).F, (*x.f).F and y.(T).F: x's, x.f's, a T; "" for a call or a
// conversion, whose result the scan pass follows (or not) itself.
func (o *operands) parenDesc(j int) string {
	lp := matchOpen(o.src, j, '(', ')')
	if lp < 1 {
		return ""
	}
	if o.src[lp-1] == '.' {
		return o.typeAt(lp + 1) // y.(T)
	}
	k := lp - 1
	for k >= 0 && (o.src[k] == ' ' || o.src[k] == '\t') {
		k--
	}
	if k >= 0 && o.src[k] == ')' {
		return o.conversionDesc(k) // (*T)(p).F
	}
	if k >= 0 && (isIdentByte(o.src[k]) || o.src[k] == ']') {
		return ""
	}
	i := skipSpace(o.src, lp+1)
	if d := o.literalDesc(i, j); d != "" {
		return d // (&T{...}).F
	}
	for i < j && o.src[i] == '*' {
		i++
	}
	end := j
	for end > i && (o.src[end-1] == ' ' || o.src[end-1] == '\t') {
		end--
	}
	for p := i; p < end; p++ {
		if !isIdentByte(o.src[p]) && o.src[p] != '.' {
			return "" // not x or x.f.g
		}
	}
	// The identifier that ends right before ")".
	n := sort.Search(len(o.idents), func(n int) bool { return o.idents[n].off >= end }) - 1
	if n < 0 || o.idents[n].off+len(o.idents[n].name) != end || o.idents[n].off < i {
		return ""
	}
	return o.identDesc(int32(n), false)
}

// conversionDesc describes the result of a conversion to a pointer type,
// (*T)(p) or (*pkg.T)(p), whose type's ")" is at k; "" for anything else
// ((f)(x) calls a function value). The runtime reaches its structures
// through such conversions of unsafe pointers.
func (o *operands) conversionDesc(k int) string {
	lp := matchOpen(o.src, k, '(', ')')
	if lp < 0 {
		return ""
	}
	i := skipSpace(o.src, lp+1)
	if i >= k || o.src[i] != '*' {
		return ""
	}
	j := i
	for j < k && o.src[j] == '*' {
		j = skipSpace(o.src, j+1)
	}
	a, j := identAt(o.src, j)
	if a == "" {
		return ""
	}
	if j < k && o.src[j] == '.' {
		if b, e := identAt(o.src, j+1); b != "" {
			j = e
		}
	}
	if skipSpace(o.src, j) != k {
		return ""
	}
	return o.typeAt(i)
}

// literalDesc describes a composite literal that fills the parentheses
// from i to j, T{...}, &T{...} or &pkg.T{...}; "" for anything else.
func (o *operands) literalDesc(i, j int) string {
	if i < j && o.src[i] == '&' {
		i = skipSpace(o.src, i+1)
	}
	a, e := identAt(o.src, i)
	if a == "" {
		return ""
	}
	if e < j && o.src[e] == '.' {
		b, e2 := identAt(o.src, e+1)
		if b == "" {
			return ""
		}
		e = e2
	}
	if e >= j || o.src[e] != '{' {
		return ""
	}
	k := j - 1
	for k > e && (o.src[k] == ' ' || o.src[k] == '\t') {
		k--
	}
	if o.src[k] != '}' || matchOpen(o.src, k, '{', '}') != e {
		return ""
	}
	return o.typeAt(i)
}

// unsafeSlice describes unsafe.Slice((*T)(p), n), the identifier a
// ("unsafe") at i ending at j, as a slice of T; "" for anything else.
func (o *operands) unsafeSlice(a string, i, j int) string {
	if o.bound[a] == 0 || o.local(a, i) || j >= len(o.src) || o.src[j] != '.' {
		return ""
	}
	b, k := identAt(o.src, j+1)
	if b != "Slice" || k >= len(o.src) || o.src[k] != '(' {
		return ""
	}
	lp := skipSpace(o.src, k+1)
	if lp >= len(o.src) || o.src[lp] != '(' {
		return ""
	}
	rp := skipParens(o.src, lp)
	if rp < 0 || rp >= len(o.src) || o.src[rp] != '(' {
		return ""
	}
	end := skipParens(o.src, k)
	if end < 0 || !endsExpr(o.src, end) {
		return ""
	}
	d := o.conversionDesc(rp - 1)
	if d == "" || strings.HasPrefix(d, "[]") {
		return ""
	}
	return "[]" + d
}
