package index

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// Go selector resolution from syntax: the type of x in x.F, inferred from
// the file's own declarations (receiver, parameters, `var x T`, `x := T{}`,
// `x := &T{}`, `x := f()` and `x := pkg.F()` with a declared result type,
// fields of known structs, method results) and from the signatures the
// index stores for declarations in other files. It runs at query time on
// the buffer being edited, so the index keeps its extraction speed (Go
// bodies are not parsed when indexing); a chain it cannot follow leaves the
// use to RankUse's proximity order.

// goType is a named type: its name and where it is declared, either a
// root-relative directory or an import path as some file wrote it.
type goType struct {
	name string
	dir  string
	imp  importPath
}

func (t goType) inDir(dir string) bool {
	if t.dir != "" {
		return dir == t.dir
	}
	return importNamesDir(t.imp, dir)
}

// maxTypeSteps bounds the lookups of one resolution (each may read the
// name index); chains in real code are a few steps long.
const maxTypeSteps = 12

type goTypeResolver struct {
	st    *Store
	steps int
}

// GoMemberDefinitions resolves the selector x.F whose name contains byte
// offset off of src, the content of the Go file from (root-relative): it
// infers x's type and returns the definitions of the field or method F
// declared on it (or on a type it embeds), those in files that build with
// from (see buildsWith) when there are any. ok is false when the syntax
// does not settle x's type; the caller then falls back to name matching.
func (s *Store) GoMemberDefinitions(from string, src []byte, off int) (hits []SymbolHit, ok bool) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, from, src, parser.SkipObjectResolution)
	if f == nil {
		return nil, false
	}
	sel, stack := selectorAt(f, fset.File(f.Pos()), off)
	if sel == nil {
		return nil, false
	}
	r := &goTypeResolver{st: s}
	fc := r.fileContext(from, f)
	t, ok := r.exprType(fc, stack, sel.X, 0)
	if !ok {
		return nil, false
	}
	hits, ok = r.member(t, sel.Sel.Name, 0)
	// One declaration per platform: keep those that build with from.
	var same []SymbolHit
	for _, h := range hits {
		if buildsWith(from, h.Path) {
			same = append(same, h)
		}
	}
	if len(same) > 0 {
		hits = same
	}
	return hits, ok
}

// fileCtx is a file whose type expressions are being read.
type fileCtx struct {
	dir     string
	imports map[string]importPath // by bound name
	file    *ast.File             // nil for a signature read from the index
}

func (r *goTypeResolver) fileContext(p string, f *ast.File) *fileCtx {
	fc := &fileCtx{dir: path.Dir(p), imports: map[string]importPath{}, file: f}
	for _, im := range f.Imports {
		ip := strings.Trim(im.Path.Value, "\"`")
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		}
		fc.imports[goImportName(ip, name)] = importPath{p: ip}
	}
	return fc
}

// storedFileContext is the context of an indexed file, from its stored
// imports.
func (r *goTypeResolver) storedFileContext(p string) *fileCtx {
	fc := &fileCtx{dir: path.Dir(p), imports: map[string]importPath{}}
	if det, err := r.st.Detail(p); err == nil {
		for _, im := range det.Imports {
			fc.imports[goImportName(im.Path, im.Name)] = importPath{p: im.Path}
		}
	}
	return fc
}

// selectorAt finds the selector expression whose Sel contains off, and
// the path of nodes from the file down to it.
func selectorAt(f *ast.File, tf *token.File, off int) (*ast.SelectorExpr, []ast.Node) {
	if tf == nil || off < 0 || off > tf.Size() {
		return nil, nil
	}
	pos := tf.Pos(off)
	var found *ast.SelectorExpr
	var stack, path []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if pos < n.Pos() || pos > n.End() {
			return false
		}
		if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Pos() <= pos && pos <= s.Sel.End() {
			found, path = s, append([]ast.Node(nil), stack...)
			return false
		}
		stack = append(stack, n)
		return true
	})
	return found, path
}

// typeExpr turns a type expression written in fc into a goType.
func typeExpr(fc *fileCtx, e ast.Expr) (goType, bool) {
	switch t := extract.TypeBase(e).(type) {
	case *ast.Ident:
		if goPredeclared[t.Name] {
			return goType{}, false
		}
		return goType{name: t.Name, dir: fc.dir}, true
	case *ast.SelectorExpr:
		q, ok := t.X.(*ast.Ident)
		if !ok {
			return goType{}, false
		}
		ip, ok := fc.imports[q.Name]
		if !ok {
			return goType{}, false
		}
		return goType{name: t.Sel.Name, imp: ip}, true
	}
	return goType{}, false
}

var goPredeclared = map[string]bool{
	"bool": true, "byte": true, "complex64": true, "complex128": true, "error": true,
	"float32": true, "float64": true, "int": true, "int8": true, "int16": true,
	"int32": true, "int64": true, "rune": true, "string": true, "uint": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"any": true, "comparable": true,
}

// lookup returns the definitions named name with the given container
// (exact spelling) whose directory t-style matching accepts.
func (r *goTypeResolver) lookup(name, container string, inDir func(string) bool, kinds ...extract.SymbolKind) []SymbolHit {
	r.steps++
	if r.steps > maxTypeSteps {
		return nil
	}
	all, err := r.st.Definitions(name)
	if err != nil {
		return nil
	}
	var out []SymbolHit
	for _, h := range all {
		s := &h.Symbol
		if s.Name != name || s.Container != container || !strings.HasSuffix(h.Path, ".go") || !inDir(path.Dir(h.Path)) {
			continue
		}
		if len(kinds) > 0 && !containsKind(kinds, s.Kind) {
			continue
		}
		out = append(out, h)
	}
	return out
}

func containsKind(ks []extract.SymbolKind, k extract.SymbolKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
