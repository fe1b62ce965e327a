package index

import (
	"context"
	"path"
	"strings"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
)

// TypeScript and JavaScript name resolution from syntax, as for Python
// (resolve_py.go), sharing its tree cache and step limits. At index time
// every occurrence gets a descriptor of what it binds to
// (resolve_tsdesc.go), which references evaluate against the index
// (resolve_tsidx.go, resolve_tsidxrefs.go) and definitions too when the
// buffer is the content the index holds (resolve_tsidxdef.go). An edited
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
func (r *pyResolver) tsFile(rel string, src []byte) *pyFile {
	return r.parsedAs(rel, src, tsGrammar(rel))
}

// tsGrammar is the extractor language of a TypeScript or JavaScript file.
func tsGrammar(rel string) string {
	switch path.Ext(rel) {
	case ".tsx":
		return "tsx"
	case ".js", ".jsx", ".mjs", ".cjs":
		return "javascript"
	}
	return "typescript"
}

func isTSFile(p string) bool {
	switch path.Ext(p) {
	case ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts":
		return true
	}
	return false
}

// TSDefinitions resolves the TypeScript or JavaScript identifier
// containing byte offset off of src, the content of the file from, as
// PyDefinitions does for Python.
func (s *Store) TSDefinitions(from string, src []byte, off int, read func(rel string) ([]byte, error)) (PyTarget, bool) {
	if !isTSFile(from) {
		return PyTarget{}, false
	}
	if t, ok, answered := s.tsIndexedDefinition(from, src, off, read); answered {
		return t, ok
	}
	r := newPyResolver(s, read)
	defer r.release()
	f := r.tsFile(from, src)
	if f == nil {
		return PyTarget{}, false
	}
	id := tsIdentAt(f, off)
	if id == nil {
		return PyTarget{}, false
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

func tsIdentAt(f *pyFile, off int) *ts.Node {
	start := IdentStart(f.src, off)
	if start >= len(f.src) || !isIdentByte(f.src[start]) {
		return nil
	}
	n := f.tree.Root().NamedDescendantForByteRange(uint32(start), uint32(start))
	if n == nil || !tsIdentTypes[f.typ(n)] || int(n.StartByte()) != start {
		return nil
	}
	return n
}

// tsResolveName resolves one identifier node of f to the declaration a
// definition request answers.
func (r *pyResolver) tsResolveName(f *pyFile, id *ts.Node) (PyTarget, bool) {
	name := f.text(id)
	p := id.Parent()
	if p == nil {
		return PyTarget{}, false
	}
	switch f.typ(p) {
	case "member_expression":
		if sameNode(f.field(p, "property"), id) {
			if tsGrammar(f.rel) == "javascript" {
				fields := func(fn *ts.Node) map[string]*ts.Node { return tsThisFields(f, fn) }
				if field := tsThisField(f, p, name, fields); field != nil {
					return r.tsTarget(f, field), true
				}
			}
			return r.tsMember(r.tsEval(f, f.field(p, "object")), name).target()
		}
	case "nested_type_identifier":
		if !sameNode(p.NamedChild(0), id) {
			return r.tsMember(r.tsEval(f, p.NamedChild(0)), name).target()
		}
	case "import_specifier", "export_specifier":
		return r.tsSpecifier(f, p, id).target()
	case "method_definition", "public_field_definition", "method_signature", "property_signature",
		"abstract_method_signature":
		if sameNode(f.field(p, "name"), id) {
			return r.tsTarget(f, id), true
		}
	}
	if f.typ(id) == "property_identifier" {
		return PyTarget{}, false
	}
	if v := r.tsLookup(f, id, name); v.ok {
		return v.target()
	}
	if tsBinding(f, id) {
		return r.tsTarget(f, id), true
	}
	return PyTarget{}, false
}

// tsTarget is the declaration named by id.
func (r *pyResolver) tsTarget(f *pyFile, id *ts.Node) PyTarget {
	t := PyTarget{Path: f.rel, Name: f.text(id), Kind: extract.KindVariable, Selection: pyRange(id)}
	p := id.Parent()
	switch f.typ(p) {
	case "class_declaration", "abstract_class_declaration", "class":
		t.Kind = extract.KindClass
	case "interface_declaration":
		t.Kind = extract.KindInterface
	case "function_declaration", "generator_function_declaration", "function_signature":
		t.Kind = extract.KindFunction
	case "method_definition", "method_signature", "abstract_method_signature":
		t.Kind = extract.KindMethod
	case "public_field_definition", "property_signature", "required_parameter", "optional_parameter":
		if f.typ(p) != "required_parameter" && f.typ(p) != "optional_parameter" || tsParamProperty(f, p) {
			t.Kind = extract.KindField
		}
	}
	if t.Kind == extract.KindMethod || t.Kind == extract.KindField {
		if c := tsEnclosingClass(f, p); c != nil {
			if n := f.field(c, "name"); n != nil {
				t.Container = f.text(n)
			}
		}
		return t
	}
	if s := tsScopeOf(f, id); f.typ(s) != "program" {
		t.Local = true
	}
	return t
}

// parsedAs is file() for a given grammar. Files are cached under the
// grammar and path: one resolver may read a path with another grammar
// than the last.
func (r *pyResolver) parsedAs(rel string, src []byte, lang string) *pyFile {
	key := lang + ":" + rel
	if f, ok := r.files[key]; ok {
		return f
	}
	r.files[key] = nil
	if src == nil {
		b, err := r.read(rel)
		if err != nil {
			return nil
		}
		src = b
	}
	f, h := r.st.py.get(key, src)
	if f == nil {
		if !r.step() || r.parsed+len(src) > pyParseBytes {
			return nil
		}
		r.parsed += len(src)
		tree, err := extract.ParseTree(context.Background(), lang, src, pyParseBudget)
		if err != nil {
			return nil
		}
		f = &pyFile{rel: rel, src: src, tree: tree}
		r.st.py.put(key, f, h)
	}
	r.files[key] = f
	return f
}

// tsModuleFile resolves a module specifier from file p to an indexed
// file, or "".
func (r *pyResolver) tsModuleFile(p, spec string) string {
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
		if _, ok := r.st.Header(c); ok && isTSFile(c) {
			return c
		}
	}
	return ""
}

// tsStringValue is the text of a string literal node without quotes.
func tsStringValue(f *pyFile, n *ts.Node) string {
	if n == nil {
		return ""
	}
	return strings.Trim(f.text(n), "'\"`")
}
