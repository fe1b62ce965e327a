package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// LocalReferences answers references for a local variable, parameter
// or result of a Go function: the identifier name at byte offset off of
// src (the content of from) when a scope inside a function declares it.
// The references are the identifiers of that name in the declaring
// scope that the same declaration binds, as a type checker would list
// them. The name an import binds is local to its file too: its
// references are the import and the qualifiers it binds there. ok is
// false for anything else (a package-level name, a field, a method),
// which DeclReferences answers. It reads nothing from the
// index: a local's references are all in its function, and answering
// them from the name's occurrences (err: 100k of them on GOROOT/src)
// would cost seconds.
func LocalReferences(s *index.Store, from string, src []byte, off int, name string) (hits []index.RefHit, ok bool) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, from, src, parser.SkipObjectResolution)
	if f == nil {
		return nil, false
	}
	tf := fset.File(f.Pos())
	if tf == nil || off < 0 || off > tf.Size() {
		return nil, false
	}
	pos := tf.Pos(off)
	type use struct {
		id    *ast.Ident
		scope ast.Node
		decl  bool
	}
	var uses []use
	var target ast.Node
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if id, isID := n.(*ast.Ident); isID && id.Name == name && !notAVariable(stack, id) {
			if scope, found := identScope(stack, id); found {
				uses = append(uses, use{id, scope, declaresHere(stack, id)})
				if id.Pos() <= pos && pos <= id.End() {
					target = scope
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	if target == nil {
		return importNameReferences(fset, f, from, pos, name)
	}
	for _, u := range uses {
		if u.scope == target {
			p := fset.Position(u.id.Pos())
			hits = append(hits, index.RefHit{Path: from, Name: name, Pos: extract.Pos{Line: uint32(p.Line - 1), Col: uint32(p.Column - 1)}, Decl: u.decl})
		}
	}
	return hits, true
}

// notAVariable reports whether id, a child of stack's last node, names
// something other than a variable: a selector's field or method, a
// composite literal's key, a struct field, a method in an interface, a
// label, a function or type declared at package level.
func notAVariable(stack []ast.Node, id *ast.Ident) bool {
	if len(stack) == 0 {
		return true
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.SelectorExpr:
		return p.Sel == id
	case *ast.KeyValueExpr:
		if len(stack) > 1 {
			_, inLit := stack[len(stack)-2].(*ast.CompositeLit)
			return inLit && p.Key == id
		}
	case *ast.Field:
		if len(stack) > 2 {
			_, inStruct := stack[len(stack)-2].(*ast.FieldList)
			switch stack[len(stack)-3].(type) {
			case *ast.StructType, *ast.InterfaceType:
				return inStruct
			}
		}
	case *ast.LabeledStmt, *ast.BranchStmt, *ast.FuncDecl, *ast.TypeSpec:
		return true
	}
	return false
}

// identScope is the node whose scope declares the local id: for the
// name on the left of := or in a var declaration, the innermost scope
// around the statement; for any other, localScope's.
func identScope(stack []ast.Node, id *ast.Ident) (ast.Node, bool) {
	if declaring(stack, id) {
		for i := len(stack) - 1; i >= 0; i-- {
			switch n := stack[i].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.IfStmt, *ast.ForStmt,
				*ast.SwitchStmt, *ast.TypeSwitchStmt:
				return n, true
			case *ast.FuncDecl, *ast.FuncLit, *ast.File:
				return nil, false
			}
		}
		return nil, false
	}
	_, scope, ok := localScope(stack, id)
	return scope, ok
}

// declaring reports whether id is declared by the statement it is in:
// the left of := or a name of a var declaration inside a function.
func declaring(stack []ast.Node, id *ast.Ident) bool {
	if len(stack) < 2 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		if p.Tok != token.DEFINE {
			return false
		}
		for _, l := range p.Lhs {
			if l == id {
				return true
			}
		}
	case *ast.ValueSpec:
		for _, n := range p.Names {
			if n == id && len(stack) >= 3 {
				_, inFunc := stack[len(stack)-3].(*ast.DeclStmt)
				return inFunc
			}
		}
	}
	return false
}

// declaresHere reports whether id is where its variable is declared:
// the left of := or a var name, a parameter or result, a range key or
// value.
func declaresHere(stack []ast.Node, id *ast.Ident) bool {
	if declaring(stack, id) {
		return true
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.Field:
		for _, n := range p.Names {
			if n == id {
				return true
			}
		}
	case *ast.RangeStmt:
		return p.Tok == token.DEFINE && (p.Key == id || p.Value == id)
	}
	return false
}

// importNameReferences answers for the name an import of f binds, when
// the identifier at pos is that import's name or a qualifier it binds
// (not shadowed by a local): the import's explicit name, if any, and
// every qualifier of that name the import binds.
func importNameReferences(fset *token.FileSet, f *ast.File, from string, pos token.Pos, name string) ([]index.RefHit, bool) {
	var spec *ast.ImportSpec
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, "\"`")
		explicit := ""
		if im.Name != nil {
			explicit = im.Name.Name
		}
		if extract.GoImportName(p, explicit) == name {
			spec = im
		}
	}
	if spec == nil || name == "_" || name == "." {
		return nil, false
	}
	at := func(id *ast.Ident, decl bool) index.RefHit {
		p := fset.Position(id.Pos())
		return index.RefHit{Path: from, Name: name, Pos: extract.Pos{Line: uint32(p.Line - 1), Col: uint32(p.Column - 1)}, Decl: decl}
	}
	var hits []index.RefHit
	onTarget := spec.Name != nil && spec.Name.Pos() <= pos && pos <= spec.Name.End()
	if spec.Name != nil {
		hits = append(hits, at(spec.Name, true))
	}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if q, ok := sel.X.(*ast.Ident); ok && q.Name == name {
				if _, local := localDecl(append(stack, sel), q); !local {
					hits = append(hits, at(q, false))
					onTarget = onTarget || q.Pos() <= pos && pos <= q.End()
				}
			}
		}
		stack = append(stack, n)
		return true
	})
	if !onTarget {
		return nil, false
	}
	return hits, true
}
