package extract

import "sort"

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
	if k >= 0 && (isIdentByte(o.src[k]) || o.src[k] == ']' || o.src[k] == ')') {
		return ""
	}
	i := skipSpace(o.src, lp+1)
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
