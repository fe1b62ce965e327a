package extract

import ts "github.com/odvcencio/gotreesitter"

// Python: classes, functions (methods inside classes, __init__ as the
// constructor), module- and class-level assignments to plain names
// (variables, UPPER_CASE constants, class fields). Docstrings win over
// preceding comments as doc.
func init() {
	registerTS(&langSpec{
		name:    "python",
		grammar: "python",
		defs: []defRule{
			{typ: "class_definition", kind: KindClass, name: "name", scope: scopeType},
			{typ: "function_definition", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "assignment", kind: KindVariable, name: "left", topOnly: true, custom: pyAssignment},
		},
		idents:  []identRule{{typ: "identifier"}},
		calls:   map[string]string{"call": "function"},
		callees: map[string]string{"attribute": "attribute"},
		imports: map[string]func(*tsWalker, *ts.Node){
			"import_statement":        pyImport,
			"import_from_statement":   pyImportFrom,
			"future_import_statement": func(w *tsWalker, n *ts.Node) { w.addImport("__future__", n) },
		},
		comments:   "comment",
		branches:   "if_statement|elif_clause|for_statement|while_statement|except_clause|conditional_expression|for_in_clause|if_clause|case_clause",
		branchOps:  "and or",
		wrappers:   "decorated_definition",
		ctorNames:  "__init__",
		upperConst: true,
		docstring:  true,
		docTrim:    "#",
		exported:   func(w *tsWalker, d *defSite) bool { return underscoreExported(d.name) },
	})
}

// pyAssignment keeps only assignments to a plain name (not a.b = or a, b =).
func pyAssignment(w *tsWalker, d *defSite) bool {
	return w.c.typeIs(d.nameNode, "identifier")
}

// pyImport records "import a.b, c as d" as "a.b" and "c".
func pyImport(w *tsWalker, n *ts.Node) {
	for i, cnt := 0, n.ChildCount(); i < cnt; i++ {
		if n.FieldNameForChild(i, w.c.lang) != "name" {
			continue
		}
		ch := n.Child(i)
		if w.c.typeIs(ch, "aliased_import") {
			ch = w.c.field(ch, "name")
		}
		w.addImport(squash(textOf(w.src, ch)), n)
	}
}

// pyImportFrom records the module of "from .x import y" as ".x".
func pyImportFrom(w *tsWalker, n *ts.Node) {
	w.addImport(squash(textOf(w.src, w.c.field(n, "module_name"))), n)
}
