package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index"
)

// PredeclaredAt reports whether the identifier name at byte offset off
// of src (the content of the Go file from) means a predeclared
// identifier of the universe scope (nil, true, len, error, uintptr...):
// a bare use that no local, type parameter, declaration of from's
// package (in the buffer or, for the package's other files, in the
// index) or function-local type shadows; or a member of package unsafe
// (unsafe.Pointer through an import of "unsafe", whatever its name).
//
// gopls refuses references to such a name ("references to builtin ...
// are not supported", "references to unsafe.Pointer are not
// supported"): they have no declaration to rename, and the
// answer would be every occurrence of the name (nil: 100k on
// GOROOT/src, the slowest references queries the server had). The
// language server answers none for them.
func PredeclaredAt(s *index.Store, from string, src []byte, off int, name string) bool {
	if name == "Error" {
		return goErrorMethodAt(s, from, src, off)
	}
	// go/types' universe is the language's list; keeping our own would
	// drift when Go adds a builtin (min, max and clear came in 1.21).
	universe, unsafe := false, types.Unsafe.Scope().Lookup(name) != nil
	if obj := types.Universe.Lookup(name); obj != nil && obj.Pkg() == nil {
		universe = true
	}
	if !universe && !unsafe {
		return false
	}
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, from, src, parser.SkipObjectResolution)
	if f == nil {
		return false
	}
	tf := fset.File(f.Pos())
	if tf == nil || off < 0 || off > tf.Size() {
		return false
	}
	pos := tf.Pos(off)
	var stack []ast.Node
	found, shadowed := false, false
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if found || shadowed || n.Pos() > pos || pos > n.End() {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
			if unsafe && unsafeSel(f, stack, id) {
				return false
			}
			if !universe {
				shadowed = true
				return false
			}
			_, local := localDecl(stack, id)
			shadowed = namesOther(stack, id) || declaresHere(stack, id) || local || typeParamOrLocalType(stack, name)
			return false
		}
		stack = append(stack, n)
		return true
	})
	if found && !shadowed && !universe {
		return true // unsafe.Name
	}
	if !found || shadowed || declaresAtTop(f, name) {
		return false
	}
	return !packageDeclares(s, path.Dir(from), name)
}

// goErrorMethodAt reports whether the identifier at off is the Error of
// x.Error where x has the predeclared type error (err.Error(),
// errors.New(s).Error()): the universe's method, whose references gopls
// refuses like a builtin's. Without this the server answered the union
// of the references of the Error methods ranked nearest, the slowest
// Go references queries there were, and none of them gopls's answer.
func goErrorMethodAt(s *index.Store, from string, src []byte, off int) bool {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, from, src, parser.SkipObjectResolution)
	if f == nil {
		return false
	}
	sel, stack := selectorAt(f, fset.File(f.Pos()), off)
	if sel == nil || sel.Sel.Name != "Error" {
		return false
	}
	r := &goTypeResolver{st: s}
	t, ok := r.exprType(r.fileContext(from, f), stack, sel.X, 0)
	return ok && t == builtinError
}

// unsafeSel reports whether id is the Sel of q.Sel where q is a name an
// import of "unsafe" in f binds, not shadowed by a local.
func unsafeSel(f *ast.File, stack []ast.Node, id *ast.Ident) bool {
	if len(stack) == 0 {
		return false
	}
	sel, ok := stack[len(stack)-1].(*ast.SelectorExpr)
	if !ok || sel.Sel != id {
		return false
	}
	q, ok := sel.X.(*ast.Ident)
	if !ok {
		return false
	}
	if _, local := localDecl(stack, q); local {
		return false
	}
	for _, im := range f.Imports {
		if im.Path.Value != `"unsafe"` {
			continue
		}
		if (im.Name == nil && q.Name == "unsafe") || (im.Name != nil && im.Name.Name == q.Name) {
			return true
		}
	}
	return false
}

// namesOther reports whether id, a child of stack's last node, is a name
// that is not a use: a selector's field or method, a composite literal's
// key, a field's or parameter's name, a label, a declared function or
// type. Unlike notAVariable, a field's type is a use.
func namesOther(stack []ast.Node, id *ast.Ident) bool {
	if len(stack) == 0 {
		return true
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.SelectorExpr:
		return p.Sel == id
	case *ast.KeyValueExpr:
		_, inLit := stack[max(len(stack)-2, 0)].(*ast.CompositeLit)
		return inLit && p.Key == id
	case *ast.Field:
		return slices.Contains(p.Names, id)
	case *ast.LabeledStmt, *ast.BranchStmt:
		return true
	case *ast.FuncDecl:
		return p.Name == id
	case *ast.TypeSpec:
		return p.Name == id
	}
	return false
}

// typeParamOrLocalType reports whether an enclosing function or type
// declares name as a type parameter, or an enclosing block declares a
// constant or type of that name (localDecl covers variables only).
func typeParamOrLocalType(stack []ast.Node, name string) bool {
	for _, n := range stack {
		var tparams *ast.FieldList
		switch n := n.(type) {
		case *ast.FuncDecl:
			tparams = n.Type.TypeParams
		case *ast.TypeSpec:
			tparams = n.TypeParams
		case *ast.BlockStmt:
			if stmtsDeclare(n.List, name) {
				return true
			}
		case *ast.CaseClause:
			if stmtsDeclare(n.Body, name) {
				return true
			}
		case *ast.CommClause:
			if stmtsDeclare(n.Body, name) {
				return true
			}
		}
		if _, ok := fieldsDecl(name, tparams); ok {
			return true
		}
	}
	return false
}

// stmtsDeclare reports whether a declaration statement of list declares
// name (wherever it stands: a use before it is rare enough not to matter).
func stmtsDeclare(list []ast.Stmt, name string) bool {
	for _, st := range list {
		if ds, ok := st.(*ast.DeclStmt); ok && genDeclares(ds.Decl, name) {
			return true
		}
	}
	return false
}

// declaresAtTop reports whether f declares name at package level.
func declaresAtTop(f *ast.File, name string) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name {
			return true
		}
		if genDeclares(d, name) {
			return true
		}
	}
	return false
}

func genDeclares(d ast.Decl, name string) bool {
	gd, ok := d.(*ast.GenDecl)
	if !ok {
		return false
	}
	for _, sp := range gd.Specs {
		switch sp := sp.(type) {
		case *ast.TypeSpec:
			if sp.Name.Name == name {
				return true
			}
		case *ast.ValueSpec:
			for _, n := range sp.Names {
				if n.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// packageDeclares reports whether a Go file of directory dir declares
// name at package level, per the index. A lookup error counts as a
// declaration: the caller then answers as for any other name.
func packageDeclares(s *index.Store, dir, name string) bool {
	sites, err := s.DefinitionSites(name)
	if err != nil {
		return true
	}
	for _, h := range sites {
		if h.Name == name && h.Container == "" && strings.HasSuffix(h.Path, ".go") && path.Dir(h.Path) == dir {
			return true
		}
	}
	return false
}
