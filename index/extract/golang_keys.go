package extract

// Composite literal keys. In T{F: v} the key F is a field of T, which the
// syntax names: scanGo records each key with the identifier of its
// literal's type, so that the key gets T's descriptor and a references
// query judges it like x.F on a T (gopls counts keys as references).
// Only literals whose type is written right before "{" (T{, pkg.T{, &T{)
// count; a "{" that opens a function body, the block of an if, for,
// switch or select header, or the literal of a slice, array or map type
// (whose keys are not fields) gets none.

// keyScan follows scanGo's tokens.
type keyScan struct {
	braces []int32 // per open "{": its literal's type identifier, or -1
	funcs  []int   // bracket depths of "func"s whose body "{" is to come
	// header is set from an if, for, switch or select to the "{" of its
	// block, at bracket depth headerDepth.
	header      bool
	headerDepth int
	// identPrev is the token before the latest name (before pkg in pkg.T).
	identPrev lexTok
	keys      [][2]int32 // [key identifier, type identifier]
}

// ident notes an identifier scanned after prev.
func (k *keyScan) ident(prev lexTok) {
	if prev != tDot {
		k.identPrev = prev
	}
}

// step takes any other token; depth counts the open "(" and "[", and
// prevIdent is the identifier right before tok, or -1.
func (k *keyScan) step(tok lexTok, src []byte, off, end, depth, prevIdent int, prev lexTok) {
	switch tok {
	case tFunc:
		k.funcs = append(k.funcs, depth)
	case tBranch:
		// string(w) == "if" compares without allocating (the scan's hot path).
		if w := src[off:end]; string(w) == "if" || string(w) == "for" {
			k.header, k.headerDepth = true, depth
		}
	case tSwitch:
		k.header, k.headerDepth = true, depth
	case tRParen, tRBrack:
		// A func type's parameter ("g func() int") has no body.
		for n := len(k.funcs); n > 0 && k.funcs[n-1] > depth; n-- {
			k.funcs = k.funcs[:n-1]
		}
	case tLBrace:
		lit := int32(-1)
		switch n := len(k.funcs); {
		case n > 0 && k.funcs[n-1] == depth:
			k.funcs = k.funcs[:n-1]
		case k.header && k.headerDepth == depth:
			k.header = false
		case prev == tIdent && prevIdent >= 0 && k.identPrev != tRBrack:
			lit = int32(prevIdent)
		}
		k.braces = append(k.braces, lit)
	case tRBrace:
		if n := len(k.braces); n > 0 {
			k.braces = k.braces[:n-1]
		}
	case tOther:
		if src[off] != ':' || prev != tIdent || prevIdent < 0 || (k.identPrev != tLBrace && k.identPrev != tComma) {
			return
		}
		if n := len(k.braces); n > 0 && k.braces[n-1] >= 0 {
			k.keys = append(k.keys, [2]int32{int32(prevIdent), k.braces[n-1]})
		}
	}
}

// keyOf is the table index of the descriptor of the composite literal
// whose type ends with identifier typ (T{, pkg.T{: golang_keys.go), or 0.
func (o *operands) keyOf(typ int32) uint32 {
	id := o.idents[typ]
	start := id.off
	if id.sel && id.qual >= 0 {
		start = o.idents[id.qual].off
	}
	d := o.typeAt(start)
	if d == "" {
		return 0
	}
	return o.add(d)
}
