package complete

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// importProposal: the last edit of a Go file uses pkg.Name where pkg is no
// import, local or declaration of the file; when the index knows a
// package of that name declaring Name, the import is proposed.
func importProposal(src NextEditSource) (Proposal, bool) {
	if !strings.HasSuffix(src.Path, ".go") {
		return Proposal{}, false
	}
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, src.Path, src.Text, 0)
	if f == nil || f.Name == nil {
		return Proposal{}, false
	}
	imported := map[string]bool{}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		}
		imported[extract.GoImportName(p, name)] = true
	}
	unresolved := map[*ast.Ident]bool{}
	for _, id := range f.Unresolved {
		unresolved[id] = true
	}
	tf := fset.File(f.Pos())
	first, last := src.Last.StartLine, src.Last.StartLine+len(splitLines(src.Last.After))-1
	var found *ast.SelectorExpr
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || found != nil {
			return found == nil
		}
		x, ok := sel.X.(*ast.Ident)
		l := tf.Line(sel.Pos())
		if ok && unresolved[x] && !imported[x.Name] && ast.IsExported(sel.Sel.Name) && l >= first && l <= last {
			found = sel
		}
		return true
	})
	if found == nil {
		return Proposal{}, false
	}
	pkg, name := found.X.(*ast.Ident).Name, found.Sel.Name
	if declaredInPackage(src, pkg) {
		return Proposal{}, false
	}
	ip, ok := importPathFor(src, pkg, name)
	if !ok {
		return Proposal{}, false
	}
	e := importEdit(fset, f, src.Path, ip)
	return Proposal{Edits: []Edit{e}, Why: fmt.Sprintf("import %q for %s.%s", ip, pkg, name)}, true
}

// declaredInPackage reports whether the file's package declares name at
// top level in another file (pkg.X is then a selector on it).
func declaredInPackage(src NextEditSource, name string) bool {
	entries, err := src.Store.NameEntries(name)
	if err != nil {
		return true
	}
	dir := path.Dir(src.Path)
	return slices.ContainsFunc(entries, func(e index.NameEntry) bool { return e.Container == "" && path.Dir(e.Path) == dir })
}

// importPathFor finds the import path of a package named pkg that
// declares the exported name: the shortest of the candidates (the
// standard library's over a vendored copy). A directory of the root is
// its import path under GOROOT/src, else the module's path joined to it.
func importPathFor(src NextEditSource, pkg, name string) (string, bool) {
	entries, err := src.Store.NameEntries(name)
	if err != nil {
		return "", false
	}
	module := ""
	if data, err := src.Read("go.mod"); err == nil {
		module = modfile.ModulePath(data)
	}
	var best string
	for _, e := range entries {
		dir := path.Dir(e.Path)
		if e.Container != "" || !strings.HasSuffix(e.Path, ".go") || strings.HasSuffix(e.Path, "_test.go") || path.Base(dir) != pkg || dir == path.Dir(src.Path) {
			continue
		}
		if strings.Contains(dir, "internal") || strings.Contains(dir, "testdata") {
			continue // not importable from anywhere, or not a package
		}
		ip := dir
		if module != "" {
			ip = module + "/" + dir
		}
		if best == "" || len(ip) < len(best) {
			best = ip
		}
	}
	return best, best != ""
}

// importEdit inserts the import of ip: in the file's first import block,
// in sorted place among its first group, or as a new declaration after
// the package clause.
func importEdit(fset *token.FileSet, f *ast.File, p, ip string) Edit {
	spec := strconv.Quote(ip)
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT || !gd.Lparen.IsValid() || len(gd.Specs) == 0 {
			continue
		}
		at := gd.Rparen
		prevLine := 0
		for _, s := range gd.Specs {
			is := s.(*ast.ImportSpec)
			l := fset.Position(is.Pos()).Line
			if prevLine != 0 && l > prevLine+1 {
				break // the end of the first group
			}
			prevLine = fset.Position(is.End()).Line
			if is.Path.Value > spec {
				at = is.Pos()
				if is.Name != nil {
					at = is.Name.Pos()
				}
				break
			}
			at = token.NoPos
		}
		pos := fset.Position(at)
		if !at.IsValid() {
			// After the first group's last spec: the start of the next line.
			pos = token.Position{Line: prevLine + 1, Column: 1}
		}
		if at == gd.Rparen {
			pos = token.Position{Line: fset.Position(gd.Rparen).Line, Column: 1}
		}
		line, col := uint32(pos.Line-1), uint32(pos.Column-1)
		text := "\t" + spec + "\n"
		if col > 0 {
			text = spec + "\n\t"
		}
		return Edit{Path: p, Start: extract.Pos{Line: line, Col: col}, End: extract.Pos{Line: line, Col: col}, NewText: text}
	}
	l := uint32(fset.Position(f.Name.End()).Line) // the line after the package clause
	return Edit{Path: p, Start: extract.Pos{Line: l}, End: extract.Pos{Line: l}, NewText: "\nimport " + spec + "\n"}
}
