package extract

import (
	"bytes"
	"go/ast"
	"go/token"
	"strings"
)

// The Go extractor's declarations: functions and methods, type, var and
// const specs (a constant repeating its group's type names it in its
// signature), struct fields and interface methods, each as a Symbol.

func (g *goWalker) funcDecl(d *ast.FuncDecl) {
	s := Symbol{
		Name:      d.Name.Name,
		Kind:      KindFunction,
		Parent:    -1,
		Range:     g.rng(d),
		Selection: g.rng(d.Name),
		Signature: SignatureAt(g.src, g.lines.offset(d.Pos())),
		Doc:       docOf(d.Doc),
		Exported:  d.Name.IsExported(),
	}
	if d.Recv != nil && len(d.Recv.List) > 0 {
		s.Kind = KindMethod
		s.Container = receiverName(d.Recv.List[0].Type)
	}
	if d.Body != nil {
		lb, rb := g.lines.offset(d.Body.Lbrace), g.lines.offset(d.Body.Rbrace)
		s.Complexity = countBranches(g.toks.branches, lb, rb)
		g.funcs = append(g.funcs, funcParams(d, lb, rb))
	}
	g.decls[g.lines.offset(d.Name.Pos())] = true
	g.add(s)
}

// receiverName strips pointers and type parameters: (*T[K]) -> "T".
func receiverName(e ast.Expr) string {
	if id, ok := TypeBase(e).(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TypeBase strips what a type expression wraps its named type in:
// pointers, parentheses and type arguments ((*T[K]) -> T, *pkg.T -> pkg.T).
func TypeBase(e ast.Expr) ast.Expr {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return e
		}
	}
}

func (g *goWalker) genDecl(d *ast.GenDecl) {
	var implied ast.Expr // the type a constant spec without values repeats
	for _, spec := range d.Specs {
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			g.typeSpec(d, sp)
		case *ast.ValueSpec:
			kind := KindVariable
			if d.Tok == token.CONST {
				kind = KindConstant
			}
			doc := sp.Doc
			if doc == nil && len(d.Specs) == 1 {
				doc = d.Doc
			}
			sig := SignatureAt(g.src, g.lines.offset(specStart(d, sp)))
			if d.Tok == token.CONST {
				if len(sp.Values) > 0 {
					implied = sp.Type // nil: the group's constants are untyped
				} else if sp.Type == nil && implied != nil {
					sig = g.impliedSig(sig, d, sp, implied)
				}
			}
			for _, name := range sp.Names {
				if name.Name == "_" {
					continue
				}
				idx := g.add(Symbol{
					Name: name.Name, Kind: kind, Parent: -1,
					Range: g.specRange(d, sp), Selection: g.rng(name),
					Signature: sig,
					Doc:       docOf(doc), Exported: name.IsExported(),
				})
				if st := anonStruct(sp.Type); st != nil {
					g.fields(st.Fields, idx, name.Name, KindField)
				}
			}
		}
	}
}

// impliedSig writes into the signature of a constant spec that repeats
// its group's type (`_Break` after `_ token = iota`) that type after its
// names ("_Break token // break"): the type resolver reads a constant's
// type from its signature, and a method call on it (token.ADD.String())
// is then a reference to the type's method, as gopls finds it.
func (g *goWalker) impliedSig(sig string, d *ast.GenDecl, sp *ast.ValueSpec, typ ast.Expr) string {
	start := g.lines.offset(specStart(d, sp))
	namesEnd := g.lines.offset(sp.Names[len(sp.Names)-1].End())
	ts, te := g.lines.offset(typ.Pos()), g.lines.offset(typ.End())
	if start < 0 || namesEnd < start || ts < 0 || te < ts || te > len(g.src) {
		return sig
	}
	lead := strings.TrimSpace(string(g.src[start:namesEnd]))
	rest, ok := strings.CutPrefix(sig, lead)
	if !ok || strings.ContainsAny(lead, "\n") {
		return sig
	}
	out := lead + " " + string(g.src[ts:te])
	if rest = strings.TrimSpace(rest); rest != "" {
		out += " " + rest
	}
	return capString(out, maxSignature)
}

// specStart makes an unparenthesised declaration's range include its
// keyword ("var x int" rather than "x int"), as gopls does.
func specStart(d *ast.GenDecl, sp ast.Spec) token.Pos {
	if !d.Lparen.IsValid() {
		return d.Pos()
	}
	return sp.Pos()
}

func (g *goWalker) specRange(d *ast.GenDecl, sp ast.Spec) Range {
	return Range{g.pos(specStart(d, sp)), g.pos(sp.End())}
}

func (g *goWalker) typeSpec(d *ast.GenDecl, sp *ast.TypeSpec) {
	doc := sp.Doc
	if doc == nil && len(d.Specs) == 1 {
		doc = d.Doc
	}
	idx := g.add(Symbol{
		Name: sp.Name.Name, Kind: typeKind(sp.Type), Parent: -1,
		Range: g.specRange(d, sp), Selection: g.rng(sp.Name),
		Signature: SignatureAt(g.src, g.lines.offset(specStart(d, sp))),
		Doc:       docOf(doc), Exported: sp.Name.IsExported(),
	})
	switch t := sp.Type.(type) {
	case *ast.StructType:
		g.fields(t.Fields, idx, sp.Name.Name, KindField)
	case *ast.InterfaceType:
		g.fields(t.Methods, idx, sp.Name.Name, KindMethod)
	}
}

func typeKind(e ast.Expr) SymbolKind {
	switch t := e.(type) {
	case *ast.StructType:
		return KindStruct
	case *ast.InterfaceType:
		return KindInterface
	case *ast.FuncType:
		return KindFunction
	case *ast.Ident:
		switch t.Name {
		case "string":
			return KindString
		case "bool":
			return KindBoolean
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
			"uint32", "uint64", "uintptr", "float32", "float64", "complex64",
			"complex128", "byte", "rune":
			return KindNumber
		}
	}
	return KindClass
}

// fields records struct fields or interface methods as children of parent.
// Embedded fields and interfaces are named after their type.
func (g *goWalker) fields(list *ast.FieldList, parent int32, container string, kind SymbolKind) {
	if list == nil {
		return
	}
	for _, f := range list.List {
		fkind := kind
		if _, ok := f.Type.(*ast.FuncType); !ok && kind == KindMethod {
			fkind = KindInterface // embedded interface or type-set term
		}
		doc := docOf(f.Doc)
		if doc == "" {
			doc = docOf(f.Comment)
		}
		names := f.Names
		if len(names) == 0 {
			name := embeddedName(f.Type)
			if name == nil {
				continue
			}
			names = []*ast.Ident{name}
		}
		for _, name := range names {
			if fkind == KindMethod {
				g.decls[g.lines.offset(name.Pos())] = true
			}
			idx := g.add(Symbol{
				Name: name.Name, Kind: fkind, Container: container, Parent: parent,
				Range: g.rng(f), Selection: g.rng(name),
				Signature: g.nodeText(f),
				Doc:       doc, Exported: name.IsExported(),
			})
			if st := anonStruct(f.Type); st != nil && len(f.Names) > 0 {
				g.fields(st.Fields, idx, container+"."+name.Name, KindField)
			}
		}
	}
}

// nodeText is the source of a one-line node (a field's "Addr string"), or
// the first line of a longer one. Struct fields often share their line with
// the braces, so the line alone would be misleading.
func (g *goWalker) nodeText(n ast.Node) string {
	start, end := g.lines.offset(n.Pos()), g.lines.offset(n.End())
	if start < end && bytes.IndexByte(g.src[start:end], '\n') < 0 {
		return capString(string(g.src[start:end]), maxSignature)
	}
	return SignatureAt(g.src, start)
}

// anonStruct is the struct type written out as a variable's or field's
// type (`var trace struct{ ... }`, `scav struct{ ... }`, or a pointer to
// one), or nil. Its fields are recorded under the container
// "var" or "Type.field", so that x.f.g can be typed through them
// (index/golang): the runtime keeps many of its atomics in such structs.
func anonStruct(e ast.Expr) *ast.StructType {
	st, _ := TypeBase(e).(*ast.StructType)
	return st
}

func embeddedName(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t
		default:
			return nil
		}
	}
}
