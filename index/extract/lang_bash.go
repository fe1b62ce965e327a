package extract

import ts "github.com/odvcencio/gotreesitter"

// Bash: functions and top-level variable assignments. Refs are variable
// names, command names (as calls) and function names. source/. with a
// literal path is an import. Exported: name not starting with _.
func init() {
	registerTS(&langSpec{
		name:    "bash",
		grammar: "bash",
		defs: []defRule{
			{typ: "function_definition", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "variable_assignment", kind: KindVariable, name: "name", topOnly: true},
		},
		idents: []identRule{
			{typ: "variable_name"},
			{typ: "word", parent: "command_name"},
			{typ: "word", parent: "function_definition", field: "name"},
		},
		calls:   map[string]string{"command": "name"},
		callees: map[string]string{"command_name": "^"},
		imports: map[string]func(*tsWalker, *ts.Node){"command": bashSource},

		comments:  "comment",
		branches:  "if_statement|elif_clause|for_statement|c_style_for_statement|while_statement|case_item",
		branchOps: "&& ||",
		docTrim:   "#",
		exported:  func(w *tsWalker, d *defSite) bool { return underscoreExported(d.name) },
	})
}

// bashSource records "source x" and ". x" with the path as written
// (quotes removed, variables left in).
func bashSource(w *tsWalker, n *ts.Node) {
	if name := textOf(w.src, w.c.field(n, "name")); name != "source" && name != "." {
		return
	}
	arg := w.c.field(n, "argument")
	if w.c.typeIs(arg, "word|string|raw_string|concatenation") {
		w.addImport(unquoteDelims(textOf(w.src, arg)), n)
	}
}
