package extract

import ts "github.com/odvcencio/gotreesitter"

// Kotlin: classes, interfaces, enum classes and entries, objects and
// companion objects, functions and methods, secondary constructors,
// properties (including val/var constructor parameters), type aliases.
// Exported means not private (public is the default).
func init() {
	registerTS(&langSpec{
		name:    "kotlin",
		grammar: "kotlin",
		defs: []defRule{
			{typ: "class_declaration", kind: KindClass, name: "@type_identifier", scope: scopeType, custom: ktClass},
			{typ: "object_declaration", kind: KindClass, name: "@type_identifier", scope: scopeType},
			{typ: "companion_object", kind: KindClass, name: "@type_identifier", scope: scopeType, custom: ktCompanion},
			{typ: "function_declaration", kind: KindFunction, name: "@simple_identifier", scope: scopeFunc},
			{typ: "secondary_constructor", kind: KindConstructor, scope: scopeFunc, custom: ktConstructor},
			{typ: "class_parameter", kind: KindProperty, name: "@simple_identifier", custom: ktClassParameter},
			{typ: "property_declaration", kind: KindProperty, name: "@variable_declaration @simple_identifier",
				topOnly: true, custom: ktProperty},
			{typ: "enum_entry", kind: KindEnumMember, name: "@simple_identifier"},
			{typ: "type_alias", kind: KindClass, name: "@type_identifier"},
		},
		idents:  []identRule{{typ: "simple_identifier|type_identifier"}},
		calls:   map[string]string{"call_expression": ""},
		callees: map[string]string{"navigation_expression": "", "navigation_suffix": ""},
		imports: map[string]func(*tsWalker, *ts.Node){"import_header": ktImport},
		pkg:     map[string]string{"package_header": ""},

		comments:  "line_comment|multiline_comment",
		branches:  "if_expression|for_statement|while_statement|do_while_statement|when_entry|catch_block|elvis_expression",
		branchOps: "&& ||",
		sigSkip:   "annotation",
		sigInto:   "modifiers",
		exported: func(w *tsWalker, d *defSite) bool {
			return !w.modifierText(d.decl, "modifiers", "private")
		},
	})
}

// ktClass tells interfaces and enum classes from classes by their keyword.
func ktClass(w *tsWalker, d *defSite) bool {
	switch {
	case w.c.hasToken(d.node, "interface"):
		d.kind = KindInterface
	case w.c.hasToken(d.node, "enum") || w.modifierText(d.node, "modifiers", "enum"):
		d.kind = KindEnum
	}
	return true
}

// ktCompanion names an anonymous companion object "Companion", as Kotlin
// does, selecting its keyword.
func ktCompanion(w *tsWalker, d *defSite) bool {
	if d.nameNode == nil {
		d.nameNode, d.name = firstChild(w, d.node, "companion"), "Companion"
	}
	return true
}

// ktConstructor names secondary constructors after their keyword.
func ktConstructor(w *tsWalker, d *defSite) bool {
	d.nameNode, d.name = firstChild(w, d.node, "constructor"), "constructor"
	return true
}

// ktClassParameter keeps only val/var constructor parameters, which declare
// properties.
func ktClassParameter(w *tsWalker, d *defSite) bool {
	return w.c.firstOf(d.node, "binding_pattern_kind") != nil
}

// ktProperty makes const val a constant and top-level properties variables.
func ktProperty(w *tsWalker, d *defSite) bool {
	switch {
	case w.modifierText(d.node, "modifiers", "const"):
		d.kind = KindConstant
	case w.innerScope() == nil:
		d.kind = KindVariable
	}
	return true
}

// ktImport records "import a.b.C" as a.b.C and "import a.b.*" as a.b.*.
func ktImport(w *tsWalker, n *ts.Node) {
	id := w.c.firstOf(n, "identifier")
	if id == nil {
		return
	}
	path := squash(textOf(w.src, id))
	if w.c.firstOf(n, "wildcard_import") != nil {
		path += ".*"
	}
	w.addImport(path, n)
}

// firstChild returns the first child (named or not) of type t.
func firstChild(w *tsWalker, n *ts.Node, t string) *ts.Node {
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		if ch := n.Child(i); w.c.typeIs(ch, t) {
			return ch
		}
	}
	return nil
}
