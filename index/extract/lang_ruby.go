package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// Ruby: classes, modules (methods inside both are methods), methods and
// singleton methods (def self.x), initialize as the constructor, constants
// assigned in class/module/top-level bodies, attr_reader/attr_writer/
// attr_accessor symbols as properties. Exported: name not starting with _
// (private/protected sections are not tracked). require and
// require_relative (prefixed "./") with a literal path are imports.
func init() {
	registerTS(&langSpec{
		name:    "ruby",
		grammar: "ruby",
		defs: []defRule{
			{typ: "class", kind: KindClass, name: "name", scope: scopeType, custom: rbScoped},
			{typ: "module", kind: KindModule, name: "name", scope: scopeType, custom: rbScoped},
			{typ: "method|singleton_method", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "assignment", kind: KindConstant, name: "left", topOnly: true,
				custom: func(w *tsWalker, d *defSite) bool { return w.c.typeIs(d.nameNode, "constant") }},
			{typ: "simple_symbol", parent: "argument_list", kind: KindProperty, name: ".", outer: 2, topOnly: true, custom: rbAttr},
		},
		idents:  []identRule{{typ: "identifier|constant|instance_variable|class_variable|global_variable"}},
		calls:   map[string]string{"call": "method"},
		imports: map[string]func(*tsWalker, *ts.Node){"call": rbRequire},

		comments: "comment",
		branches: "if|elsif|unless|while|until|for|when|rescue|conditional|if_modifier|unless_modifier|" +
			"while_modifier|until_modifier",
		branchOps: "&& || and or",
		ctorNames: "initialize",
		docTrim:   "#",
		exported:  func(w *tsWalker, d *defSite) bool { return underscoreExported(d.name) },
	})
}

// rbScoped names "class A::B" after B, with A as extra container.
func rbScoped(w *tsWalker, d *defSite) bool {
	if w.c.typeIs(d.nameNode, "scope_resolution") {
		if sc := w.c.field(d.nameNode, "scope"); sc != nil {
			d.container = strings.ReplaceAll(textOf(w.src, sc), "::", ".")
		}
		d.nameNode = w.c.field(d.nameNode, "name")
		d.name = textOf(w.src, d.nameNode)
	}
	return true
}

// rbAttr turns the symbols of attr_reader :a, :b into properties a and b.
func rbAttr(w *tsWalker, d *defSite) bool {
	call := w.ancestor(2)
	if !w.c.typeIs(call, "call") || w.c.field(call, "receiver") != nil {
		return false
	}
	switch textOf(w.src, w.c.field(call, "method")) {
	case "attr_reader", "attr_writer", "attr_accessor":
		d.name = strings.TrimPrefix(d.name, ":")
		return d.name != ""
	}
	return false
}

// rbRequire records require "x" and require_relative "x" (as ./x).
func rbRequire(w *tsWalker, n *ts.Node) {
	if w.c.field(n, "receiver") != nil {
		return
	}
	method := textOf(w.src, w.c.field(n, "method"))
	if method != "require" && method != "require_relative" && method != "load" {
		return
	}
	args := w.c.field(n, "arguments")
	if args == nil {
		return
	}
	str := args.NamedChild(0)
	if !w.c.typeIs(str, "string") || str.NamedChildCount() != 1 || !w.c.typeIs(str.NamedChild(0), "string_content") {
		return // interpolated or empty: not a literal path
	}
	path := textOf(w.src, str.NamedChild(0))
	if method == "require_relative" && !strings.HasPrefix(path, ".") && !strings.HasPrefix(path, "/") {
		path = "./" + path
	}
	w.addImport(path, n)
}
