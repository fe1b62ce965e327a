package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// PHP: classes, interfaces, traits (as classes), enums and cases,
// functions, methods (__construct as the constructor), properties (without
// the $), class constants. Package is the namespace. Exported means not
// private. Imports: use clauses (group uses expanded to full names) and
// require/include with a literal path.
func init() {
	registerTS(&langSpec{
		name:    "php",
		grammar: "php",
		defs: []defRule{
			{typ: "class_declaration|trait_declaration", kind: KindClass, name: "name", scope: scopeType},
			{typ: "interface_declaration", kind: KindInterface, name: "name", scope: scopeType},
			{typ: "enum_declaration", kind: KindEnum, name: "name", scope: scopeType},
			{typ: "enum_case", kind: KindEnumMember, name: "name"},
			{typ: "function_definition", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "method_declaration", kind: KindMethod, name: "name", scope: scopeFunc},
			{typ: "property_element", kind: KindProperty, name: "name @name", outer: 1},
			{typ: "const_element", kind: KindConstant, name: "@name", outer: 1},
		},
		idents: []identRule{{typ: "name"}},
		calls: map[string]string{"function_call_expression": "function", "member_call_expression": "name",
			"nullsafe_member_call_expression": "name", "scoped_call_expression": "name", "object_creation_expression": "^"},
		callees: map[string]string{"qualified_name": ""},
		imports: map[string]func(*tsWalker, *ts.Node){
			"namespace_use_declaration": phpUse,
			"require_expression":        phpRequire,
			"require_once_expression":   phpRequire,
			"include_expression":        phpRequire,
			"include_once_expression":   phpRequire,
		},
		pkg: map[string]string{"namespace_definition": "name"},

		comments: "comment",
		branches: "if_statement|else_if_clause|for_statement|foreach_statement|while_statement|do_statement|" +
			"case_statement|catch_clause|conditional_expression|match_conditional_expression",
		branchOps: "&& || and or ??",
		sigSkip:   "attribute_list",
		ctorNames: "__construct",
		docTrim:   "#",
		exported: func(w *tsWalker, d *defSite) bool {
			return !w.modifierText(d.decl, "", "private")
		},
	})
}

// phpUse records use A\B; use A\{B, C as D}; as A\B, A\C.
func phpUse(w *tsWalker, n *ts.Node) {
	prefix := ""
	if p := w.c.firstOf(n, "namespace_name"); p != nil {
		prefix = squash(textOf(w.src, p)) + `\`
	}
	var clauses []*ts.Node
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		ch := n.Child(i)
		switch {
		case w.c.typeIs(ch, "namespace_use_clause"):
			clauses = append(clauses, ch)
		case w.c.typeIs(ch, "namespace_use_group"):
			for j, k := 0, ch.ChildCount(); j < k; j++ {
				if g := ch.Child(j); w.c.typeIs(g, "namespace_use_clause") {
					clauses = append(clauses, g)
				}
			}
		}
	}
	for _, cl := range clauses {
		name := w.c.firstOf(cl, "qualified_name|name|namespace_name")
		if name == nil {
			continue
		}
		path := squash(textOf(w.src, name))
		if w.c.typeIs(cl.Child(0), "function|const") || strings.HasPrefix(path, `\`) {
			path = strings.TrimPrefix(path, `\`)
		}
		w.addImport(prefix+path, n)
	}
}

// phpRequire records require/include "x.php" when the path is one literal
// string; computed paths (__DIR__ . '/x.php') are skipped.
func phpRequire(w *tsWalker, n *ts.Node) {
	arg := n.NamedChild(0)
	if w.c.typeIs(arg, "parenthesized_expression") {
		arg = arg.NamedChild(0)
	}
	if w.c.typeIs(arg, "string|encapsed_string") && arg.NamedChildCount() <= 1 {
		w.addImport(unquoteDelims(textOf(w.src, arg)), n)
	}
}
