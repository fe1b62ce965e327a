package golang

import (
	"go/ast"
	"go/token"
)

// binding is what declared a name: a type expression, or a value (result
// idx of it, for `a, b := f()`). Both nil when the name is declared but
// its type cannot be read from the declaration (a range variable, a
// type switch guard with several types).
type binding struct {
	typ, val ast.Expr
	idx      int
	// rng is the ranged expression of a range variable (key: the
	// first of its two), whose type's element the variable has.
	rng ast.Expr
	key bool
}

// localDecl finds the innermost declaration of id visible at id: the
// parameters, results and receiver of the enclosing functions, and the
// declarations before id in each enclosing block and statement header.
// declared is false when no enclosing scope declares the name.
func localDecl(stack []ast.Node, id *ast.Ident) (b binding, declared bool) {
	b, _, declared = localScope(stack, id)
	return b, declared
}

// localScope is localDecl that also returns the node whose scope
// declares id (a function, block, clause or statement header).
func localScope(stack []ast.Node, id *ast.Ident) (b binding, scope ast.Node, declared bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncDecl:
			if b, ok := fieldsDecl(id.Name, n.Recv, n.Type.Params, n.Type.Results); ok {
				return b, n, true
			}
		case *ast.FuncLit:
			if b, ok := fieldsDecl(id.Name, n.Type.Params, n.Type.Results); ok {
				return b, n, true
			}
		case *ast.BlockStmt:
			if b, ok := stmtsDecl(id, n.List); ok {
				return b, n, true
			}
		case *ast.CaseClause:
			if b, ok := stmtsDecl(id, n.Body); ok {
				return b, n, true
			}
			if i > 1 {
				if ts, ok := stack[i-2].(*ast.TypeSwitchStmt); ok {
					if a, ok := ts.Assign.(*ast.AssignStmt); ok && len(a.Lhs) == 1 && isName(a.Lhs[0], id.Name) {
						if len(n.List) == 1 {
							return binding{typ: n.List[0]}, n, true
						}
						return binding{}, n, true
					}
				}
			}
		case *ast.CommClause:
			if b, ok := stmtsDecl(id, n.Body); ok {
				return b, n, true
			}
		case *ast.IfStmt:
			if b, ok := stmtsDecl(id, []ast.Stmt{n.Init}); ok {
				return b, n, true
			}
		case *ast.ForStmt:
			if b, ok := stmtsDecl(id, []ast.Stmt{n.Init}); ok {
				return b, n, true
			}
		case *ast.SwitchStmt:
			if b, ok := stmtsDecl(id, []ast.Stmt{n.Init}); ok {
				return b, n, true
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE && (isName(n.Key, id.Name) || isName(n.Value, id.Name)) {
				return binding{rng: n.X, key: isName(n.Key, id.Name)}, n, true
			}
		}
	}
	return binding{}, nil, false
}

func isName(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func fieldsDecl(name string, lists ...*ast.FieldList) (binding, bool) {
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, f := range l.List {
			for _, n := range f.Names {
				if n.Name == name {
					return binding{typ: f.Type}, true
				}
			}
		}
	}
	return binding{}, false
}

// stmtsDecl finds the last declaration of id among the statements that
// end before it (in `x := x.F()` the x after := is the outer one).
func stmtsDecl(id *ast.Ident, list []ast.Stmt) (binding, bool) {
	var b binding
	found := false
	for _, s := range list {
		if s == nil || s.End() > id.Pos() {
			break
		}
		if l, ok := s.(*ast.LabeledStmt); ok {
			s = l.Stmt
		}
		switch st := s.(type) {
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				continue
			}
			for i, l := range st.Lhs {
				if !isName(l, id.Name) {
					continue
				}
				found = true
				switch {
				case len(st.Rhs) == len(st.Lhs):
					b = binding{val: st.Rhs[i]}
				case len(st.Rhs) == 1:
					b = binding{val: st.Rhs[0], idx: i}
				default:
					b = binding{}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := st.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				if vb, ok := valueSpecsDecl(id.Name, gd.Specs); ok {
					b, found = vb, true
				}
			}
		}
	}
	return b, found
}

func valueSpecsDecl(name string, specs []ast.Spec) (binding, bool) {
	for _, sp := range specs {
		vs, ok := sp.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for i, n := range vs.Names {
			if n.Name != name {
				continue
			}
			switch {
			case vs.Type != nil:
				return binding{typ: vs.Type}, true
			case len(vs.Values) == len(vs.Names):
				return binding{val: vs.Values[i]}, true
			case len(vs.Values) == 1:
				return binding{val: vs.Values[0], idx: i}, true
			}
			return binding{}, true
		}
	}
	return binding{}, false
}

// identType is the type of a variable: a local of the file being edited,
// a package-level variable of this file, or one the index knows in the
// same package.
func (r *goTypeResolver) identType(fc *fileCtx, stack []ast.Node, id *ast.Ident, depth int) (goType, bool) {
	b, declared := localDecl(stack, id)
	if !declared && fc.file != nil {
		for _, d := range fc.file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				if vb, ok := valueSpecsDecl(id.Name, gd.Specs); ok {
					b, declared = vb, true
					stack = nil
					break
				}
			}
		}
	}
	if !declared {
		own := func(d string) bool { return d == fc.dir }
		if _, ok := fc.imports[id.Name]; ok {
			return goType{}, false
		}
		return r.varType(id.Name, own, depth)
	}
	switch {
	case b.typ != nil:
		return typeExpr(fc, constraintOf(stack, b.typ))
	case b.rng != nil:
		te, tfc, ok := r.bufTypeExpr(fc, stack, b.rng, depth+1)
		if !ok {
			return goType{}, false
		}
		if te, tfc, ok = r.elemTypeExpr(tfc, te, b.key, depth+1); !ok {
			return goType{}, false
		}
		return typeExpr(tfc, te)
	case b.val != nil:
		if c, ok := b.val.(*ast.CallExpr); ok {
			return r.callType(fc, stack, c, b.idx, depth+1)
		}
		if b.idx == 0 {
			return r.exprType(fc, stack, b.val, depth+1)
		}
	}
	return goType{}, false
}

// constraintOf is te, or the constraint of the type parameter te names
// in an enclosing generic function (func F[H hash.Hash](h H): h's
// methods are hash.Hash's, as gopls answers).
func constraintOf(stack []ast.Node, te ast.Expr) ast.Expr {
	id, ok := te.(*ast.Ident)
	if !ok {
		return te
	}
	for i := len(stack) - 1; i >= 0; i-- {
		fd, ok := stack[i].(*ast.FuncDecl)
		if !ok || fd.Type.TypeParams == nil {
			continue
		}
		for _, f := range fd.Type.TypeParams.List {
			for _, n := range f.Names {
				if n.Name == id.Name {
					return f.Type
				}
			}
		}
	}
	return te
}
