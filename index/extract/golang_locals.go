package extract

// Local declarations for operand types. The scan pass cannot type-check,
// but it sees every `a, b := v` and `var a T` inside function bodies, and
// the parse pass sees every function's receiver and parameters. With the
// imports that is enough to write, for most selector operands x in x.F, a
// short Go expression (an operand descriptor) whose type is x's type and
// that mentions only package-level names and imports: `T{}` for a value of
// type T, `q.T{}` for one of an imported type, `F()` / `q.F()` for a
// call's result (`F()[1]` for its second result), `V` for a package-level
// variable, and chains of those (`T{}.f`, `q.F().m()`). The index stores
// one table of descriptors per file and, with each selector occurrence,
// which one its operand has; index/declrefs.go evaluates them when a
// references query needs them, so the index never resolves a name across
// files while indexing.

// goDef is a local declaration found by the scan.
type goDef struct {
	ident int32 // index of the declared identifier in goTokens.idents
	at    int   // offset of its value (after ":=" or "="), or of its type
	typ   bool  // at is a type (var x T)
	idx   int   // position in the left-hand list: result idx of a call
	end   int   // offset of the "}" that closes its block
	depth int
}

// declScanner follows statement starts and braces to record goDefs.
type declScanner struct {
	src   []byte
	depth int
	// lhs holds the identifiers of a statement that may be the left of a
	// ":=" (a comma-separated identifier list right after a statement
	// start); ok is false once the statement is something else.
	lhs   []int32
	ok    bool
	inVar bool // after "var" in a body, collecting names
	// group is set inside a "var (" group, whose parentheses gparen
	// counts: each of its lines is a "var" declaration of its own.
	group  bool
	gparen int
	open   []int
	defs   []goDef
	// A function literal's parameters: afterFunc is set by "func" in a
	// body, params counts the brackets open in its parameter list, pnames
	// collects a group's names until its type starts, after which ptype
	// skips to the next group.
	afterFunc bool
	params    int
	pnames    []int32
	ptype     bool
}

// step sees every token but comments; ident is the identifier's index
// for tIdent (-1 for "_", which declares nothing).
func (d *declScanner) step(tok lexTok, off, end int, ident int, prev lexTok) {
	if d.params > 0 || d.afterFunc {
		d.param(tok, off, ident, prev)
		return
	}
	if d.varGroup(tok) {
		return
	}
	switch tok {
	case tFunc:
		d.afterFunc = d.depth > 0
		d.ok = false
		return
	case tIdent:
		if d.ok && (len(d.lhs) == 0 || prev == tComma) {
			d.lhs = append(d.lhs, int32(ident))
			return
		}
		if d.inVar && len(d.lhs) > 0 {
			d.declare(off, true) // var x T, var x pkg.T
		}
		d.ok = false
	case tComma:
		if prev != tIdent {
			d.ok = false
		}
		return
	case tDefine:
		if d.ok {
			d.declare(end, false)
		}
		d.ok = false
	case tAssign:
		if d.inVar && len(d.lhs) > 0 {
			d.declare(end, false)
		}
		d.ok = false
	case tVar:
		d.reset()
		d.inVar = true
		return
	case tSemi, tBranch, tSwitch:
		d.reset()
		return
	case tLBrace:
		d.depth++
		d.reset()
		return
	case tRBrace:
		for n := len(d.open); n > 0 && d.defs[d.open[n-1]].depth >= d.depth; n-- {
			d.defs[d.open[n-1]].end = off
			d.open = d.open[:n-1]
		}
		if d.depth > 0 {
			d.depth--
		}
		d.reset()
		return
	case tTypeLit:
		if d.inVar && len(d.lhs) > 0 {
			d.declare(off, true) // var x struct{ ... }
		}
		d.ok = false
	default:
		if tok == tOther && off < len(d.src) && d.src[off] == ':' {
			// "case x:", "default:" and "L:" end no line with a
			// semicolon, yet a statement starts after them (a ":"
			// elsewhere, in a[i:j] or a key: value, is never followed
			// by one that declares).
			d.reset()
			return
		}
		if d.inVar && len(d.lhs) > 0 && (tok == tOther || tok == tLBrack) {
			d.declare(off, true) // var x *T, var x []T: the type starts here
		}
		d.ok = false
	}
	d.inVar = false
}

// varGroup follows "var ( a T; b = v )" in a body; it reports whether it
// consumed tok.
func (d *declScanner) varGroup(tok lexTok) bool {
	if !d.group {
		if tok == tLParen && d.inVar && len(d.lhs) == 0 {
			d.group, d.gparen = true, 1
			d.reset()
			d.inVar = true
			return true
		}
		return false
	}
	switch tok {
	case tLParen:
		d.gparen++
	case tRParen:
		if d.gparen--; d.gparen == 0 {
			d.group = false
			d.reset()
			return true
		}
	case tSemi:
		if d.gparen == 1 {
			d.reset()
			d.inVar = true
			return true
		}
	}
	return false
}

// param follows a function literal's parameter list. Its parameters are
// scoped to the body that follows, one brace level deeper.
func (d *declScanner) param(tok lexTok, off int, ident int, prev lexTok) {
	if d.afterFunc {
		d.afterFunc = false
		if tok == tLParen {
			d.params, d.pnames, d.ptype = 1, d.pnames[:0], false
		}
		return
	}
	typeStarts := false
	switch tok {
	case tLParen, tLBrack, tLBrace:
		typeStarts = true
		d.params++
	case tRParen, tRBrack, tRBrace:
		d.params--
	case tComma:
		if d.params == 1 && d.ptype {
			d.pnames, d.ptype = d.pnames[:0], false
		}
		return
	case tDot:
		if d.params == 1 && !d.ptype && prev == tIdent {
			// func(io.Reader): what looked like a name is a package
			// qualifier, and the parameters are unnamed.
			d.pnames, d.ptype = d.pnames[:0], true
			return
		}
		typeStarts = true
	case tIdent:
		if d.params == 1 && !d.ptype && (len(d.pnames) == 0 || prev == tComma) {
			d.pnames = append(d.pnames, int32(ident))
			return
		}
		typeStarts = true
	default:
		typeStarts = true
	}
	if typeStarts && !d.ptype && len(d.pnames) > 0 {
		for _, id := range d.pnames {
			if id >= 0 {
				d.open = append(d.open, len(d.defs))
				d.defs = append(d.defs, goDef{ident: id, at: off, typ: true, end: -1, depth: d.depth + 1})
			}
		}
		d.ptype = true
	}
}

func (d *declScanner) reset() {
	d.lhs, d.ok, d.inVar = d.lhs[:0], true, false
}

// declare records the collected names as declared at offset at.
func (d *declScanner) declare(at int, typ bool) {
	if d.depth > 0 {
		for i, id := range d.lhs {
			if id >= 0 {
				d.open = append(d.open, len(d.defs))
				d.defs = append(d.defs, goDef{ident: id, at: at, typ: typ, idx: i, end: -1, depth: d.depth})
			}
		}
	}
	d.lhs, d.inVar = d.lhs[:0], false
}
