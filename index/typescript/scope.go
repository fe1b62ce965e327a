package index

import (
	ts "github.com/odvcencio/gotreesitter"
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
func tsScopeOf(f *pyFile, n *ts.Node) *ts.Node {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		if tsDeclTypes[f.typ(p)] && sameNode(f.field(p, "name"), child) {
			continue
		}
		if tsScopeTypes[f.typ(p)] {
			return p
		}
	}
	return f.tree.Root()
}

// tsPatternTypes are the nodes a binding name may be nested in.
var tsPatternTypes = map[string]bool{
	"object_pattern": true, "array_pattern": true, "pair_pattern": true, "rest_pattern": true,
	"assignment_pattern": true, "object_assignment_pattern": true,
}

// tsBinding reports whether the identifier id is a declared name.
func tsBinding(f *pyFile, id *ts.Node) bool {
	if f.typ(id) == "shorthand_property_identifier_pattern" {
		return true
	}
	child, p := id, id.Parent()
	for p != nil && tsPatternTypes[f.typ(p)] {
		if f.typ(p) == "pair_pattern" && sameNode(f.field(p, "key"), child) {
			return false
		}
		if (f.typ(p) == "assignment_pattern" || f.typ(p) == "object_assignment_pattern") && !sameNode(f.field(p, "left"), child) {
			return false
		}
		child, p = p, p.Parent()
	}
	if p == nil {
		return false
	}
	switch t := f.typ(p); t {
	case "variable_declarator":
		return sameNode(f.field(p, "name"), child)
	case "required_parameter", "optional_parameter":
		return sameNode(f.field(p, "pattern"), child)
	case "formal_parameters":
		return true // JavaScript: bare identifiers
	case "for_in_statement":
		return sameNode(f.field(p, "left"), child)
	case "catch_clause":
		return sameNode(f.field(p, "parameter"), child)
	case "import_specifier":
		return f.field(p, "alias") == nil || sameNode(f.field(p, "alias"), child)
	case "namespace_import", "import_clause":
		return true
	case "arrow_function":
		return sameNode(f.field(p, "parameter"), child)
	default:
		return tsDeclTypes[t] && sameNode(f.field(p, "name"), child)
	}
}

// tsBindingName reports whether n is an identifier that declares a name
// (`x` of `const x`, `a` of `const { a }`).
func tsBindingName(f *pyFile, n *ts.Node) bool {
	t := f.typ(n)
	return (t == "identifier" || t == "shorthand_property_identifier_pattern") && tsBinding(f, n)
}

// tsBindingIn is the first identifier binding name in scope, or nil.
func tsBindingIn(f *pyFile, scope *ts.Node, name string) *ts.Node {
	var found *ts.Node
	pyWalk(scope, func(n *ts.Node) bool {
		if found != nil {
			return false
		}
		t := f.typ(n)
		if !sameNode(n, scope) && tsScopeTypes[t] {
			if tsDeclTypes[t] {
				if nm := f.field(n, "name"); nm != nil && f.text(nm) == name {
					found = nm
				}
			}
			// Parameters of a nested function bind in it, not here.
			return false
		}
		if tsDeclTypes[t] && !tsScopeTypes[t] {
			if nm := f.field(n, "name"); nm != nil && f.text(nm) == name && sameNode(tsScopeOf(f, nm), scope) {
				found = nm
				return false
			}
		}
		if tsBindingName(f, n) && f.text(n) == name && sameNode(tsScopeOf(f, n), scope) {
			found = n
		}
		return true
	})
	return found
}

// tsEnclosingClass is the class (declaration or expression) n is in, not
// crossing a non-arrow function (which rebinds this), or nil.
func tsEnclosingClass(f *pyFile, n *ts.Node) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch f.typ(p) {
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
func tsParamProperty(f *pyFile, param *ts.Node) bool {
	for i, c := 0, param.NamedChildCount(); i < c; i++ {
		switch f.typ(param.NamedChild(i)) {
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
func tsThisField(f *pyFile, member *ts.Node, name string, fields func(fn *ts.Node) map[string]*ts.Node) *ts.Node {
	if f.typ(f.field(member, "object")) != "this" {
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
func tsThisFields(f *pyFile, fn *ts.Node) map[string]*ts.Node {
	fields := map[string]*ts.Node{}
	tsEachThisAssignment(f, f.field(fn, "body"), func(p *ts.Node) {
		if _, ok := fields[f.text(p)]; !ok {
			fields[f.text(p)] = p
		}
	})
	return fields
}

// tsThisFunction is the plain function whose `this` n sees: the nearest
// enclosing function that is no arrow function (those keep the `this`
// around them), nil when a class or an object literal's method comes
// first.
func tsThisFunction(f *pyFile, n *ts.Node) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch f.typ(p) {
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
func tsEachThisAssignment(f *pyFile, body *ts.Node, fn func(prop *ts.Node)) {
	pyWalk(body, func(n *ts.Node) bool {
		switch f.typ(n) {
		case "function_expression", "function_declaration", "function", "generator_function",
			"generator_function_declaration", "class", "class_declaration":
			return false
		case "assignment_expression":
			left := f.field(n, "left")
			if f.typ(left) != "member_expression" || f.typ(f.field(left, "object")) != "this" {
				return true
			}
			if p := f.field(left, "property"); p != nil && f.typ(p) == "property_identifier" {
				fn(p)
			}
		}
		return true
	})
}
