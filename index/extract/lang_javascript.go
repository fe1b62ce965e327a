package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// JavaScript, TypeScript and TSX share one table: the TypeScript node types
// simply never occur in JavaScript trees. Extracted: functions (also const
// f = () => ... and function expressions), classes and their methods,
// fields, getters/setters (properties), interfaces and their members, type
// aliases (as classes, like gopls), enums and members, namespaces, and
// top-level variables (const as constant). Exported means an export
// keyword (or a later export { name }), or a class member that is not
// #private, _private or marked private.
func init() {
	for _, l := range [][2]string{{"javascript", "javascript"}, {"typescript", "typescript"}, {"tsx", "tsx"}} {
		spec := jsSpec()
		spec.name, spec.grammar = l[0], l[1]
		if l[0] != "javascript" {
			spec.mask = tsMask
		}
		registerTS(spec)
	}
}

func jsSpec() *langSpec {
	return &langSpec{
		defs: []defRule{
			{typ: "function_declaration|generator_function_declaration", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "function_signature", kind: KindFunction, name: "name"},
			{typ: "class_declaration|abstract_class_declaration|class", kind: KindClass, name: "name", scope: scopeType},
			{typ: "method_definition", kind: KindMethod, name: "name", scope: scopeFunc, custom: jsMethod},
			{typ: "method_signature|abstract_method_signature", kind: KindMethod, name: "name"},
			{typ: "public_field_definition", kind: KindField, name: "name"},
			{typ: "field_definition", kind: KindField, name: "property"},
			{typ: "property_signature", kind: KindProperty, name: "name"},
			{typ: "interface_declaration", kind: KindInterface, name: "name", scope: scopeType},
			{typ: "type_alias_declaration", kind: KindClass, name: "name"},
			{typ: "enum_declaration", kind: KindEnum, name: "name", scope: scopeType},
			{typ: "property_identifier", parent: "enum_body", kind: KindEnumMember, name: "."},
			{typ: "enum_assignment", kind: KindEnumMember, name: "name"},
			{typ: "internal_module|module", kind: KindNamespace, name: "name", scope: scopeNS, custom: jsModule},
			{typ: "variable_declarator", parent: "lexical_declaration|variable_declaration", kind: KindVariable,
				name: "name", outer: 1, custom: jsDeclarator},
		},
		idents: []identRule{{typ: "identifier|property_identifier|type_identifier|private_property_identifier|" +
			"shorthand_property_identifier|shorthand_property_identifier_pattern"}},
		calls:   map[string]string{"call_expression": "function", "new_expression": "constructor"},
		callees: map[string]string{"member_expression": "property"},
		imports: map[string]func(*tsWalker, *ts.Node){
			"import_statement": jsImport,
			"export_statement": jsImport,
			"call_expression":  jsRequire,
		},
		hooks:     map[string]func(*tsWalker, *ts.Node){"export_specifier": jsExportSpecifier},
		comments:  "comment",
		branches:  "if_statement|for_statement|for_in_statement|while_statement|do_statement|switch_case|catch_clause|ternary_expression",
		branchOps: "&& || ??",
		wrappers:  "export_statement|ambient_declaration",
		sigSkip:   "decorator",
		ctorNames: "constructor",
		exported:  jsExported,
		finish:    markExports,
	}
}

// jsMethod turns get/set accessors into properties.
func jsMethod(w *tsWalker, d *defSite) bool {
	if w.c.hasToken(d.node, "get|set") {
		d.kind = KindProperty
	}
	return true
}

// jsModule strips the quotes of ambient module names (declare module "x").
func jsModule(w *tsWalker, d *defSite) bool {
	d.name = unquoteDelims(d.name)
	return true
}

// jsDeclarator classifies const/let/var declarators by their value: a
// function or class value makes a function or class symbol anywhere; other
// values make module-level variables only (locals are not symbols).
func jsDeclarator(w *tsWalker, d *defSite) bool {
	if !w.c.typeIs(d.nameNode, "identifier") {
		return false // destructuring patterns
	}
	switch v := w.c.field(d.node, "value"); {
	case w.c.typeIs(v, "arrow_function|function_expression|function|generator_function"):
		d.kind, d.scope = KindFunction, scopeFunc
		return true
	case w.c.typeIs(v, "class"):
		d.kind, d.scope = KindClass, scopeType
		return true
	}
	if w.inFunc() {
		return false
	}
	if sc := w.innerScope(); sc != nil && sc.Kind == scopeType {
		return false
	}
	if kw := w.c.field(d.decl, "kind"); kw != nil && textOf(w.src, kw) == "const" {
		d.kind = KindConstant
	}
	return true
}

func jsExported(w *tsWalker, d *defSite) bool {
	if d.wrapper != nil && w.c.typeIs(d.wrapper, "export_statement") {
		return true
	}
	if d.kind == KindEnumMember {
		return true
	}
	sc := w.innerScope()
	if sc == nil || sc.Kind != scopeType {
		return false
	}
	// Class and interface members: public unless marked private by name
	// or modifier.
	if strings.HasPrefix(d.name, "#") || strings.HasPrefix(d.name, "_") {
		return false
	}
	if m := w.c.firstOf(d.node, "accessibility_modifier"); m != nil && textOf(w.src, m) == "private" {
		return false
	}
	return true
}

// jsImport records import ... from "x", export ... from "x" and TypeScript's
// import x = require("x").
func jsImport(w *tsWalker, n *ts.Node) {
	src := w.c.field(n, "source")
	if src == nil {
		if req := w.c.firstOf(n, "import_require_clause"); req != nil {
			src = w.c.field(req, "source")
		}
	}
	if w.c.typeIs(src, "string") {
		w.addImport(unquoteDelims(textOf(w.src, src)), n)
	}
}

// jsRequire records require("x") and dynamic import("x") with a literal
// argument.
func jsRequire(w *tsWalker, n *ts.Node) {
	fn := w.c.field(n, "function")
	if fn == nil {
		return
	}
	if name := textOf(w.src, fn); name != "require" && name != "import" {
		return
	}
	args := w.c.field(n, "arguments")
	if args == nil {
		return
	}
	if arg := args.NamedChild(0); w.c.typeIs(arg, "string") {
		w.addImport(unquoteDelims(textOf(w.src, arg)), n)
	}
}

// jsExportSpecifier remembers local names listed in export { a, b as c }
// (without a from clause) so markExports can flag their declarations.
func jsExportSpecifier(w *tsWalker, n *ts.Node) {
	stmt := w.ancestor(2)
	if stmt == nil || !w.c.typeIs(stmt, "export_statement") || w.c.field(stmt, "source") != nil {
		return
	}
	if name := textOf(w.src, w.c.field(n, "name")); name != "" {
		w.exports = append(w.exports, name)
	}
}

// markExports flags top-level symbols named in a separate export statement.
func markExports(w *tsWalker) {
	if len(w.exports) == 0 {
		return
	}
	names := make(map[string]bool, len(w.exports))
	for _, n := range w.exports {
		names[n] = true
	}
	for i := range w.res.Symbols {
		if s := &w.res.Symbols[i]; s.Parent < 0 && names[s.Name] {
			s.Exported = true
		}
	}
}
