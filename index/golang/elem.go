package golang

import (
	"go/ast"
	"go/token"

	"github.com/parleyhq/parley/index"
)

// Elements in the buffer being edited: the type of x in x[i].F and of a
// range variable (`for _, obj := range objs { obj.Name() }`). Both need
// the type expression of x, not just its named type, since the element
// type is inside it ([]Object, map[string]*T) or inside the declaration
// of the named type it has (type Nodes []Node). The same type
// expressions give the fields of variables of anonymous struct types
// (anonStruct). Without these the selector is left to proximity
// ranking, and a references query unites several same-named methods'
// references: on types2's `obj := cycle[0]; obj.Name()` that was 53
// references gopls does not list.

// bufTypeExpr returns the type expression of e, an expression of the
// buffer (stack encloses it; nil for an expression read from the index),
// and the context it is written in.
func (r *goTypeResolver) bufTypeExpr(fc *fileCtx, stack []ast.Node, e ast.Expr, depth int) (ast.Expr, *fileCtx, bool) {
	if depth > maxTypeDepth {
		return nil, nil, false
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return r.bufTypeExpr(fc, stack, x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return r.bufTypeExpr(fc, stack, x.X, depth+1)
		}
	case *ast.StarExpr:
		return r.bufTypeExpr(fc, stack, x.X, depth+1)
	case *ast.CompositeLit:
		return x.Type, fc, x.Type != nil
	case *ast.TypeAssertExpr:
		return x.Type, fc, x.Type != nil
	case *ast.Ident:
		return r.identTypeExpr(fc, stack, x, depth)
	case *ast.IndexExpr:
		te, tfc, ok := r.bufTypeExpr(fc, stack, x.X, depth+1)
		if !ok {
			return nil, nil, false
		}
		return r.elemTypeExpr(tfc, te, false, depth+1)
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 {
			return x.Args[0], fc, true
		}
		if h, ok := r.callee(fc, stack, x, depth+1); ok {
			return r.resultExpr(h, 0)
		}
	case *ast.SelectorExpr:
		if q, ok := x.X.(*ast.Ident); ok && r.isImport(fc, stack, q) {
			return r.typeExprOf(fc, x, depth+1)
		}
		return r.fieldTypeExpr(fc, stack, x, depth)
	}
	return nil, nil, false
}

// identTypeExpr is bufTypeExpr of a variable: a local's declared type or
// its initializer's, a range variable's element or key, or a
// package-level variable's declared type.
func (r *goTypeResolver) identTypeExpr(fc *fileCtx, stack []ast.Node, id *ast.Ident, depth int) (ast.Expr, *fileCtx, bool) {
	b, declared := localDecl(stack, id)
	if !declared {
		if _, ok := fc.imports[id.Name]; ok {
			return nil, nil, false
		}
		return r.typeExprOf(fc, id, depth+1)
	}
	switch {
	case b.typ != nil:
		return b.typ, fc, true
	case b.rng != nil:
		te, tfc, ok := r.bufTypeExpr(fc, stack, b.rng, depth+1)
		if !ok {
			return nil, nil, false
		}
		return r.elemTypeExpr(tfc, te, b.key, depth+1)
	case b.val != nil:
		if c, ok := b.val.(*ast.CallExpr); ok && b.idx > 0 {
			if h, ok := r.callee(fc, stack, c, depth+1); ok {
				return r.resultExpr(h, b.idx)
			}
			return nil, nil, false
		}
		if b.idx == 0 {
			return r.bufTypeExpr(fc, stack, b.val, depth+1)
		}
	}
	return nil, nil, false
}

// elemTypeExpr is the element type (key: the key type, of a map or the
// element of a channel, as the first range variable has) of the type te
// written in fc, following a named type to its declaration.
func (r *goTypeResolver) elemTypeExpr(fc *fileCtx, te ast.Expr, key bool, depth int) (ast.Expr, *fileCtx, bool) {
	for depth <= maxTypeDepth {
		switch t := te.(type) {
		case *ast.StarExpr:
			te = t.X
			continue
		case *ast.ParenExpr:
			te = t.X
			continue
		case *ast.ArrayType:
			return t.Elt, fc, !key // a slice's or array's key is an int
		case *ast.MapType:
			if key {
				return t.Key, fc, true
			}
			return t.Value, fc, true
		case *ast.ChanType:
			return t.Value, fc, true
		}
		nt, ok := typeExpr(fc, te)
		if !ok || nt == builtinError {
			return nil, nil, false
		}
		next := false
		for _, decl := range r.lookup(nt.name, "", nt.inDir) {
			if ts := parseTypeSig(decl.Symbol.Signature); ts != nil {
				te, fc, next = ts.Type, r.storedFileContext(decl.Path), true
				break
			}
		}
		if !next {
			return nil, nil, false
		}
		depth++
	}
	return nil, nil, false
}

// anonStruct returns the struct type of e when e is a variable of an
// anonymous struct type written out in the buffer (`var handlers struct{
// sync.Mutex; ... }`, common in the runtime), whose fields the index does
// not record.
func (r *goTypeResolver) anonStruct(fc *fileCtx, stack []ast.Node, e ast.Expr, depth int) (*ast.StructType, *fileCtx, bool) {
	if fc.file == nil {
		return nil, nil, false
	}
	var te ast.Expr
	var tfc *fileCtx
	if id, ok := e.(*ast.Ident); ok {
		b, declared := localDecl(stack, id)
		if !declared {
			for _, d := range fc.file.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
					if vb, ok := valueSpecsDecl(id.Name, gd.Specs); ok {
						b, declared = vb, true
						break
					}
				}
			}
		}
		te, tfc = b.typ, fc
		if !declared || te == nil {
			return nil, nil, false
		}
	} else {
		var ok bool
		if te, tfc, ok = r.bufTypeExpr(fc, stack, e, depth+1); !ok {
			return nil, nil, false
		}
	}
	for {
		switch t := te.(type) {
		case *ast.StarExpr:
			te = t.X
			continue
		case *ast.StructType:
			return t, tfc, true
		}
		return nil, nil, false
	}
}

// anonMember is what x.name means when x has an anonymous struct type
// (anonStruct): field is the type of x's field of that name, or, when x
// has none, embedded lists the types of x's embedded fields, in whose
// method sets name is to be found.
func (r *goTypeResolver) anonMember(fc *fileCtx, stack []ast.Node, x ast.Expr, name string, depth int) (field goType, embedded []goType, ok bool) {
	st, sfc, ok := r.anonStruct(fc, stack, x, depth)
	if !ok || st.Fields == nil {
		return goType{}, nil, false
	}
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			if et, ok := typeExpr(sfc, f.Type); ok {
				if et.name == name {
					return et, nil, true // the embedded field itself
				}
				embedded = append(embedded, et)
			}
			continue
		}
		for _, n := range f.Names {
			if n.Name == name {
				t, ok := typeExpr(sfc, f.Type)
				return t, nil, ok
			}
		}
	}
	return goType{}, embedded, len(embedded) > 0
}

// anonMethod returns the declarations x.M means when x has an anonymous
// struct type: M promoted from one of its embedded fields (handlers.Lock
// from sync.Mutex).
func (r *goTypeResolver) anonMethod(fc *fileCtx, stack []ast.Node, sel *ast.SelectorExpr, depth int) ([]index.SymbolHit, bool) {
	_, embedded, ok := r.anonMember(fc, stack, sel.X, sel.Sel.Name, depth)
	if !ok {
		return nil, false
	}
	for _, et := range embedded {
		if hits, ok := r.member(et, sel.Sel.Name, depth+1); ok {
			return hits, true
		}
	}
	return nil, false
}
