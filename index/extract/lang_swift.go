package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// Swift: classes, structs, enums and cases, actors, protocols (as
// interfaces) and their requirements, extensions (pseudo scopes: methods
// get the extended type as Container), functions and methods, init/deinit,
// properties (top-level let as constants), type aliases. Exported means
// not private or fileprivate.
func init() {
	registerTS(&langSpec{
		name:    "swift",
		grammar: "swift",
		mask:    swiftMask,
		defs: []defRule{
			{typ: "class_declaration", kind: KindClass, name: "name", scope: scopeType, custom: swiftType},
			{typ: "protocol_declaration", kind: KindInterface, name: "name", scope: scopeType},
			{typ: "function_declaration", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "protocol_function_declaration", kind: KindMethod, name: "name"},
			{typ: "init_declaration", kind: KindConstructor, scope: scopeFunc, custom: swiftKeywordName("init")},
			{typ: "deinit_declaration", kind: KindMethod, scope: scopeFunc, custom: swiftKeywordName("deinit")},
			{typ: "property_declaration", kind: KindProperty, name: "name bound_identifier", topOnly: true, custom: swiftProperty},
			{typ: "protocol_property_declaration", kind: KindProperty, name: "name bound_identifier"},
			{typ: "simple_identifier", parent: "enum_entry", field: "name", kind: KindEnumMember, name: ".", outer: 1},
			{typ: "typealias_declaration", kind: KindClass, name: "name"},
		},
		idents:  []identRule{{typ: "simple_identifier|type_identifier"}},
		calls:   map[string]string{"call_expression": ""},
		callees: map[string]string{"navigation_expression": "suffix", "navigation_suffix": "suffix"},
		imports: map[string]func(*tsWalker, *ts.Node){
			"import_declaration": func(w *tsWalker, n *ts.Node) { w.addImport(squash(textOf(w.src, w.c.firstOf(n, "identifier"))), n) },
		},

		comments: "comment|multiline_comment",
		branches: "if_statement|guard_statement|for_statement|while_statement|repeat_while_statement|switch_entry|" +
			"catch_block|ternary_expression|nil_coalescing_expression|conjunction_expression|disjunction_expression",
		sigSkip: "attribute",
		sigInto: "modifiers",
		exported: func(w *tsWalker, d *defSite) bool {
			return !w.modifierText(d.decl, "modifiers", "private", "fileprivate")
		},
	})
}

// swiftType picks the kind from the declaration keyword; extensions become
// pseudo scopes named after the extended type.
func swiftType(w *tsWalker, d *defSite) bool {
	switch textOf(w.src, w.c.field(d.node, "declaration_kind")) {
	case "struct":
		d.kind = KindStruct
	case "enum":
		d.kind = KindEnum
	case "extension":
		d.kind = 0
		name := textOf(w.src, d.nameNode)
		if i := strings.IndexByte(name, '<'); i >= 0 {
			name = name[:i]
		}
		d.name = name
	}
	return true
}

// swiftKeywordName names init/deinit declarations after their keyword.
func swiftKeywordName(kw string) func(*tsWalker, *defSite) bool {
	return func(w *tsWalker, d *defSite) bool {
		d.nameNode, d.name = firstChild(w, d.node, kw), kw
		return true
	}
}

// swiftProperty makes top-level let a constant and var a variable.
func swiftProperty(w *tsWalker, d *defSite) bool {
	if w.innerScope() != nil {
		return true
	}
	d.kind = KindVariable
	if b := w.c.firstOf(d.node, "value_binding_pattern"); b != nil && strings.HasPrefix(textOf(w.src, b), "let") {
		d.kind = KindConstant
	}
	return true
}
