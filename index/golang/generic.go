package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// Generic types' first type argument. A field `dirinfo
// atomic.Pointer[dirInfo]` has the type atomic.Pointer with argument
// dirInfo, and the methods of atomic.Pointer[T] return *T: Swap's result
// is a *dirInfo, whose methods a call on it means. goType keeps the
// argument as a string (encodeArg) so that it stays comparable and
// usable as a map key; one argument covers the common generic
// containers (atomic.Pointer, sync.Pool-like wrappers, lists, sets).

// typeArg is the goType of the first type argument of the type
// expression e (T[A], T[A, B], *pkg.T[A]), or false.
func typeArg(fc *fileCtx, e ast.Expr) (goType, bool) {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
			continue
		case *ast.ParenExpr:
			e = t.X
			continue
		case *ast.IndexExpr:
			return typeExpr(fc, t.Index)
		case *ast.IndexListExpr:
			if len(t.Indices) > 0 {
				return typeExpr(fc, t.Indices[0])
			}
		}
		return goType{}, false
	}
}

// encodeArg flattens a type argument into goType.arg (its own argument
// is dropped: one level is enough for what descriptors reach).
func encodeArg(t goType) string {
	return strings.Join([]string{t.name, t.dir, t.imp.Path, t.imp.Name, strconv.FormatBool(t.imp.Relative)}, "\x00")
}

func decodeArg(s string) (goType, bool) {
	f := strings.Split(s, "\x00")
	if len(f) != 5 || f[0] == "" {
		return goType{}, false
	}
	return goType{name: f[0], dir: f[1], imp: index.ImportPath{Path: f[2], Name: f[3], Relative: f[4] == "true"}}, true
}

// instantiate substitutes recv's type argument for res when res, a
// result of method h, is h's receiver's type parameter.
func instantiate(h index.SymbolHit, recv, res goType) goType {
	if recv.arg == "" || h.Symbol.Kind != extract.KindMethod || res.dir != dirOf(h.Path) {
		return res
	}
	if tp := recvTypeParam(h.Symbol.Signature); tp == "" || tp != res.name {
		return res
	}
	if a, ok := decodeArg(recv.arg); ok {
		return a
	}
	return res
}

// recvTypeParam is the first type parameter of a stored method
// declaration's receiver ("func (x *Pointer[T]) Swap(new *T) (old *T)"
// gives "T"), or "".
func recvTypeParam(sig string) string {
	sig = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sig), "{"))
	if !strings.HasPrefix(sig, "func (") {
		return ""
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+sig+"\n", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return ""
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		if id, ok := x.Index.(*ast.Ident); ok {
			return id.Name
		}
	case *ast.IndexListExpr:
		if id, ok := x.Indices[0].(*ast.Ident); ok {
			return id.Name
		}
	}
	return ""
}
