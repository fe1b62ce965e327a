package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// C#: namespaces (file-scoped ones qualify the rest of the file), classes,
// structs, records, interfaces, enums and members, delegates (as classes),
// methods, constructors, operators, properties and indexers, fields (const as constants), events,
// local functions. Exported means not private, with C#'s defaults: members
// without a modifier are private except in interfaces and enums, top-level
// types are internal (visible, so exported).
func init() {
	registerTS(&langSpec{
		name:    "csharp",
		grammar: "c_sharp",
		defs: []defRule{
			{typ: "namespace_declaration", kind: KindNamespace, name: "name", scope: scopeNS},
			{typ: "file_scoped_namespace_declaration", name: "name", scope: scopeNS,
				custom: func(w *tsWalker, d *defSite) bool { d.sticky = true; return true }},
			{typ: "class_declaration|record_declaration|delegate_declaration", kind: KindClass, name: "name", scope: scopeType},
			{typ: "struct_declaration", kind: KindStruct, name: "name", scope: scopeType},
			{typ: "interface_declaration", kind: KindInterface, name: "name", scope: scopeType},
			{typ: "enum_declaration", kind: KindEnum, name: "name", scope: scopeType},
			{typ: "enum_member_declaration", kind: KindEnumMember, name: "name"},
			{typ: "method_declaration|local_function_statement", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "constructor_declaration", kind: KindConstructor, name: "name", scope: scopeFunc},
			{typ: "destructor_declaration", kind: KindMethod, name: "name", scope: scopeFunc,
				custom: func(w *tsWalker, d *defSite) bool { d.name = "~" + d.name; return true }},
			{typ: "property_declaration", kind: KindProperty, name: "name"},
			// Operators are named by what a reader searches for: "operator +",
			// "operator int" (a conversion), and an indexer "this".
			{typ: "operator_declaration", kind: KindMethod, name: "operator", scope: scopeFunc,
				custom: func(w *tsWalker, d *defSite) bool { d.name = "operator " + d.name; return true }},
			{typ: "conversion_operator_declaration", kind: KindMethod, name: "type", scope: scopeFunc,
				custom: func(w *tsWalker, d *defSite) bool { d.name = "operator " + squash(d.name); return true }},
			{typ: "indexer_declaration", kind: KindProperty, name: ".", scope: scopeFunc, custom: csIndexer},
			{typ: "variable_declarator", parent: "variable_declaration", kind: KindField, name: "name", outer: 2, custom: csField},
		},
		idents: []identRule{{typ: "identifier"}},
		calls:  map[string]string{"invocation_expression": "function", "object_creation_expression": "type"},
		callees: map[string]string{"member_access_expression": "name", "generic_name": "^", "qualified_name": "name",
			"conditional_access_expression": "", "member_binding_expression": "name"},
		imports: map[string]func(*tsWalker, *ts.Node){"using_directive": csUsing},
		pkg:     map[string]string{"namespace_declaration": "name", "file_scoped_namespace_declaration": "name"},

		comments:  "comment",
		branches:  "if_statement|for_statement|foreach_statement|while_statement|do_statement|switch_section|catch_clause|conditional_expression|switch_expression_arm",
		branchOps: "&& || ??",
		sigSkip:   "attribute_list",
		docClean:  stripXMLTags,
		exported:  csExported,
		mask:      csMask,
		forest:    true,
	})
}

// csIndexer names an indexer by its this keyword.
func csIndexer(w *tsWalker, d *defSite) bool {
	for i, cnt := 0, d.node.ChildCount(); i < cnt; i++ {
		if ch := d.node.Child(i); ch != nil && !ch.IsNamed() && ch.Type(w.c.lang) == "this" {
			d.nameNode, d.name = ch, "this"
			return true
		}
	}
	return false
}

// csField keeps declarators of field, const and event declarations (locals
// share the node type) and picks the kind.
func csField(w *tsWalker, d *defSite) bool {
	switch {
	case w.c.typeIs(d.decl, "event_field_declaration"):
		d.kind = KindEvent
	case !w.c.typeIs(d.decl, "field_declaration"):
		return false
	case w.modifierText(d.decl, "", "const"):
		d.kind = KindConstant
	}
	return true
}

func csExported(w *tsWalker, d *defSite) bool {
	if w.modifierText(d.decl, "", "private") {
		return false
	}
	if w.modifierText(d.decl, "", "public", "protected", "internal") {
		return true
	}
	if d.kind == KindEnumMember || d.kind == KindNamespace {
		return true
	}
	sc := w.innerScope()
	if sc == nil || sc.Kind == scopeNS {
		return true // top-level types default to internal
	}
	return sc.Sym >= 0 && w.res.Symbols[sc.Sym].Kind == KindInterface
}

// csUsing records the namespace of using X; using static X; using A = X;
// the alias name sits in the "name" field and is skipped.
func csUsing(w *tsWalker, n *ts.Node) {
	var path *ts.Node
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		if ch == nil || !ch.IsNamed() || n.FieldNameForChild(i, w.c.lang) == "name" {
			continue
		}
		if w.c.typeIs(ch, "identifier|qualified_name|generic_name|alias_qualified_name") {
			path = ch
		}
	}
	w.addImport(squash(textOf(w.src, path)), n)
}

// stripXMLTags removes <summary>-style tags from XML doc comments so the
// doc line is the prose, not the markup.
func stripXMLTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
