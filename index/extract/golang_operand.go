package extract

import (
	"bytes"
	"go/ast"
	"sort"
	"strconv"
	"strings"
)

// goFunc is a top-level function's body span and the descriptors of its
// receiver, parameters and named results, from the parse pass.
type goFunc struct {
	lb, rb int
	params map[string]string
	// results describes what a call of a func-typed parameter returns
	// (hash func() Hash: hash() is a "Hash{}").
	results map[string]string
}

// operands writes the operand descriptors of one file (see
// golang_locals.go for their grammar).
type operands struct {
	src    []byte
	idents []goIdent
	defs   []goDef
	byName map[string][]int // indices into defs, in source order
	funcs  []goFunc         // sorted by lb
	bound  map[string]uint16
	memo   map[int32]string
	index  map[string]uint32
	table  []string
	depth  int
	// switches memoizes typeSwitchOf by def index.
	switches map[int]*typeSwitch
	// values memoizes defValue by def index; cutoffs counts the answers
	// the depth limit cut short.
	values  map[int]valueMemo
	cutoffs int
}

func newOperands(src []byte, toks *goTokens, funcs []goFunc, bound map[string]uint16) *operands {
	o := &operands{src: src, idents: toks.idents, defs: toks.defs, funcs: funcs, bound: bound,
		byName: make(map[string][]int, len(toks.defs)), memo: map[int32]string{}, index: map[string]uint32{}}
	for i, d := range toks.defs {
		n := toks.idents[d.ident].name
		o.byName[n] = append(o.byName[n], i)
	}
	return o
}

// of returns the 1-based table index of the descriptor of x in x.F, where
// x is identifier qual (called when call is set), or 0 when the syntax
// does not describe its type.
func (o *operands) of(qual int32, call bool) uint32 {
	d := o.identDesc(qual, call)
	if d == "" {
		return 0
	}
	return o.add(d)
}

// add returns the 1-based table index of descriptor d, added if new.
func (o *operands) add(d string) uint32 {
	i, ok := o.index[d]
	if !ok {
		o.table = append(o.table, d)
		i = uint32(len(o.table))
		o.index[d] = i
	}
	return i
}

// indexed returns the table index of the descriptor of x[i] in x[i].F,
// where F is at off, or 0: "D[_]" is an element of what D describes.
func (o *operands) indexed(off int) uint32 {
	d := o.indexedDesc(off)
	if d == "" {
		return 0
	}
	return o.add(d)
}

// indexedDesc is the descriptor of x[i] in x[i].F, F at off, or "".
func (o *operands) indexedDesc(off int) string {
	j := off - 1
	for j >= 0 && (o.src[j] == ' ' || o.src[j] == '\t') {
		j--
	}
	if j >= 1 && o.src[j] == '.' && o.src[j-1] == ')' {
		return o.parenDesc(j - 1)
	}
	if j < 1 || o.src[j] != '.' || o.src[j-1] != ']' {
		return ""
	}
	lb := matchBracket(o.src, j-1)
	levels := 1
	for lb > 1 && o.src[lb-1] == ']' { // x[i][j].F
		if lb = matchBracket(o.src, lb-1); lb < 0 {
			return ""
		}
		levels++
	}
	if lb < 1 {
		return ""
	}
	// The identifier that ends right before "[".
	k := sort.Search(len(o.idents), func(k int) bool { return o.idents[k].off >= lb }) - 1
	if k < 0 || o.idents[k].off+len(o.idents[k].name) != lb {
		return ""
	}
	d := o.identDesc(int32(k), false)
	if d == "" {
		return ""
	}
	return d + strings.Repeat("[_]", levels)
}

// local reports whether name at off is a local variable or parameter
// (which then shadows an import of that name).
func (o *operands) local(name string, off int) bool {
	if o.def(name, off) >= 0 {
		return true
	}
	if f := o.funcAt(off); f != nil {
		_, ok := f.params[name]
		return ok
	}
	return false
}

func (o *operands) identDesc(qi int32, call bool) string {
	key := qi
	if call {
		key = -qi - 2
	}
	if d, ok := o.memo[key]; ok {
		return d
	}
	if o.depth > 8 {
		o.cutoffs++
		return ""
	}
	o.depth++
	d := o.computeIdent(qi, call)
	o.depth--
	o.memo[key] = d
	return d
}

func (o *operands) computeIdent(qi int32, call bool) string {
	id := o.idents[qi]
	suffix := ""
	if call {
		suffix = "()"
	}
	if !id.sel {
		if call {
			if o.local(id.name, id.off) {
				return o.closureResult(id.name, id.off, 0) // a func-typed local
			}
			if id.name == "new" {
				// new(T).F
				if i := skipSpace(o.src, id.off+len(id.name)); i < len(o.src) && o.src[i] == '(' {
					return o.typeAt(i + 1)
				}
			}
			return id.name + "()"
		}
		return o.nameDesc(id.name, id.off)
	}
	if id.qual < 0 {
		// x[i].f.F: the chain goes on from the element.
		if base := o.indexedDesc(id.off); base != "" {
			return base + "." + id.name + suffix
		}
		return ""
	}
	q := o.idents[id.qual]
	if _, ok := o.bound[q.name]; ok && !id.qualCall && !q.sel && !o.local(q.name, q.off) {
		return q.name + "." + id.name + suffix
	}
	base := o.identDesc(id.qual, id.qualCall)
	if base == "" {
		if !id.qualCall && !q.sel {
			if i := o.def(q.name, q.off); i >= 0 && o.defs[i].typ {
				return o.anonField(o.defs[i].at, id.name, suffix)
			}
		}
		return ""
	}
	return base + "." + id.name + suffix
}

// def returns the index of the innermost local declaration of name
// visible at off, or -1.
func (o *operands) def(name string, off int) int {
	list := o.byName[name]
	// list is in source order: start at the last declaration before off,
	// and stop at the enclosing function's start, before which nothing
	// is in scope (in a generated file a name like v is declared
	// thousands of times).
	k := sort.Search(len(list), func(k int) bool { return o.idents[o.defs[list[k]].ident].off >= off }) - 1
	start := -1
	if f := o.funcAt(off); f != nil {
		start = f.lb
	}
	for ; k >= 0; k-- {
		d := &o.defs[list[k]]
		if o.idents[d.ident].off < start {
			break
		}
		if !d.typ && d.at <= off && bytes.IndexAny(o.src[d.at:off], "\n;") < 0 {
			continue // in its own right-hand side (x := x.next): the outer x
		}
		if d.end < 0 || off < d.end {
			if ts := o.typeSwitchOf(list[k]); ts != nil && !ts.inside(off) {
				continue // a type switch's variable, used after it
			}
			return list[k]
		}
	}
	return -1
}

func (o *operands) funcAt(off int) *goFunc {
	i := sort.Search(len(o.funcs), func(i int) bool { return o.funcs[i].lb > off }) - 1
	if i >= 0 && off < o.funcs[i].rb {
		return &o.funcs[i]
	}
	return nil
}

// nameDesc describes a plain identifier used at off.
func (o *operands) nameDesc(name string, off int) string {
	if o.depth > 8 {
		o.cutoffs++
		return ""
	}
	o.depth++
	defer func() { o.depth-- }()
	if i := o.def(name, off); i >= 0 {
		d := o.defs[i]
		if d.typ {
			return o.typeAt(d.at)
		}
		if ts := o.typeSwitchOf(i); ts != nil {
			return o.caseDesc(ts, d.at, off)
		}
		return o.defValue(i)
	}
	if f := o.funcAt(off); f != nil {
		if d, ok := f.params[name]; ok {
			return d
		}
	}
	if _, ok := o.bound[name]; ok {
		return ""
	}
	return name // package-level: a variable (or a type, in T.Method)
}

// typeDesc describes a value of the type written as e: "T{}", "q.T{}",
// "[]T{}" for a slice or array of T (whose elements x[i] and range
// values are then described), and the same for a map of T values.
func typeDesc(e ast.Expr) string { return typeDescIn(e, nil) }

// typeDescIn is typeDesc where the type parameters in tparams stand for
// the descriptors of their constraints ("" when it has no methods).
func typeDescIn(e ast.Expr, tparams map[string]string) string {
	switch t := TypeBase(e).(type) {
	case *ast.ArrayType:
		if d := typeDescIn(t.Elt, tparams); d != "" {
			return "[]" + d
		}
	case *ast.MapType:
		// A map's values are described as a slice's elements: m[k] and
		// range m's value are "[]V{}[_]" (a map has no members itself).
		if d := typeDescIn(t.Value, tparams); d != "" {
			return "[]" + d
		}
	case *ast.Ident:
		if c, ok := tparams[t.Name]; ok {
			return c
		}
		if t.Name == "error" || !goPredeclaredType[t.Name] {
			return t.Name + "{}"
		}
	case *ast.SelectorExpr:
		if q, ok := t.X.(*ast.Ident); ok {
			return q.Name + "." + t.Sel.Name + "{}"
		}
	}
	return ""
}

var goPredeclaredType = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true,
	"float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"any": true, "comparable": true,
}

// typeAt describes a value of the type written at off (var x T).
func (o *operands) typeAt(off int) string {
	i := skipSpace(o.src, off)
	for i < len(o.src) && o.src[i] == '*' {
		i++
	}
	if i+1 < len(o.src) && o.src[i] == '[' && o.src[i+1] == ']' {
		if d := o.typeAt(i + 2); d != "" {
			return "[]" + d // var x []T, [][]T
		}
		return ""
	}
	a, j := identAt(o.src, i)
	if a == "" {
		return ""
	}
	if a == "map" && j < len(o.src) && o.src[j] == '[' {
		// var m map[K]V: its values, as typeDesc describes them.
		if end := skipBrackets(o.src, j); end > 0 {
			if d := o.typeAt(end); d != "" {
				return "[]" + d
			}
		}
		return ""
	}
	if j < len(o.src) && o.src[j] == '.' {
		b, _ := identAt(o.src, j+1)
		if b == "" {
			return ""
		}
		return a + "." + b + "{}"
	}
	if goPredeclaredType[a] || a == "map" || a == "chan" || a == "func" || a == "struct" || a == "interface" || a == "type" {
		return ""
	}
	return a + "{}"
}

// valueAt describes result idx of the expression at off: T{...},
// &T{...}, new(T), F(...), x.f.m(...), x.(T), each possibly qualified by
// an import; "" for anything else.
func (o *operands) valueAt(off, idx int) string {
	src := o.src
	if idx > 0 {
		// a, b := x, y: b is y's, not a second result.
		if k := nthExpr(src, off, idx); k >= 0 {
			off, idx = k, 0
		}
	}
	i := skipSpace(src, off)
	if i < len(src) && src[i] == '&' {
		i = skipSpace(src, i+1)
	}
	if i < len(src) && src[i] == '(' && idx == 0 {
		// (x).(T), (*x.f).(T)
		end := skipParens(src, i)
		if end > 0 && end+1 < len(src) && src[end] == '.' && src[end+1] == '(' {
			return o.typeAt(end + 2)
		}
		// (*T)(p): a conversion to a pointer type.
		if end > 0 && end < len(src) && src[end] == '(' {
			if stop := skipParens(src, end); stop > 0 && endsExpr(src, stop) {
				return o.conversionDesc(end - 1)
			}
		}
		return ""
	}
	if i+1 < len(src) && src[i] == '[' && src[i+1] == ']' && idx == 0 {
		// []T{...}, []T(x): a slice of T.
		return o.typeAt(i)
	}
	a, j := identAt(src, i)
	switch a {
	case "map":
		// map[K]V{...}: its values, as typeAt describes a map.
		if idx == 0 && j < len(src) && src[j] == '[' {
			return o.typeAt(i)
		}
		return ""
	case "range":
		// for _, v := range xs: v is an element of xs (the key or
		// index, idx 0, is not described).
		if idx != 1 {
			return ""
		}
		if k := skipSpace(src, j); k < len(src) && src[k] == '[' {
			// range []T{...}: an element of the literal
			if end := skipBrackets(src, k); end > 0 {
				return o.typeAt(end)
			}
			return ""
		}
		if d := o.valueAt(j, 0); d != "" {
			return d + "[_]"
		}
		return ""
	case "", "func", "chan", "struct":
		return ""
	case "new":
		if j < len(src) && src[j] == '(' && idx == 0 {
			return o.typeAt(j + 1)
		}
	case "unsafe":
		// unsafe.Slice((*T)(p), n): a slice of T, how the runtime views
		// memory it manages.
		if d := o.unsafeSlice(a, i, j); d != "" && idx == 0 {
			return d
		}
	case "make":
		// make([]T, n): a slice of T; make(map[K]V) as typeAt
		// describes maps (channels are not described).
		if j < len(src) && src[j] == '(' && idx == 0 && !o.local(a, i) {
			if d := o.typeAt(j + 1); strings.HasPrefix(d, "[]") {
				return d
			}
			return ""
		}
	}
	desc, called, j, res, done := o.chainAt(a, i, j, idx)
	if done {
		return res
	}
	if desc == "" {
		desc = o.nameDesc(a, i)
	}
	if desc == "" || !endsExpr(src, j) {
		return ""
	}
	if idx > 0 {
		if !called {
			return ""
		}
		return desc + "[" + strconv.Itoa(idx) + "]"
	}
	return desc
}

// chainAt reads the calls, composite literal, elements, type assertion
// and selectors that follow the identifier a (at i, ending at j) in
// valueAt's expression: desc so far, whether it ends in a call, and where
// it ends; done with res when the chain settles valueAt's answer itself.
func (o *operands) chainAt(a string, i, j, idx int) (desc string, called bool, stop int, res string, done bool) {
	src := o.src
	for n := 0; ; n++ {
		switch {
		case j < len(src) && src[j] == '(':
			end := skipParens(src, j)
			if end < 0 {
				return "", false, j, "", true
			}
			if desc == "" {
				if o.local(a, i) {
					// mk(...) of a local function literal: its result
					// type, result idx when the chain ends here.
					n := 0
					if endsExpr(src, end) {
						n = idx
					}
					if desc = o.closureResult(a, i, n); desc == "" {
						return "", false, j, "", true
					}
					if endsExpr(src, end) {
						return "", false, end, desc, true
					}
					j = end
					continue
				}
				desc = a
			}
			desc += "()"
			called, j = true, end
			continue
		case j < len(src) && src[j] == '{' && !called && n <= 2:
			// A composite literal T{...} or q.T{...} (n counts a and
			// the selectors read so far).
			if desc == "" {
				desc = a
			}
			if idx != 0 {
				return "", false, j, "", true
			}
			return "", false, j, desc + "{}", true
		case j < len(src) && src[j] == '[' && desc != "" || j < len(src) && src[j] == '[' && n == 0:
			// An element x[i]; x[i](...) would be a generic call.
			end := skipBrackets(src, j)
			if end < 0 || end < len(src) && src[end] == '(' {
				return "", false, j, "", true
			}
			if desc == "" {
				if desc = o.nameDesc(a, i); desc == "" {
					return "", false, j, "", true
				}
			}
			desc += "[_]"
			called, j = false, end
			continue
		case j+1 < len(src) && src[j] == '.' && src[j+1] == '(':
			// x.(T), and what follows it: x.(T).M().f
			t, end := o.typeAt(j+2), skipParens(src, j+1)
			if t == "" || end < 0 {
				return "", false, j, "", true
			}
			if end+1 < len(src) && src[end] == '.' && src[end+1] != '(' {
				desc, called, j = t, false, end
				continue
			}
			if idx != 0 {
				return "", false, j, "", true
			}
			return "", false, j, t, true
		case j < len(src) && src[j] == '.':
			b, k := identAt(src, j+1)
			if b == "" {
				return "", false, j, "", true
			}
			if desc == "" {
				if _, ok := o.bound[a]; ok && !o.local(a, i) {
					desc = a
				} else if desc = o.nameDesc(a, i); desc == "" {
					return "", false, j, "", true
				}
			}
			desc += "." + b
			called, j = false, k
			continue
		}
		return desc, called, j, "", false
	}
}
