package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// Java: classes, interfaces, enums (and constants), records, annotation
// types, methods, constructors, fields (static final ones as constants).
// Exported means not private; package-private counts as exported because
// other files of the package see it.
func init() {
	registerTS(&langSpec{
		name:    "java",
		grammar: "java",
		defs: []defRule{
			{typ: "class_declaration|record_declaration", kind: KindClass, name: "name", scope: scopeType},
			{typ: "interface_declaration|annotation_type_declaration", kind: KindInterface, name: "name", scope: scopeType},
			{typ: "enum_declaration", kind: KindEnum, name: "name", scope: scopeType},
			{typ: "enum_constant", kind: KindEnumMember, name: "name"},
			{typ: "method_declaration|annotation_type_element_declaration", kind: KindMethod, name: "name", scope: scopeFunc},
			{typ: "constructor_declaration|compact_constructor_declaration", kind: KindConstructor, name: "name", scope: scopeFunc},
			{typ: "variable_declarator", parent: "field_declaration", kind: KindField, name: "name", outer: 1, custom: javaField},
			{typ: "variable_declarator", parent: "constant_declaration", kind: KindConstant, name: "name", outer: 1},
		},
		idents:  []identRule{{typ: "identifier|type_identifier"}},
		calls:   map[string]string{"method_invocation": "name", "object_creation_expression": "type"},
		callees: map[string]string{"generic_type": "^", "scoped_type_identifier": "name"},
		imports: map[string]func(*tsWalker, *ts.Node){"import_declaration": javaImport},
		pkg:     map[string]string{"package_declaration": ""},

		comments:  "line_comment|block_comment",
		branches:  "if_statement|for_statement|enhanced_for_statement|while_statement|do_statement|catch_clause|ternary_expression|switch_label",
		branchOps: "&& ||",
		sigSkip:   "marker_annotation|annotation",
		sigInto:   "modifiers",
		exported: func(w *tsWalker, d *defSite) bool {
			return !w.modifierText(d.decl, "modifiers", "private")
		},
	})
}

// javaField makes static final fields constants.
func javaField(w *tsWalker, d *defSite) bool {
	if w.modifierText(d.decl, "modifiers", "static") && w.modifierText(d.decl, "modifiers", "final") {
		d.kind = KindConstant
	}
	return true
}

// javaImport records the imported name as written, with ".*" for
// on-demand imports and without "static".
func javaImport(w *tsWalker, n *ts.Node) {
	var path string
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		switch {
		case w.c.typeIs(ch, "scoped_identifier|identifier"):
			path = squash(textOf(w.src, ch))
		case w.c.typeIs(ch, "asterisk"):
			path += ".*"
		}
	}
	w.addImport(strings.TrimPrefix(path, "."), n)
}
