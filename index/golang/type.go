package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"strings"

	"github.com/parleyhq/parley/index"
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
	imp  index.ImportPath
	// arg is a generic type's first type argument (generic.go).
	arg string
}

func (t goType) inDir(dir string) bool {
	if t.dir != "" {
		return dir == t.dir
	}
	return index.ImportNamesDir(t.imp, dir)
}

// maxTypeSteps bounds the lookups of one resolution (each may read the
// name index); chains in real code are a few steps long.
const maxTypeSteps = 12

type goTypeResolver struct {
	st    *index.Store
	steps int
	// cache, when set, keeps name-index answers and decoded symbols
	// across the resolvers of one references query.
	cache *lookupCache
}

// lookupCache memoizes lookup's reads: the name index's candidates per
// name (no symbol record decoded) and each symbol it then decoded.
type lookupCache struct {
	cands map[string][]index.NameEntry
	files map[string][]extract.Symbol
	ctxs  map[string]*fileCtx
	// shared, when set, keeps cands and files across queries while the
	// store's generation is still gen.
	shared *operandTypeCache
	gen    uint64
}

func newLookupCache() *lookupCache {
	return &lookupCache{cands: map[string][]index.NameEntry{}, files: map[string][]extract.Symbol{}, ctxs: map[string]*fileCtx{}}
}

// MemberDefinitions resolves the selector x.F whose name contains byte
// offset off of src, the content of the Go file from (root-relative): it
// infers x's type and returns the definitions of the field or method F
// declared on it (or on a type it embeds), those in files that build with
// from (see index.PortOf) when there are any. ok is false when the syntax
// does not settle x's type; the caller then falls back to name matching.
func MemberDefinitions(s *index.Store, from string, src []byte, off int) (hits []index.SymbolHit, ok bool) {
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
	if t, tok := r.exprType(fc, stack, sel.X, 0); tok && t == builtinError {
		// The predeclared error's Error: declared, for documentation,
		// in GOROOT's builtin/builtin.go, where gopls goes too.
		hits = r.lookup(sel.Sel.Name, "error", func(d string) bool { return d == "builtin" }, extract.KindMethod)
		ok = len(hits) > 0
	} else if tok {
		hits, ok = r.member(t, sel.Sel.Name, 0)
	} else if hits, ok = r.anonMethod(fc, stack, sel, 0); !ok {
		return nil, false
	}
	// One declaration per platform: keep those that build with from.
	var same []index.SymbolHit
	port := index.PortOf(from, buildOf(s, from))
	for _, h := range hits {
		if port.Admits(h.Path, buildOf(s, h.Path)) {
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
	imports map[string]index.ImportPath // by bound name
	file    *ast.File                   // nil for a signature read from the index
}

func (r *goTypeResolver) fileContext(p string, f *ast.File) *fileCtx {
	fc := &fileCtx{dir: path.Dir(p), imports: map[string]index.ImportPath{}, file: f}
	for _, im := range f.Imports {
		ip := strings.Trim(im.Path.Value, "\"`")
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		}
		fc.imports[extract.GoImportName(ip, name)] = index.ImportPath{Path: ip}
	}
	return fc
}

// storedFileContext is the context of an indexed file, from its stored
// imports.
func (r *goTypeResolver) storedFileContext(p string) *fileCtx {
	if r.cache != nil {
		if fc, ok := r.cache.ctxs[p]; ok {
			return fc
		}
	}
	fc := &fileCtx{dir: path.Dir(p), imports: map[string]index.ImportPath{}}
	if r.cache != nil {
		r.cache.ctxs[p] = fc
	}
	if det, err := r.st.Detail(p); err == nil {
		for _, im := range det.Imports {
			fc.imports[extract.GoImportName(im.Path, im.Name)] = index.ImportPath{Path: im.Path}
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
	t, ok := baseType(fc, e)
	if ok {
		if a, ok := typeArg(fc, e); ok {
			t.arg = encodeArg(a)
		}
	}
	return t, ok
}

// baseType is typeExpr without the type argument.
func baseType(fc *fileCtx, e ast.Expr) (goType, bool) {
	switch t := extract.TypeBase(e).(type) {
	case *ast.Ident:
		if t.Name == "error" {
			return builtinError, true
		}
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
// (exact spelling) whose directory inDir accepts. It filters on the name
// index first and decodes only the symbols that pass: common names
// (String, Close) have hundreds of definitions.
func (r *goTypeResolver) lookup(name, container string, inDir func(string) bool, kinds ...extract.SymbolKind) []index.SymbolHit {
	r.steps++
	if r.steps > maxTypeSteps {
		return nil
	}
	c := r.cache
	cands := r.candidates(name)
	var out []index.SymbolHit
	var load []index.NameEntry
	for _, cd := range cands {
		if cd.Container != container || !strings.HasSuffix(cd.Path, ".go") || !inDir(path.Dir(cd.Path)) {
			continue
		}
		if len(kinds) > 0 && !containsKind(kinds, cd.Kind) {
			continue
		}
		if c == nil {
			load = append(load, cd)
			continue
		}
		// Whole files are decoded once per query: the declarations a
		// query reads cluster in a few files (a type's methods and fields).
		syms, err := r.symbols(cd.Path)
		if err != nil || int(cd.Index) >= len(syms) {
			continue
		}
		out = append(out, index.SymbolHit{Path: cd.Path, Symbol: syms[cd.Index]})
	}
	if len(load) > 0 {
		hits, err := r.st.SymbolsOf(load)
		if err != nil {
			return nil
		}
		out = append(out, hits...)
	}
	index.SortHits(out)
	return out
}

// candidates returns the name index's exact candidates for name.
func (r *goTypeResolver) candidates(name string) []index.NameEntry {
	c := r.cache
	if c != nil {
		if cands, ok := c.cands[name]; ok {
			return cands
		}
		if c.shared != nil {
			if cands, ok := c.shared.candidates(name); ok {
				c.cands[name] = cands
				return cands
			}
		}
	}
	exact, err := r.st.NameEntries(name)
	if err != nil {
		return nil
	}
	if c != nil {
		c.cands[name] = exact
		if c.shared != nil {
			c.shared.putCandidates(name, exact, c.gen)
		}
	}
	return exact
}

// declDir returns the directory of a package-level declaration of t's
// name that t accepts, from the name index alone.
func (r *goTypeResolver) declDir(t goType) (string, bool) {
	for _, cd := range r.candidates(t.name) {
		if cd.Container == "" && strings.HasSuffix(cd.Path, ".go") && t.inDir(path.Dir(cd.Path)) {
			return path.Dir(cd.Path), true
		}
	}
	return "", false
}

// symbols returns a file's symbols, through the cache when there is one.
func (r *goTypeResolver) symbols(p string) ([]extract.Symbol, error) {
	if r.cache == nil {
		return r.st.Symbols(p)
	}
	c := r.cache
	if syms, ok := c.files[p]; ok {
		return syms, nil
	}
	if c.shared != nil {
		if syms, ok := c.shared.symbols(p); ok {
			c.files[p] = syms
			return syms, nil
		}
	}
	syms, err := r.st.Symbols(p)
	if err == nil {
		c.files[p] = syms
		if c.shared != nil {
			c.shared.putSymbols(p, syms, c.gen)
		}
	}
	return syms, err
}

func containsKind(ks []extract.SymbolKind, k extract.SymbolKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
