package typescript

import (
	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// TypeScript scopes and bindings over the tree-sitter tree.

var tsScopeTypes = map[string]bool{
	"program": true, "statement_block": true, "function_declaration": true, "generator_function_declaration": true,
	"function_expression": true, "function": true, "arrow_function": true, "method_definition": true,
	"for_statement": true, "for_in_statement": true, "catch_clause": true, "class_body": true,
}

// tsDeclTypes name something in the scope around them.
var tsDeclTypes = map[string]bool{
	"function_declaration": true, "generator_function_declaration": true, "class_declaration": true,
	"abstract_class_declaration": true, "interface_declaration": true, "type_alias_declaration": true,
	"enum_declaration": true, "module": true, "internal_module": true, "function_signature": true,
}

// tsScopeOf is the scope node n appears in: a declaration's name binds in
// the scope around the declaration.
func tsScopeOf(f *syntax.File, n *ts.Node) *ts.Node {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		if tsDeclTypes[f.Type(p)] && syntax.SameNode(f.Field(p, "name"), child) {
			continue
		}
		if tsScopeTypes[f.Type(p)] {
			return p
		}
	}
	return f.Tree.Root()
}

// tsPatternTypes are the nodes a binding name may be nested in.
var tsPatternTypes = map[string]bool{
	"object_pattern": true, "array_pattern": true, "pair_pattern": true, "rest_pattern": true,
	"assignment_pattern": true, "object_assignment_pattern": true,
}

// tsBinding reports whether the identifier id is a declared name.
func tsBinding(f *syntax.File, id *ts.Node) bool {
	if f.Type(id) == "shorthand_property_identifier_pattern" {
		return true
	}
	child, p := id, id.Parent()
	for p != nil && tsPatternTypes[f.Type(p)] {
		if f.Type(p) == "pair_pattern" && syntax.SameNode(f.Field(p, "key"), child) {
			return false
		}
		if (f.Type(p) == "assignment_pattern" || f.Type(p) == "object_assignment_pattern") && !syntax.SameNode(f.Field(p, "left"), child) {
			return false
		}
		child, p = p, p.Parent()
	}
	if p == nil {
		return false
	}
	switch t := f.Type(p); t {
	case "variable_declarator":
		return syntax.SameNode(f.Field(p, "name"), child)
	case "required_parameter", "optional_parameter":
		return syntax.SameNode(f.Field(p, "pattern"), child)
	case "formal_parameters":
		return true // JavaScript: bare identifiers
	case "for_in_statement":
		return syntax.SameNode(f.Field(p, "left"), child)
	case "catch_clause":
		return syntax.SameNode(f.Field(p, "parameter"), child)
	case "import_specifier":
		return f.Field(p, "alias") == nil || syntax.SameNode(f.Field(p, "alias"), child)
	case "namespace_import", "import_clause":
		return true
	case "arrow_function":
		return syntax.SameNode(f.Field(p, "parameter"), child)
	default:
		return tsDeclTypes[t] && syntax.SameNode(f.Field(p, "name"), child)
	}
}

// tsBindingName reports whether n is an identifier that declares a name
// (`x` of `const x`, `a` of `const { a }`).
func tsBindingName(f *syntax.File, n *ts.Node) bool {
	t := f.Type(n)
	return (t == "identifier" || t == "shorthand_property_identifier_pattern") && tsBinding(f, n)
}

// tsBindingIn is the first identifier binding name in scope, or nil.
func tsBindingIn(f *syntax.File, scope *ts.Node, name string) *ts.Node {
	var found *ts.Node
	syntax.Walk(scope, func(n *ts.Node) bool {
		if found != nil {
			return false
		}
		t := f.Type(n)
		if !syntax.SameNode(n, scope) && tsScopeTypes[t] {
			if tsDeclTypes[t] {
				if nm := f.Field(n, "name"); nm != nil && f.Text(nm) == name {
					found = nm
				}
			}
			// Parameters of a nested function bind in it, not here.
			return false
		}
		if tsDeclTypes[t] && !tsScopeTypes[t] {
			if nm := f.Field(n, "name"); nm != nil && f.Text(nm) == name && syntax.SameNode(tsScopeOf(f, nm), scope) {
				found = nm
				return false
			}
		}
		if tsBindingName(f, n) && f.Text(n) == name && syntax.SameNode(tsScopeOf(f, n), scope) {
			found = n
		}
		return true
	})
	return found
}

// tsEnclosingClass is the class (declaration or expression) n is in, not
// crossing a non-arrow function (which rebinds this), or nil.
func tsEnclosingClass(f *syntax.File, n *ts.Node) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch f.Type(p) {
		case "class_declaration", "abstract_class_declaration", "class", "interface_declaration":
			return p
		case "function_declaration", "function_expression", "function", "generator_function_declaration":
			return nil
		}
	}
	return nil
}

// tsParamProperty reports whether a constructor parameter declares a
// field (`constructor(private x: T)`).
func tsParamProperty(f *syntax.File, param *ts.Node) bool {
	for i, c := 0, param.NamedChildCount(); i < c; i++ {
		switch f.Type(param.NamedChild(i)) {
		case "accessibility_modifier", "override_modifier":
			return true
		}
	}
	return false
}

// tsThisField is the declaration of the JavaScript member expression
// member, this.name, when `this` is a plain function's: the function's
// first this.name = … (tsThisFields, which fields gives per function, so
// that the describer can memoise it); nil elsewhere. The describer and
// the query-time resolver share this rule.
func tsThisField(f *syntax.File, member *ts.Node, name string, fields func(fn *ts.Node) map[string]*ts.Node) *ts.Node {
	if f.Type(f.Field(member, "object")) != "this" {
		return nil
	}
	if fn := tsThisFunction(f, member); fn != nil {
		return fields(fn)[name]
	}
	return nil
}

// tsThisFields maps each name the plain JavaScript function fn assigns as
// `this.NAME = …` to the property identifier of its first such assignment.
// A function called with new declares its instance's fields that way
// (rxjs's createErrorClass is handed one), and tsserver answers that
// assignment for this.NAME in the function, as it does a class's
// (tsDescriber.thisAssignments).
func tsThisFields(f *syntax.File, fn *ts.Node) map[string]*ts.Node {
	fields := map[string]*ts.Node{}
	tsEachThisAssignment(f, f.Field(fn, "body"), func(p *ts.Node) {
		if _, ok := fields[f.Text(p)]; !ok {
			fields[f.Text(p)] = p
		}
	})
	return fields
}

// tsThisFunction is the plain function whose `this` n sees: the nearest
// enclosing function that is no arrow function (those keep the `this`
// around them), nil when a class or an object literal's method comes
// first.
func tsThisFunction(f *syntax.File, n *ts.Node) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch f.Type(p) {
		case "function_expression", "function_declaration", "function", "generator_function",
			"generator_function_declaration":
			return p
		case "method_definition", "class_body", "class", "class_declaration", "abstract_class_declaration":
			return nil
		}
	}
	return nil
}

// tsEachThisAssignment calls fn with the property identifier of each
// `this.NAME = …` in body, in source order. Functions that rebind this
// (function expressions and declarations, nested classes) are not
// entered; arrow functions are.
func tsEachThisAssignment(f *syntax.File, body *ts.Node, fn func(prop *ts.Node)) {
	syntax.Walk(body, func(n *ts.Node) bool {
		switch f.Type(n) {
		case "function_expression", "function_declaration", "function", "generator_function",
			"generator_function_declaration", "class", "class_declaration":
			return false
		case "assignment_expression":
			left := f.Field(n, "left")
			if f.Type(left) != "member_expression" || f.Type(f.Field(left, "object")) != "this" {
				return true
			}
			if p := f.Field(left, "property"); p != nil && f.Type(p) == "property_identifier" {
				fn(p)
			}
		}
		return true
	})
}
