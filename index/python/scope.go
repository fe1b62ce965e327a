package python

import (
	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// Python scopes and bindings over the tree-sitter tree.

// pyScopeTypes are the nodes that open a scope.
var pyScopeTypes = map[string]bool{
	"module": true, "function_definition": true, "class_definition": true, "lambda": true,
	"list_comprehension": true, "set_comprehension": true, "dictionary_comprehension": true, "generator_expression": true,
}

// pyPatternTypes are the nodes a binding target may be nested in (a, (b,
// c) = ...; with x as (u, v)).
var pyPatternTypes = map[string]bool{
	"pattern_list": true, "tuple_pattern": true, "list_pattern": true, "tuple": true, "list": true,
	"parenthesized_expression": true, "list_splat_pattern": true, "dictionary_splat_pattern": true,
	"as_pattern_target": true, "expression_list": true,
}

// pyScopeOf returns the scope node in which the identifier (or any node)
// n appears: the name of a def or class, its decorators and a class's bases
// belong to the enclosing scope.
func pyScopeOf(f *syntax.File, n *ts.Node) *ts.Node {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		t := f.Type(p)
		if !pyScopeTypes[t] {
			continue
		}
		switch t {
		case "function_definition", "class_definition":
			if syntax.SameNode(f.Field(p, "name"), child) || syntax.SameNode(f.Field(p, "superclasses"), child) {
				continue
			}
		}
		return p
	}
	return f.Tree.Root()
}

// pyParentScope is the scope enclosing scope s (nil for the module).
func pyParentScope(f *syntax.File, s *ts.Node) *ts.Node {
	// A broken file's root may be an ERROR node: it is the module still,
	// or a lookup would climb to it forever.
	if f.Type(s) == "module" || syntax.SameNode(s, f.Tree.Root()) {
		return nil
	}
	return pyScopeOf(f, s)
}

// pyBindingNameOf reports whether the identifier id is bound where it
// stands: an assignment or loop target, an `as` name, a parameter, the
// name of a def or class, or a name an import binds.
func pyBindingNameOf(f *syntax.File, id *ts.Node) bool {
	child, p := id, id.Parent()
	viaAs := false
	for p != nil && pyPatternTypes[f.Type(p)] {
		viaAs = viaAs || f.Type(p) == "as_pattern_target"
		child, p = p, p.Parent()
	}
	if p == nil {
		return false
	}
	switch f.Type(p) {
	case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
		return syntax.SameNode(f.Field(p, "left"), child)
	case "as_pattern":
		return viaAs
	case "named_expression", "function_definition", "class_definition", "default_parameter", "typed_default_parameter":
		return syntax.SameNode(f.Field(p, "name"), child)
	case "parameters", "lambda_parameters":
		return true
	case "typed_parameter":
		return f.Type(child) == "identifier" || pyPatternTypes[f.Type(child)]
	case "aliased_import":
		return syntax.SameNode(f.Field(p, "alias"), child)
	case "dotted_name":
		// import a.b binds a; from m import y binds y.
		g := p.Parent()
		if g == nil || p.NamedChild(0) == nil || !syntax.SameNode(p.NamedChild(0), id) {
			return false
		}
		switch f.Type(g) {
		case "import_statement":
			return true
		case "import_from_statement":
			return !syntax.SameNode(f.Field(g, "module_name"), p) && p.NamedChildCount() == 1
		}
	}
	return false
}

// pyEnclosingImport is the import statement id is part of, or nil.
func pyEnclosingImport(f *syntax.File, id *ts.Node) *ts.Node {
	for p := id.Parent(); p != nil; p = p.Parent() {
		switch f.Type(p) {
		case "import_statement", "import_from_statement":
			return p
		case "dotted_name", "aliased_import", "relative_import":
			continue
		}
		return nil
	}
	return nil
}

// pyBindings tells which identifier binds a name in a scope: walking the
// scope at query time (pyWalkBindings, one lookup per request), or a table
// built in one walk at index time (pyBindingTable, a lookup per
// identifier of the file).
type pyBindings interface {
	// binding is the first identifier binding name in scope, or nil.
	binding(scope *ts.Node, name string) *ts.Node
	// declares is "global" or "nonlocal" when scope declares name so.
	declares(scope *ts.Node, name string) string
}

// pyWalkBindings answers by walking the scope (bindingIn, pyDeclares).
type pyWalkBindings struct{ f *syntax.File }

func (w pyWalkBindings) binding(scope *ts.Node, name string) *ts.Node {
	return bindingIn(w.f, scope, name)
}
func (w pyWalkBindings) declares(scope *ts.Node, name string) string {
	return pyDeclares(w.f, scope, name)
}

// pyLookupBinding finds the binding of name used at node n of f through
// the enclosing scopes, as Python does: a class body's names are not
// visible in the functions nested in it; `global` and `nonlocal` move the
// lookup out. It returns the binding identifier and the scope holding it;
// b is nil and scope the module when no scope binds the name (a star
// import or a builtin), and both are nil when step refuses (nil step
// allows all).
func pyLookupBinding(f *syntax.File, n *ts.Node, name string, bs pyBindings, step func() bool) (b, scope *ts.Node) {
	scope = pyScopeOf(f, n)
	first := true
	for scope != nil {
		if step != nil && !step() {
			return nil, nil
		}
		t := f.Type(scope)
		if t != "class_definition" || first {
			if t == "function_definition" || t == "lambda" {
				switch bs.declares(scope, name) {
				case "global":
					scope = f.Tree.Root()
					continue
				case "nonlocal":
					scope, first = pyParentScope(f, scope), false
					continue
				}
			}
			if b := bs.binding(scope, name); b != nil {
				return b, scope
			}
			if t == "module" || syntax.SameNode(scope, f.Tree.Root()) {
				return nil, scope
			}
		}
		scope, first = pyParentScope(f, scope), false
	}
	return nil, nil
}

// bindingIn returns the first identifier binding name in scope (source
// order), or nil. Nested scopes are skipped but for their names.
func bindingIn(f *syntax.File, scope *ts.Node, name string) *ts.Node {
	var found *ts.Node
	syntax.Walk(scope, func(n *ts.Node) bool {
		if found != nil {
			return false
		}
		if !syntax.SameNode(n, scope) && pyScopeTypes[f.Type(n)] {
			// A nested def or class binds its name here; a comprehension's
			// first iterable is evaluated here too, but binds nothing.
			if nm := f.Field(n, "name"); nm != nil && f.Text(nm) == name &&
				(f.Type(n) == "function_definition" || f.Type(n) == "class_definition") {
				found = nm
			}
			return false
		}
		if f.Type(n) == "identifier" && f.Text(n) == name && pyBindingNameOf(f, n) && syntax.SameNode(pyScopeOf(f, n), scope) {
			found = n
		}
		return true
	})
	return found
}

// pyDeclares reports whether scope holds `global name` (kind "global") or
// `nonlocal name` ("nonlocal").
func pyDeclares(f *syntax.File, scope *ts.Node, name string) string {
	kind := ""
	syntax.Walk(scope, func(n *ts.Node) bool {
		if kind != "" || (!syntax.SameNode(n, scope) && pyScopeTypes[f.Type(n)]) {
			return false
		}
		if t := f.Type(n); t == "global_statement" || t == "nonlocal_statement" {
			for i, c := 0, n.NamedChildCount(); i < c; i++ {
				if f.Text(n.NamedChild(i)) == name {
					kind = t[:len(t)-len("_statement")]
				}
			}
			return false
		}
		return true
	})
	return kind
}

// pyEnclosingFunction is the function or lambda n is in, or nil.
func pyEnclosingFunction(f *syntax.File, n *ts.Node) *ts.Node {
	for s := pyScopeOf(f, n); s != nil; s = pyParentScope(f, s) {
		switch f.Type(s) {
		case "function_definition":
			return s
		case "class_definition", "module":
			return nil
		}
	}
	return nil
}

// pyFirstParam is the name of fn's first positional parameter, or nil.
func pyFirstParam(f *syntax.File, fn *ts.Node) *ts.Node {
	ps := f.Field(fn, "parameters")
	if ps == nil || ps.NamedChildCount() == 0 {
		return nil
	}
	p := ps.NamedChild(0)
	switch f.Type(p) {
	case "identifier":
		return p
	case "typed_parameter":
		if c := p.NamedChild(0); c != nil && f.Type(c) == "identifier" {
			return c
		}
	case "default_parameter", "typed_default_parameter":
		return f.Field(p, "name")
	}
	return nil
}

// pyMethodClass is the class whose method fn is, when fn is defined
// directly in a class body and is not a staticmethod; nil otherwise.
func pyMethodClass(f *syntax.File, fn *ts.Node) *ts.Node {
	s := pyScopeOf(f, fn)
	if f.Type(s) != "class_definition" {
		return nil
	}
	if d := fn.Parent(); d != nil && f.Type(d) == "decorated_definition" {
		for i, c := 0, d.NamedChildCount(); i < c; i++ {
			if dc := d.NamedChild(i); f.Type(dc) == "decorator" && f.Text(dc) == "@staticmethod" {
				return nil
			}
		}
	}
	return s
}

// pyEnclosingClass is, for an attribute node self.x in a method, the
// method's class when self is the method's first parameter.
func pyEnclosingClass(f *syntax.File, attr *ts.Node) *ts.Node {
	obj := f.Field(attr, "object")
	if obj == nil || f.Type(obj) != "identifier" {
		return nil
	}
	fn := pyEnclosingFunction(f, attr)
	if fn == nil {
		return nil
	}
	first := pyFirstParam(f, fn)
	if first == nil || f.Text(first) != f.Text(obj) {
		return nil
	}
	return pyMethodClass(f, fn)
}
