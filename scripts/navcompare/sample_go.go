package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Sampling rules for Go (-rule). The default, "exported", is the rule the
// published figures were measured with (exportedCalls); the others aim at
// the classes a syntax index finds hardest, so that a sample drawn with
// them is not the one the resolver was tuned on:
//
//   - fieldcall: x.f.M(...), a method called on a field of a value (the
//     field's type usually comes from another package: p.pkg.Path()).
//   - iface: x.M(...) where M is the name of a method some interface type
//     of the tree declares (Read, String, Pos): calls through interfaces
//     and calls of the many concrete methods that share their names.
//   - atomic: x.M(...) where M is a method of sync/atomic's types (Load,
//     Store, Add...) in a file importing sync/atomic.
//
// Several rules, comma-separated, draw each site with a rule picked at
// random; each site records its rule and the report scores each rule too.

var goRules = []string{"exported", "fieldcall", "iface", "atomic"}

// atomicMethods are the methods of sync/atomic's types.
var atomicMethods = []string{"Load", "Store", "Swap", "CompareAndSwap", "Add", "And", "Or"}

// goRuleSites returns the site lister of each rule in spec, a
// comma-separated list of goRules ("all" for every one). root is read
// once for the iface rule's interface method names.
func goRuleSites(root, spec string) ([]string, []func(string) []site, error) {
	names := strings.Split(spec, ",")
	if spec == "all" {
		names = goRules
	}
	var ifaceNames map[string]bool
	var out []func(string) []site
	for _, n := range names {
		switch n {
		case "exported":
			out = append(out, exportedCalls)
		case "fieldcall":
			out = append(out, func(p string) []site { return goCalls(p, isFieldCall) })
		case "atomic":
			out = append(out, func(p string) []site { return goCalls(p, isAtomicCall) })
		case "iface":
			if ifaceNames == nil {
				var err error
				if ifaceNames, err = interfaceMethodNames(root); err != nil {
					return nil, nil, err
				}
			}
			out = append(out, func(p string) []site {
				return goCalls(p, func(_ *ast.File, sel *ast.SelectorExpr) bool { return ifaceNames[sel.Sel.Name] })
			})
		default:
			return nil, nil, fmt.Errorf("unknown rule %q (%s, all)", n, strings.Join(goRules, ", "))
		}
	}
	return names, out, nil
}

// isFieldCall matches x.f.M(...) with x a plain identifier (a value,
// not one of the file's imports) and M exported.
func isFieldCall(f *ast.File, sel *ast.SelectorExpr) bool {
	inner, ok := sel.X.(*ast.SelectorExpr)
	if !ok || !sel.Sel.IsExported() {
		return false
	}
	x, ok := inner.X.(*ast.Ident)
	return ok && !importsName(f, x.Name)
}

// isAtomicCall matches x.M(...) with M a method of sync/atomic's types,
// x not an import, in a file importing sync/atomic.
func isAtomicCall(f *ast.File, sel *ast.SelectorExpr) bool {
	if !slices.Contains(atomicMethods, sel.Sel.Name) || !slices.ContainsFunc(f.Imports, func(im *ast.ImportSpec) bool {
		return im.Path.Value == `"sync/atomic"`
	}) {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return !ok || !importsName(f, x.Name)
}

// importsName reports whether name is (probably) an import of f: its
// explicit name or the last element of its path.
func importsName(f *ast.File, name string) bool {
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, `"`)
		if (im.Name != nil && im.Name.Name == name) || (im.Name == nil && p[strings.LastIndexByte(p, '/')+1:] == name) {
			return true
		}
	}
	return false
}

// goCalls lists the method names of x.M(...) calls that match, skipping
// any on a line with a non-ASCII byte before the name.
func goCalls(path string, match func(*ast.File, *ast.SelectorExpr) bool) []site {
	return callSites(path, func(f *ast.File, call *ast.CallExpr) *ast.Ident {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && match(f, sel) {
			return sel.Sel
		}
		return nil
	})
}

// callSites lists the names callee picks from the calls of the Go file
// at path (nil: none), skipping any on a line with a non-ASCII byte
// before the name.
func callSites(path string, callee func(*ast.File, *ast.CallExpr) *ast.Ident) []site {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var out []site
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if id := callee(f, call); id != nil {
			if s, ok := asciiSite(fset, src, id); ok {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

// asciiSite is the site of id, unless its line has a non-ASCII byte
// before it (byte and UTF-16 columns would differ).
func asciiSite(fset *token.FileSet, src []byte, id *ast.Ident) (site, bool) {
	p := fset.Position(id.Pos())
	lineStart := p.Offset - (p.Column - 1)
	for _, c := range src[lineStart:p.Offset] {
		if c >= 0x80 {
			return site{}, false
		}
	}
	return site{Line: uint32(p.Line - 1), Col: uint32(p.Column - 1), Name: id.Name}, true
}

// interfaceMethodNames returns the names of the methods declared in
// interface types of the non-test Go files under root.
func interfaceMethodNames(root string) (map[string]bool, error) {
	names := map[string]bool{}
	gopls := judges["gopls"]
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && gopls.skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !gopls.source(d.Name()) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			it, ok := n.(*ast.InterfaceType)
			if !ok {
				return true
			}
			for _, m := range it.Methods.List {
				if _, ok := m.Type.(*ast.FuncType); ok {
					for _, id := range m.Names {
						names[id.Name] = true
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("interface methods of %s: %w", root, err)
	}
	return names, nil
}
