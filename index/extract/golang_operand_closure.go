package extract

import (
	"go/ast"
	"strconv"
)

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
		return o.funcValueResult(k, idx)
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
	if w, e := identAt(src, skipSpace(src, at)); w != "" {
		if n := skipSpace(src, e); n < len(src) && src[n] != ',' && src[n] != ')' && src[n] != '.' && src[n] != '[' {
			return "" // a named result: "(x *T, err error)"
		}
	}
	return o.typeAt(at)
}

// funcParams describes the receiver, parameters and results of d, whose
// body spans lb to rb. A parameter typed by one of d's type parameters
// is described by its constraint when that names an interface type
// (func F[H hash.Hash](h H): h is a "hash.Hash{}"), as gopls counts h.Size()
// a reference to hash.Hash's Size.
func funcParams(d *ast.FuncDecl, lb, rb int) goFunc {
	f := goFunc{lb: lb, rb: rb, params: map[string]string{}}
	var tparams map[string]string
	if tp := d.Type.TypeParams; tp != nil {
		tparams = map[string]string{}
		for _, field := range tp.List {
			c := typeDesc(field.Type) // "" for any, comparable and unions
			for _, n := range field.Names {
				tparams[n.Name] = c
			}
		}
	}
	desc := func(e ast.Expr) string { return typeDescIn(e, tparams) }
	for _, l := range []*ast.FieldList{d.Recv, d.Type.Params, d.Type.Results} {
		if l == nil {
			continue
		}
		for _, field := range l.List {
			for _, n := range field.Names {
				f.params[n.Name] = desc(field.Type)
				if ft, ok := field.Type.(*ast.FuncType); ok && ft.Results != nil && len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) <= 1 {
					if f.results == nil {
						f.results = map[string]string{}
					}
					f.results[n.Name] = desc(ft.Results.List[0].Type)
				}
			}
		}
	}
	return f
}

// funcValueResult describes result idx of a call of local k bound to a
// function or method value (hash := sha256.New; hash()): the call of
// what its value's descriptor names. A value that is not a name or a
// selector chain (a literal "T{}", a call, an element) is not described.
func (o *operands) funcValueResult(k, idx int) string {
	if o.defs[k].typ {
		return ""
	}
	v := o.defValue(k)
	if v == "" || !isIdentByte(v[len(v)-1]) {
		return ""
	}
	if idx > 0 {
		return v + "()[" + strconv.Itoa(idx) + "]"
	}
	return v + "()"
}
