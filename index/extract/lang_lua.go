package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// Lua: functions (function M.f gets Container "M"; function M:m is a
// method), functions assigned to table fields (M.f = function ...), and
// top-level variables. Exported: not local and not starting with _.
// require("x") with a literal is an import.
func init() {
	registerTS(&langSpec{
		name:    "lua",
		grammar: "lua",
		defs: []defRule{
			{typ: "function_declaration", kind: KindFunction, name: "name", scope: scopeFunc, custom: luaFunction},
			{typ: "assignment_statement", kind: KindVariable, topOnly: true, custom: luaAssignment},
		},
		idents:  []identRule{{typ: "identifier"}},
		calls:   map[string]string{"function_call": "name"},
		callees: map[string]string{"dot_index_expression": "field", "method_index_expression": "method"},
		imports: map[string]func(*tsWalker, *ts.Node){"function_call": luaRequire},

		comments:  "comment",
		branches:  "if_statement|elseif_statement|for_statement|while_statement|repeat_statement",
		branchOps: "and or",
		docTrim:   "-",
		exported: func(w *tsWalker, d *defSite) bool {
			return !luaLocal(w, d.decl) && underscoreExported(d.name)
		},
	})
}

// luaLocal reports whether a declaration starts with the local keyword.
func luaLocal(w *tsWalker, n *ts.Node) bool {
	return strings.HasPrefix(textOf(w.src, n), "local")
}

// luaQualified splits a.b.c / a:b names into the final name and container.
func luaQualified(w *tsWalker, d *defSite) {
	for i := 0; i < 8; i++ {
		switch {
		case w.c.typeIs(d.nameNode, "dot_index_expression"):
			d.container = JoinQual(textOf(w.src, w.c.field(d.nameNode, "table")), d.container)
			d.nameNode = w.c.field(d.nameNode, "field")
		case w.c.typeIs(d.nameNode, "method_index_expression"):
			d.container = JoinQual(textOf(w.src, w.c.field(d.nameNode, "table")), d.container)
			d.nameNode = w.c.field(d.nameNode, "method")
			d.kind = KindMethod
		default:
			d.name = textOf(w.src, d.nameNode)
			return
		}
	}
}

func luaFunction(w *tsWalker, d *defSite) bool {
	luaQualified(w, d)
	return true
}

// luaAssignment handles x = ..., local x = ... and M.f = function ...:
// plain names become variables, table fields only when given a function.
func luaAssignment(w *tsWalker, d *defSite) bool {
	if w.c.typeIs(w.ancestor(1), "variable_declaration") {
		d.decl = w.ancestor(1)
	}
	vars := w.c.firstOf(d.node, "variable_list")
	if vars == nil {
		return false
	}
	d.nameNode = vars.NamedChild(0)
	var value *ts.Node
	if vals := w.c.firstOf(d.node, "expression_list"); vals != nil {
		value = vals.NamedChild(0)
	}
	if w.c.typeIs(value, "function_definition") {
		d.kind, d.scope = KindFunction, scopeFunc
		luaQualified(w, d)
		return true
	}
	if !w.c.typeIs(d.nameNode, "identifier") {
		return false
	}
	d.name = textOf(w.src, d.nameNode)
	return true
}

// luaRequire records require("x") and require "x".
func luaRequire(w *tsWalker, n *ts.Node) {
	if textOf(w.src, w.c.field(n, "name")) != "require" {
		return
	}
	args := w.c.field(n, "arguments")
	if args == nil {
		return
	}
	str := args
	if !w.c.typeIs(str, "string") {
		str = args.NamedChild(0)
	}
	if w.c.typeIs(str, "string") {
		w.addImport(textOf(w.src, w.c.field(str, "content")), n)
	}
}
