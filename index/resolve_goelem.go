package index

import (
	"go/ast"
	"go/token"

	"github.com/parleyhq/parley/index/extract"
)

// Elements in the buffer being edited: the type of x in x[i].F and of a
// range variable (`for _, obj := range objs { obj.Name() }`). Both need
// the type expression of x, not just its named type, since the element
// type is inside it ([]Object, map[string]*T) or inside the declaration
// of the named type it has (type Nodes []Node). Without these the
// selector is left to proximity ranking, and a references query unites
// several same-named methods' references: on types2's `obj := cycle[0];
// obj.Name()` that was 53 references gopls does not list.

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
		t, ok := r.exprType(fc, stack, x.X, depth+1)
		if !ok {
			return nil, nil, false
		}
		hits, _ := r.member(t, x.Sel.Name, depth+1)
		for _, h := range hits {
			if h.Symbol.Kind != extract.KindField {
				continue
			}
			if f, ok := parseFieldSig(h.Symbol.Signature); ok {
				return f.Type, r.storedFileContext(h.Path), true
			}
		}
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
