package extract

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"strconv"
	"strings"
)

func init() { register("go", goExtractor{}) }

// goExtractor uses go/parser rather than tree-sitter: it is measured at
// ~15 MB/s per core here against 0.1-0.25 MB/s for the Go grammar. go/parser
// cannot be interrupted, but its cost is linear in the input and the indexer
// caps file size, which bounds the parse as the budget would.
type goExtractor struct{}

func (goExtractor) Extract(ctx context.Context, path string, src []byte, _ Options) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("extract go %s: internal error: %v", path, p)
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return extractGo(path, src, true), nil
}

// extractGo runs the two passes. With compact false the parser sees the
// whole file; tests compare both modes to prove the offset mapping exact.
func extractGo(path string, src []byte, compact bool) *Result {
	fset := token.NewFileSet()
	toks := scanGo(src)
	defer toks.release()
	mode := parser.ParseComments | parser.SkipObjectResolution
	text, offsets := src, &offsetMap{}
	if compact {
		text, offsets = compactBodies(src, toks.bodies)
	}
	file, perr := parser.ParseFile(fset, path, text, mode)
	if perr != nil && compact {
		// Emptying bodies cannot break valid code, but a broken file may
		// confuse the body finder; report what a plain parse says.
		text, offsets = src, &offsetMap{}
		file, perr = parser.ParseFile(fset, path, src, mode)
	}
	if file == nil {
		return &Result{Partial: "parse failed: " + firstError(perr)}
	}
	var tf *token.File
	fset.Iterate(func(f *token.File) bool { tf = f; return true }) // the last file added
	lines := &lineIndex{base: tf.Base(), size: len(text), lines: toks.lines, offsets: offsets,
		endLine: len(src) > 0 && src[len(src)-1] == '\n', srcLen: len(src)}
	g := &goWalker{src: src, toks: toks, lines: lines, res: &Result{}, decls: map[int]bool{}}
	if perr != nil {
		g.res.Partial = "syntax errors: " + firstError(perr)
	}
	if file.Name != nil {
		g.res.Package = file.Name.Name
	}
	g.res.Build = goBuildConstraint(file)
	g.file(file)
	return g.res
}

// goBuildConstraint returns the file's //go:build expression in its
// canonical form, or "" when it has none (or an unparsable one, which the
// go command rejects anyway). Only comments before the package clause
// count, as for the go command.
func goBuildConstraint(f *ast.File) string {
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			if x, err := constraint.Parse(c.Text); err == nil {
				return x.String()
			}
		}
	}
	return ""
}

func firstError(err error) string {
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		return list[0].Error()
	}
	if err == nil {
		return "unknown"
	}
	return err.Error()
}

type goWalker struct {
	src   []byte
	toks  *goTokens
	lines *lineIndex
	res   *Result
	// decls holds the offsets of function and method names, whose "(" does
	// not make them callees.
	decls map[int]bool
	funcs []goFunc
}

func (g *goWalker) pos(p token.Pos) Pos { return g.lines.pos(p) }

func (g *goWalker) rng(n ast.Node) Range { return Range{g.pos(n.Pos()), g.pos(n.End())} }

func (g *goWalker) file(f *ast.File) {
	for _, imp := range f.Imports {
		// An empty path is a syntax error the parser lets through.
		if p, err := strconv.Unquote(imp.Path.Value); err == nil && p != "" {
			im := Import{Path: p, Line: g.pos(imp.Path.Pos()).Line}
			if imp.Name != nil {
				im.Name = imp.Name.Name
			}
			g.res.Imports = append(g.res.Imports, im)
		}
	}
	for _, c := range g.toks.comments {
		g.res.Todos = ScanTodos(c.text, g.lines.posOff(c.off).Line, g.res.Todos)
	}
	if n := symbolCount(f); n > 0 {
		g.res.Symbols = make([]Symbol, 0, n)
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			g.funcDecl(d)
		case *ast.GenDecl:
			g.genDecl(d)
		}
	}
	g.refs()
}

// symbolCount is the number of symbols file declares, as funcDecl, genDecl
// and fields skip or add them, so that Symbols is allocated once:
// growing it by appending was a sixth of the bytes Go extraction
// allocated.
func symbolCount(f *ast.File) int {
	n := 0
	for _, decl := range f.Decls {
		d, ok := decl.(*ast.GenDecl)
		if !ok {
			n++
			continue
		}
		for _, spec := range d.Specs {
			switch sp := spec.(type) {
			case *ast.ValueSpec:
				for _, name := range sp.Names {
					if name.Name != "_" {
						n++
						if st := anonStruct(sp.Type); st != nil {
							n += fieldCount(st.Fields)
						}
					}
				}
			case *ast.TypeSpec:
				n++
				switch t := sp.Type.(type) {
				case *ast.StructType:
					n += fieldCount(t.Fields)
				case *ast.InterfaceType:
					n += fieldCount(t.Methods)
				}
			}
		}
	}
	return n
}

func fieldCount(list *ast.FieldList) int {
	if list == nil {
		return 0
	}
	n := 0
	for _, f := range list.List {
		if len(f.Names) > 0 {
			n += len(f.Names)
			if st := anonStruct(f.Type); st != nil {
				n += len(f.Names) * fieldCount(st.Fields)
			}
		} else if embeddedName(f.Type) != nil {
			n++
		}
	}
	return n
}

// add appends a symbol and returns its index.
func (g *goWalker) add(s Symbol) int32 {
	g.res.Symbols = append(g.res.Symbols, s)
	return int32(len(g.res.Symbols) - 1)
}

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

func docOf(cg *ast.CommentGroup) string {
	if cg == nil || len(cg.List) == 0 {
		return ""
	}
	for _, c := range cg.List {
		if d := DocLine(c.Text); d != "" {
			return d
		}
	}
	return ""
}

// refs records every identifier from the scan pass; an identifier
// followed by "(" is a callee unless it is a function or method name being
// declared. Conversions such as []byte(x) count as calls, as they do in the
// syntax tree, and so do f[T](x) and a[i](x).
//
// A selector's qualifier that is the name an import binds marks the
// reference with that import, unless a local variable or parameter of
// that name shadows it; any other selector after an identifier, or after
// an index expression x[i] of one, gets its operand's descriptor
// (golang_operand.go).
func (g *goWalker) refs() {
	bound := make(map[string]uint16, len(g.res.Imports))
	for i, im := range g.res.Imports {
		if i < 0xffff {
			bound[GoImportName(im.Path, im.Name)] = uint16(i + 1)
		}
	}
	ops := newOperands(g.src, g.toks, g.funcs, bound)
	refs := make([]Ref, 0, len(g.toks.idents))
	keys := g.toks.keys
	for i, id := range g.toks.idents {
		call := id.paren && !g.decls[id.off]
		r := Ref{Name: id.name, Pos: g.lines.posOff(id.off), Call: call, Sel: id.sel}
		if id.qual >= 0 {
			q := g.toks.idents[id.qual]
			if imp := bound[q.name]; imp > 0 && !id.qualCall && !q.sel && !ops.local(q.name, q.off) {
				r.Import = imp
			} else {
				r.Operand = ops.of(id.qual, id.qualCall)
			}
		}
		if id.sel && id.qual < 0 {
			r.Operand = ops.indexed(id.off)
		}
		for len(keys) > 0 && int(keys[0][0]) < i {
			keys = keys[1:]
		}
		if len(keys) > 0 && int(keys[0][0]) == i {
			r.Operand = ops.keyOf(keys[0][1])
		}
		refs = append(refs, r)
	}
	g.res.Refs = refs
	g.res.Operands = ops.table
}

// GoImportName is the name a Go import binds in the importing file: its
// explicit name, else the package name Go's convention gives the path (its
// last element, without a major-version element "v2", a gopkg.in ".v3"
// suffix or a "go-" prefix). A package whose clause differs from its
// directory is not recognised.
func GoImportName(p, explicit string) string {
	if explicit != "" {
		return explicit
	}
	base := path.Base(p)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		if dir := path.Dir(p); dir != "." {
			base = path.Base(dir)
		}
	}
	if i := strings.Index(base, ".v"); i > 0 && strings.Trim(base[i+2:], "0123456789") == "" {
		base = base[:i]
	}
	return strings.TrimPrefix(base, "go-")
}

// lineIndex converts token.Pos to (line, byte column). Lookups are mostly
// in increasing order, so it remembers the last line and scans forward
// before falling back to binary search; this is several times faster than
// token.File.Position on identifier-dense files.
type lineIndex struct {
	base    int // of the parsed token.File
	size    int // of the parsed text
	offsets *offsetMap
	lines   []int // line starts of the original text
	last    int
	// endLine says the original text ends with a newline, so its end
	// (srcLen) starts an empty last line, which lines leaves out (like
	// token.File): a declaration the parser ends at EOF ends there.
	endLine bool
	srcLen  int
}

// offset converts a parser position to an offset in the original text.
func (li *lineIndex) offset(p token.Pos) int {
	off := int(p) - li.base
	if off < 0 {
		return 0
	}
	if off > li.size {
		off = li.size
	}
	return li.offsets.orig(off)
}

func (li *lineIndex) pos(p token.Pos) Pos { return li.posOff(li.offset(p)) }

// posOff converts a byte offset.
func (li *lineIndex) posOff(off int) Pos {
	if li.endLine && off >= li.srcLen {
		return Pos{Line: uint32(len(li.lines)), Col: 0}
	}
	l := li.last
	if l >= len(li.lines) || li.lines[l] > off {
		l = searchLine(li.lines, off)
	} else {
		for l+1 < len(li.lines) && li.lines[l+1] <= off {
			l++
			if l-li.last > 8 {
				l = searchLine(li.lines, off)
				break
			}
		}
	}
	li.last = l
	if l < 0 || l >= len(li.lines) {
		return Pos{}
	}
	return Pos{Line: uint32(l), Col: uint32(off - li.lines[l])}
}

// searchLine returns the index of the last line start <= off.
func searchLine(lines []int, off int) int {
	lo, hi := 0, len(lines)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if lines[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}
