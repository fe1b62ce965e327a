package typescript

import (
	"path"
	"strings"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// TypeScript and JavaScript name resolution from syntax, as for Python
// (python/resolve.go), sharing its tree cache and step limits. At index time
// every occurrence gets a descriptor of what it binds to
// (describe.go), which references evaluate against the index
// (idx.go, idxrefs.go) and definitions too when the
// buffer is the content the index holds (idxdef.go). An edited
// buffer is parsed and resolved here at query time, by the same scope
// rule (tsLookupBinding), the other files its uses lead to being read
// from their descriptors (tsIdxKnown; parsed only when they have none);
// so is a call of an overloaded function, whose declaring file is parsed
// to pick the signature its arguments fit. What it follows:
//
//   - block scopes (blocks, functions, arrow functions, methods, for and
//     catch clauses); a declaration anywhere in a block binds it there.
//   - imports `import {a as b} from './m'`, `import * as ns`, default
//     imports, and the exports they lead to through re-exports
//     (`export * from`, `export {x as y} from`, `export {x}`).
//   - relative module specifiers to .ts/.tsx/.d.ts/.js/.jsx files and
//     index files (a ".js" specifier also finds the ".ts" file); other
//     specifiers from the store root (tsconfig baseUrl ".").
//   - `this.x` in a class, `new C()`, annotated variables, parameters and
//     fields to the members of C, then of the class it extends and the
//     interfaces it names.

// tsFile parses rel as TypeScript (or TSX/JavaScript by extension).
func (r *resolver) tsFile(rel string, src []byte) *syntax.File {
	return r.ParsedAs(rel, src, Grammar(rel))
}

// Grammar is the extractor language of a TypeScript or JavaScript file.
func Grammar(rel string) string {
	switch path.Ext(rel) {
	case ".tsx":
		return "tsx"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "javascript"
	}
	return "typescript"
}

// IsFile reports whether the file p is TypeScript's or JavaScript's.
func IsFile(p string) bool {
	switch path.Ext(p) {
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// Definitions resolves the TypeScript or JavaScript identifier
// containing byte offset off of src, the content of the file from, as
// python.Definitions does for Python.
func Definitions(s *index.Store, from string, src []byte, off int, read func(rel string) ([]byte, error)) (syntax.Target, bool) {
	if !IsFile(from) {
		return syntax.Target{}, false
	}
	if t, ok, answered := tsIndexedDefinition(s, from, src, off, read); answered {
		return t, ok
	}
	r := newResolver(s, read)
	defer r.Release()
	f := r.tsFile(from, src)
	if f == nil {
		return syntax.Target{}, false
	}
	id := tsIdentAt(f, off)
	if id == nil {
		return syntax.Target{}, false
	}
	t, ok := r.tsResolveName(f, id)
	if !ok {
		return t, false
	}
	return r.tsPickOverload(f, id, t), true
}

var tsIdentTypes = map[string]bool{
	"identifier": true, "type_identifier": true, "property_identifier": true,
	"shorthand_property_identifier": true, "shorthand_property_identifier_pattern": true,
}

func tsIdentAt(f *syntax.File, off int) *ts.Node {
	start := index.IdentStart(f.Src, off)
	if start >= len(f.Src) || !index.IsIdentByte(f.Src[start]) {
		return nil
	}
	n := f.Tree.Root().NamedDescendantForByteRange(uint32(start), uint32(start))
	if n == nil || !tsIdentTypes[f.Type(n)] || int(n.StartByte()) != start {
		return nil
	}
	return n
}

// tsResolveName resolves one identifier node of f to the declaration a
// definition request answers.
func (r *resolver) tsResolveName(f *syntax.File, id *ts.Node) (syntax.Target, bool) {
	name := f.Text(id)
	p := id.Parent()
	if p == nil {
		return syntax.Target{}, false
	}
	switch f.Type(p) {
	case "member_expression":
		if syntax.SameNode(f.Field(p, "property"), id) {
			if Grammar(f.Rel) == "javascript" {
				fields := func(fn *ts.Node) map[string]*ts.Node { return tsThisFields(f, fn) }
				if field := tsThisField(f, p, name, fields); field != nil {
					return r.tsTarget(f, field), true
				}
			}
			return r.tsMember(r.tsEval(f, f.Field(p, "object")), name).Target()
		}
	case "nested_type_identifier":
		if !syntax.SameNode(p.NamedChild(0), id) {
			return r.tsMember(r.tsEval(f, p.NamedChild(0)), name).Target()
		}
	case "import_specifier", "export_specifier":
		return r.tsSpecifier(f, p, id).Target()
	case "method_definition", "public_field_definition", "method_signature", "property_signature",
		"abstract_method_signature":
		if syntax.SameNode(f.Field(p, "name"), id) {
			return r.tsTarget(f, id), true
		}
	}
	if f.Type(id) == "property_identifier" {
		return syntax.Target{}, false
	}
	if v := r.tsLookup(f, id, name); v.OK {
		return v.Target()
	}
	if tsBinding(f, id) {
		return r.tsTarget(f, id), true
	}
	return syntax.Target{}, false
}

// tsTarget is the declaration named by id.
func (r *resolver) tsTarget(f *syntax.File, id *ts.Node) syntax.Target {
	t := syntax.Target{Path: f.Rel, Name: f.Text(id), Kind: extract.KindVariable, Selection: syntax.NodeRange(id)}
	p := id.Parent()
	switch f.Type(p) {
	case "class_declaration", "abstract_class_declaration", "class":
		t.Kind = extract.KindClass
	case "interface_declaration":
		t.Kind = extract.KindInterface
	case "function_declaration", "generator_function_declaration", "function_signature":
		t.Kind = extract.KindFunction
	case "method_definition", "method_signature", "abstract_method_signature":
		t.Kind = extract.KindMethod
	case "public_field_definition", "property_signature", "required_parameter", "optional_parameter":
		if f.Type(p) != "required_parameter" && f.Type(p) != "optional_parameter" || tsParamProperty(f, p) {
			t.Kind = extract.KindField
		}
	}
	if t.Kind == extract.KindMethod || t.Kind == extract.KindField {
		if c := tsEnclosingClass(f, p); c != nil {
			if n := f.Field(c, "name"); n != nil {
				t.Container = f.Text(n)
			}
		}
		return t
	}
	if s := tsScopeOf(f, id); f.Type(s) != "program" {
		t.Local = true
	}
	return t
}

// tsModuleFile resolves a module specifier from file p to an indexed
// file, or "".
func (r *resolver) tsModuleFile(p, spec string) string {
	var base string
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		base = path.Join(path.Dir(p), spec)
	default:
		base = path.Clean(spec)
	}
	if strings.HasPrefix(base, "../") || base == ".." {
		return ""
	}
	stem := base
	for _, ext := range []string{".js", ".jsx", ".mjs", ".cjs"} {
		stem = strings.TrimSuffix(stem, ext)
	}
	for _, c := range []string{base, stem + ".ts", stem + ".tsx", stem + ".d.ts", stem + ".js", stem + ".jsx",
		base + "/index.ts", base + "/index.tsx", base + "/index.d.ts", base + "/index.js"} {
		if _, ok := r.St.Header(c); ok && IsFile(c) {
			return c
		}
	}
	return ""
}

// tsStringValue is the text of a string literal node without quotes.
func tsStringValue(f *syntax.File, n *ts.Node) string {
	if n == nil {
		return ""
	}
	return strings.Trim(f.Text(n), "'\"`")
}

// resolver is TypeScript's and JavaScript's resolver: the shared one
// (syntax.Resolver, which holds the store's tree cache until Release)
// with their rules.
type resolver struct{ *syntax.Resolver }

func newResolver(st *index.Store, read syntax.SourceReader) *resolver {
	return &resolver{syntax.NewResolver(st, read)}
}

// ModuleFile resolves a module specifier of file p to an indexed file,
// or "". r holds the store's tree cache.
func ModuleFile(r *syntax.Resolver, p, spec string) string {
	return (&resolver{r}).tsModuleFile(p, spec)
}
