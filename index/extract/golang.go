package extract

import (
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
