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

// maxTypeDepth bounds the recursion through declarations and embedded
// fields.
const maxTypeDepth = 12

// exprType infers the type of e, written in fc; stack is the path of
// nodes enclosing e when fc is the file being edited (nil otherwise).
func (r *goTypeResolver) exprType(fc *fileCtx, stack []ast.Node, e ast.Expr, depth int) (goType, bool) {
	if depth > maxTypeDepth {
		return goType{}, false
	}
	switch x := e.(type) {
	case *ast.ParenExpr:
		return r.exprType(fc, stack, x.X, depth+1)
	case *ast.StarExpr:
		return r.exprType(fc, stack, x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return r.exprType(fc, stack, x.X, depth+1)
		}
	case *ast.CompositeLit:
		return typeExpr(fc, x.Type)
	case *ast.TypeAssertExpr: // v.(T), and v, ok := v.(T)'s v
		if x.Type != nil {
			return typeExpr(fc, x.Type)
		}
	case *ast.IndexExpr:
		if id, ok := x.Index.(*ast.Ident); ok && id.Name == "_" && stack == nil {
			return r.elemType(fc, x.X, depth+1) // a descriptor's D[_]
		}
		if stack != nil { // x[i] in the buffer (elem.go)
			if te, tfc, ok := r.bufTypeExpr(fc, stack, x.X, depth+1); ok {
				if te, tfc, ok = r.elemTypeExpr(tfc, te, false, depth+1); ok {
					return typeExpr(tfc, te)
				}
			}
		}
	case *ast.Ident:
		return r.identType(fc, stack, x, depth)
	case *ast.CallExpr:
		return r.callType(fc, stack, x, 0, depth)
	case *ast.SelectorExpr:
		if q, ok := x.X.(*ast.Ident); ok && r.isImport(fc, stack, q) {
			ip := fc.imports[q.Name]
			return r.varType(x.Sel.Name, goType{imp: ip}.inDir, depth)
		}
		t, ok := r.exprType(fc, stack, x.X, depth+1)
		if !ok {
			return r.anonFieldType(fc, stack, x, depth)
		}
		hits, _ := r.member(t, x.Sel.Name, depth+1)
		for _, h := range hits {
			if h.Symbol.Kind == extract.KindField {
				return r.fieldType(h)
			}
		}
	}
	return goType{}, false
}

// anonFieldType is the type of x.f when x has an anonymous struct type
// with a field f, or one promoted from its embedded fields.
func (r *goTypeResolver) anonFieldType(fc *fileCtx, stack []ast.Node, x *ast.SelectorExpr, depth int) (goType, bool) {
	field, embedded, ok := r.anonMember(fc, stack, x.X, x.Sel.Name, depth)
	if !ok || len(embedded) == 0 {
		return field, ok
	}
	for _, et := range embedded {
		hits, _ := r.member(et, x.Sel.Name, depth+1)
		for _, h := range hits {
			if h.Symbol.Kind == extract.KindField {
				return r.fieldType(h)
			}
		}
	}
	return goType{}, false
}

// isImport reports whether q names one of fc's imports rather than a local
// of the same name.
func (r *goTypeResolver) isImport(fc *fileCtx, stack []ast.Node, q *ast.Ident) bool {
	if _, ok := fc.imports[q.Name]; !ok {
		return false
	}
	_, declared := localDecl(stack, q)
	return !declared
}

// callType is the type of result idx of a call.
func (r *goTypeResolver) callType(fc *fileCtx, stack []ast.Node, c *ast.CallExpr, idx, depth int) (goType, bool) {
	if h, recv, ok := r.calleeRecv(fc, stack, c, depth); ok {
		t, ok := r.resultType(h, idx)
		if ok {
			t = instantiate(h, recv, t)
		}
		return t, ok
	}
	switch fn := c.Fun.(type) {
	case *ast.Ident:
		if fn.Name == "new" && len(c.Args) == 1 {
			return typeExpr(fc, c.Args[0])
		}
		if b, ok := localDecl(stack, fn); ok {
			return localCallType(fc, b, idx)
		}
		return r.typeNamed(fn.Name, goType{dir: fc.dir})
	case *ast.SelectorExpr:
		if q, ok := fn.X.(*ast.Ident); ok && r.isImport(fc, stack, q) {
			return r.typeNamed(fn.Sel.Name, goType{imp: fc.imports[q.Name]})
		}
	case *ast.ParenExpr, *ast.StarExpr, *ast.IndexExpr:
		// conversions to pointer or generic types: (*T)(x), T[int](x)
		return typeExpr(fc, fn.(ast.Expr))
	}
	return goType{}, false
}

// localCallType is the type of result idx of a call of a local function
// value b: a function literal (mk := func(...) *T {...}) or a variable
// or parameter of a func type.
func localCallType(fc *fileCtx, b binding, idx int) (goType, bool) {
	var ft *ast.FuncType
	switch {
	case b.typ != nil:
		ft, _ = b.typ.(*ast.FuncType)
	case b.idx == 0:
		if lit, ok := b.val.(*ast.FuncLit); ok {
			ft = lit.Type
		}
	}
	if ft == nil || ft.Results == nil {
		return goType{}, false
	}
	for _, f := range ft.Results.List {
		n := max(len(f.Names), 1)
		if idx < n {
			return typeExpr(fc, f.Type)
		}
		idx -= n
	}
	return goType{}, false
}

// typeNamed is the conversion T(x) when name is a type declared where at
// says.
func (r *goTypeResolver) typeNamed(name string, at goType) (goType, bool) {
	for _, h := range r.lookup(name, "", at.inDir) {
		switch h.Symbol.Kind {
		case extract.KindStruct, extract.KindInterface, extract.KindClass, extract.KindString,
			extract.KindNumber, extract.KindBoolean:
			return goType{name: name, dir: dirOf(h.Path)}, true
		}
	}
	return goType{}, false
}

// resultType parses the stored signature of a function or method and
// returns its result idx.
func (r *goTypeResolver) resultType(h index.SymbolHit, idx int) (goType, bool) {
	te, fc, ok := r.resultExpr(h, idx)
	if !ok {
		return goType{}, false
	}
	return typeExpr(fc, te)
}

// resultExpr is the type expression of result idx of the function or
// method h, as written in its file.
func (r *goTypeResolver) resultExpr(h index.SymbolHit, idx int) (ast.Expr, *fileCtx, bool) {
	text := strings.TrimSpace(h.Symbol.Signature)
	text = strings.TrimSpace(strings.TrimSuffix(text, "{"))
	if !strings.HasPrefix(text, "func") {
		// An interface's method is stored as written in the
		// interface, "Open(name string) (File, error)".
		text = "func " + text
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text+"\n", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return nil, nil, false
	}
	fd, ok := f.Decls[0].(*ast.FuncDecl)
	if !ok || fd.Type.Results == nil {
		return nil, nil, false
	}
	i := 0
	for _, field := range fd.Type.Results.List {
		n := max(1, len(field.Names))
		if idx < i+n {
			return field.Type, r.storedFileContext(h.Path), true
		}
		i += n
	}
	return nil, nil, false
}

// callee is the function or method the call c calls: F() in fc's
// package, q.F() through an import, x.M() on a value of known type.
func (r *goTypeResolver) callee(fc *fileCtx, stack []ast.Node, c *ast.CallExpr, depth int) (index.SymbolHit, bool) {
	h, _, ok := r.calleeRecv(fc, stack, c, depth)
	return h, ok
}

// calleeRecv is callee with the type of the method's operand (the zero
// goType for a function).
func (r *goTypeResolver) calleeRecv(fc *fileCtx, stack []ast.Node, c *ast.CallExpr, depth int) (index.SymbolHit, goType, bool) {
	var recv goType
	var hits []index.SymbolHit
	kind := extract.KindFunction
	switch fn := c.Fun.(type) {
	case *ast.Ident:
		hits = r.lookup(fn.Name, "", func(d string) bool { return d == fc.dir }, kind)
	case *ast.SelectorExpr:
		if q, ok := fn.X.(*ast.Ident); ok && r.isImport(fc, stack, q) {
			hits = r.lookup(fn.Sel.Name, "", goType{imp: fc.imports[q.Name]}.inDir, kind)
			break
		}
		kind = extract.KindMethod
		t, ok := r.exprType(fc, stack, fn.X, depth+1)
		if !ok {
			hits, _ = r.anonMethod(fc, stack, fn, depth)
			break
		}
		recv = t
		hits, _ = r.member(t, fn.Sel.Name, depth+1)
	}
	for _, h := range hits {
		if h.Symbol.Kind == kind {
			return h, recv, true
		}
	}
	return index.SymbolHit{}, goType{}, false
}

// fieldType parses a stored struct field ("Addr string", "a, b *T").
func (r *goTypeResolver) fieldType(h index.SymbolHit) (goType, bool) {
	st, ok := parseFieldSig(h.Symbol.Signature)
	if !ok {
		// "scav struct {": the first line of a field of an anonymous
		// struct type, whose fields the index keeps under Type.field.
		if anonStructSig(h.Symbol.Signature) {
			return anonType(h.Symbol.Container+"."+h.Symbol.Name, h.Path), true
		}
		return goType{}, false
	}
	if _, ok := st.Type.(*ast.StructType); ok {
		return anonType(h.Symbol.Container+"."+h.Symbol.Name, h.Path), true
	}
	return typeExpr(r.storedFileContext(h.Path), st.Type)
}

// anonType is the anonymous struct type of the variable or field whose
// fields the extractor records under container (index/extract's
// anonStruct): a name no declared type can have.
func anonType(container, path string) goType {
	return goType{name: container, dir: dirOf(path)}
}

// anonStructSig reports whether a stored first line declares a field of
// an anonymous struct type ("scav struct", its brace trimmed).
func anonStructSig(sig string) bool {
	sig = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sig), "{"))
	return strings.HasSuffix(sig, " struct") || strings.HasSuffix(sig, "*struct")
}

func parseFieldSig(sig string) (*ast.Field, bool) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype _ struct{\n"+sig+"\n}\n", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return nil, false
	}
	gd, ok := f.Decls[0].(*ast.GenDecl)
	if !ok || len(gd.Specs) == 0 {
		return nil, false
	}
	ts, ok := gd.Specs[0].(*ast.TypeSpec)
	if !ok {
		return nil, false
	}
	s, ok := ts.Type.(*ast.StructType)
	if !ok || len(s.Fields.List) == 0 {
		return nil, false
	}
	return s.Fields.List[0], true
}

// varType is the type of a package-level variable, from its stored
// declaration line.
func (r *goTypeResolver) varType(name string, inDir func(string) bool, depth int) (goType, bool) {
	vs, fc, i, ok := r.varSpec(name, inDir)
	switch {
	case !ok:
	case vs.Type != nil:
		if _, ok := extract.TypeBase(vs.Type).(*ast.StructType); ok {
			return goType{name: name, dir: fc.dir}, true // anonType
		}
		return typeExpr(fc, vs.Type)
	case i < len(vs.Values):
		if t, ok := r.cutLiteral(fc, vs.Values[i]); ok {
			return t, true
		}
		return r.exprType(fc, nil, vs.Values[i], depth+1)
	}
	return goType{}, false
}

// cutLiteral is the type a stored declaration's value names where a
// value belongs: the stored line of a composite literal spanning lines
// ends before its brace (`var CmdList = &base.Command`), which parses as
// the address of a type name, not as a literal.
func (r *goTypeResolver) cutLiteral(fc *fileCtx, v ast.Expr) (goType, bool) {
	if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
		v = u.X
	}
	switch x := v.(type) {
	case *ast.Ident:
		return r.typeNamed(x.Name, goType{dir: fc.dir})
	case *ast.SelectorExpr:
		if q, ok := x.X.(*ast.Ident); ok {
			if ip, ok := fc.imports[q.Name]; ok {
				return r.typeNamed(x.Sel.Name, goType{imp: ip})
			}
		}
	}
	return goType{}, false
}

// varSpec parses the stored declaration of a package-level variable or
// constant: its spec, the context it is written in, and the index of
// name among the spec's names.
func (r *goTypeResolver) varSpec(name string, inDir func(string) bool) (*ast.ValueSpec, *fileCtx, int, bool) {
	for _, h := range r.lookup(name, "", inDir, extract.KindVariable, extract.KindConstant) {
		text := strings.TrimSpace(h.Symbol.Signature)
		if !strings.HasPrefix(text, "var ") {
			text = "var " + text
		}
		var f *ast.File
		for _, tail := range []string{"", "}", "})", ")", " {}"} {
			if pf, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text+tail+"\n", parser.SkipObjectResolution); err == nil {
				f = pf
				break
			}
		}
		if f == nil || len(f.Decls) == 0 {
			continue
		}
		gd, ok := f.Decls[0].(*ast.GenDecl)
		if !ok || len(gd.Specs) == 0 {
			continue
		}
		vs, ok := gd.Specs[0].(*ast.ValueSpec)
		if !ok {
			continue
		}
		for i, n := range vs.Names {
			if n.Name == name {
				return vs, r.storedFileContext(h.Path), i, true
			}
		}
		if vs.Type != nil {
			return vs, r.storedFileContext(h.Path), len(vs.Values), true
		}
	}
	return nil, nil, 0, false
}

// member returns the fields and methods named name declared on t, or on a
// type t embeds (depth-first, the shallowest depth that has one).
func (r *goTypeResolver) member(t goType, name string, depth int) ([]index.SymbolHit, bool) {
	if hits := r.lookup(name, t.name, t.inDir); len(hits) > 0 {
		return hits, true
	}
	if depth > maxTypeDepth {
		return nil, false
	}
	for _, decl := range r.lookup(t.name, "", t.inDir) {
		if ts := parseTypeSig(decl.Symbol.Signature); ts != nil && ts.Assign.IsValid() {
			// type FileInfo = fs.FileInfo: the aliased type's members.
			if at, ok := typeExpr(r.storedFileContext(decl.Path), ts.Type); ok && at != t {
				return r.member(at, name, depth+1)
			}
			continue
		}
		syms, err := r.symbols(decl.Path)
		if err != nil {
			continue
		}
		fc := r.storedFileContext(decl.Path)
		for _, s := range syms {
			if s.Container != t.name || (s.Kind != extract.KindField && s.Kind != extract.KindInterface) {
				continue
			}
			f, ok := parseFieldSig(s.Signature)
			if !ok || len(f.Names) > 0 {
				continue // a named field, not an embedded type
			}
			et, ok := typeExpr(fc, f.Type)
			if !ok {
				continue
			}
			if hits, ok := r.member(et, name, depth+1); ok {
				return hits, true
			}
		}
	}
	return nil, false
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

// elemType is the type of the elements of e (a slice, array or map, or a
// named type whose underlying type is one): e is a descriptor's
// "[]T{}", a field chain "D.f", or an element "D[_]" of one.
func (r *goTypeResolver) elemType(fc *fileCtx, e ast.Expr, depth int) (goType, bool) {
	te, tfc, ok := r.typeExprOf(fc, e, depth)
	if !ok {
		return goType{}, false
	}
	return r.elemOfType(tfc, te, depth)
}

// typeExprOf returns the type expression e has, as written in the
// returned context: a composite literal's type, or a field's declared type.
func (r *goTypeResolver) typeExprOf(fc *fileCtx, e ast.Expr, depth int) (ast.Expr, *fileCtx, bool) {
	switch x := e.(type) {
	case *ast.CompositeLit:
		return x.Type, fc, x.Type != nil
	case *ast.SelectorExpr:
		if q, ok := x.X.(*ast.Ident); ok && r.isImport(fc, nil, q) {
			return nil, nil, false
		}
		return r.fieldTypeExpr(fc, nil, x, depth)
	case *ast.IndexExpr:
		if id, ok := x.Index.(*ast.Ident); ok && id.Name == "_" {
			te, tfc, ok := r.typeExprOf(fc, x.X, depth+1)
			if !ok {
				return nil, nil, false
			}
			return elemExpr(te), tfc, elemExpr(te) != nil
		}
		// F()[1]: a call's second result.
		c, ok := x.X.(*ast.CallExpr)
		lit, ok2 := x.Index.(*ast.BasicLit)
		if !ok || !ok2 {
			return nil, nil, false
		}
		if i, err := strconv.Atoi(lit.Value); err == nil {
			return r.callResultExpr(fc, c, i, depth)
		}
	case *ast.CallExpr:
		return r.callResultExpr(fc, x, 0, depth)
	case *ast.Ident:
		// A package-level variable: its declared type, or its
		// initializer's composite literal type.
		vs, vfc, i, ok := r.varSpec(x.Name, func(d string) bool { return d == fc.dir })
		switch {
		case !ok:
		case vs.Type != nil:
			return vs.Type, vfc, true
		case i < len(vs.Values):
			if cl, ok := vs.Values[i].(*ast.CompositeLit); ok && cl.Type != nil {
				return cl.Type, vfc, true
			}
		}
	}
	return nil, nil, false
}

// callResultExpr is the type expression of result idx of the call c.
func (r *goTypeResolver) callResultExpr(fc *fileCtx, c *ast.CallExpr, idx, depth int) (ast.Expr, *fileCtx, bool) {
	if depth > maxTypeDepth {
		return nil, nil, false
	}
	h, ok := r.callee(fc, nil, c, depth)
	if !ok {
		return nil, nil, false
	}
	return r.resultExpr(h, idx)
}

// elemOfType is the element type of the type te written in fc, following
// a named type to its declaration once.
func (r *goTypeResolver) elemOfType(fc *fileCtx, te ast.Expr, depth int) (goType, bool) {
	if el := elemExpr(te); el != nil {
		return typeExpr(fc, el)
	}
	if depth > maxTypeDepth {
		return goType{}, false
	}
	t, ok := typeExpr(fc, te)
	if !ok || t == builtinError {
		return goType{}, false
	}
	// type Nodes []Node
	for _, decl := range r.lookup(t.name, "", t.inDir) {
		if ts := parseTypeSig(decl.Symbol.Signature); ts != nil {
			return r.elemOfType(r.storedFileContext(decl.Path), ts.Type, depth+1)
		}
	}
	return goType{}, false
}

// elemExpr is the element type of a slice, array or map type expression
// (through pointers and parentheses), or nil.
func elemExpr(te ast.Expr) ast.Expr {
	for {
		switch t := te.(type) {
		case *ast.StarExpr:
			te = t.X
		case *ast.ParenExpr:
			te = t.X
		case *ast.ArrayType:
			return t.Elt
		case *ast.MapType:
			return t.Value
		default:
			return nil
		}
	}
}

// parseTypeSig parses a stored type declaration ("type Nodes []Node",
// "Nodes []Node").
func parseTypeSig(sig string) *ast.TypeSpec {
	sig = strings.TrimSpace(sig)
	if !strings.HasPrefix(sig, "type ") {
		sig = "type " + sig
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+sig+"\n", parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return nil
	}
	gd, ok := f.Decls[0].(*ast.GenDecl)
	if !ok || len(gd.Specs) == 0 {
		return nil
	}
	ts, _ := gd.Specs[0].(*ast.TypeSpec)
	return ts
}

// fieldTypeExpr is the written type of the field x selects (x.X's type
// worked out, then its member x.Sel a field of it), with the file that
// declares it.
func (r *goTypeResolver) fieldTypeExpr(fc *fileCtx, stack []ast.Node, x *ast.SelectorExpr, depth int) (ast.Expr, *fileCtx, bool) {
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
	return nil, nil, false
}
