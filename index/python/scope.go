package index

import (
	ts "github.com/odvcencio/gotreesitter"
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
func pyScopeOf(f *pyFile, n *ts.Node) *ts.Node {
	child := n
	for p := n.Parent(); p != nil; child, p = p, p.Parent() {
		t := f.typ(p)
		if !pyScopeTypes[t] {
			continue
		}
		switch t {
		case "function_definition", "class_definition":
			if sameNode(f.field(p, "name"), child) || sameNode(f.field(p, "superclasses"), child) {
				continue
			}
		}
		return p
	}
	return f.tree.Root()
}

// pyParentScope is the scope enclosing scope s (nil for the module).
func pyParentScope(f *pyFile, s *ts.Node) *ts.Node {
	// A broken file's root may be an ERROR node: it is the module still,
	// or a lookup would climb to it forever.
	if f.typ(s) == "module" || sameNode(s, f.tree.Root()) {
		return nil
	}
	return pyScopeOf(f, s)
}

// pyBindingNameOf reports whether the identifier id is bound where it
// stands: an assignment or loop target, an `as` name, a parameter, the
// name of a def or class, or a name an import binds.
func pyBindingNameOf(f *pyFile, id *ts.Node) bool {
	child, p := id, id.Parent()
	viaAs := false
	for p != nil && pyPatternTypes[f.typ(p)] {
		viaAs = viaAs || f.typ(p) == "as_pattern_target"
		child, p = p, p.Parent()
	}
	if p == nil {
		return false
	}
	switch f.typ(p) {
	case "assignment", "augmented_assignment", "for_statement", "for_in_clause":
		return sameNode(f.field(p, "left"), child)
	case "as_pattern":
		return viaAs
	case "named_expression", "function_definition", "class_definition", "default_parameter", "typed_default_parameter":
		return sameNode(f.field(p, "name"), child)
	case "parameters", "lambda_parameters":
		return true
	case "typed_parameter":
		return f.typ(child) == "identifier" || pyPatternTypes[f.typ(child)]
	case "aliased_import":
		return sameNode(f.field(p, "alias"), child)
	case "dotted_name":
		// import a.b binds a; from m import y binds y.
		g := p.Parent()
		if g == nil || p.NamedChild(0) == nil || !sameNode(p.NamedChild(0), id) {
			return false
		}
		switch f.typ(g) {
		case "import_statement":
			return true
		case "import_from_statement":
			return !sameNode(f.field(g, "module_name"), p) && p.NamedChildCount() == 1
		}
	}
	return false
}

// pyEnclosingImport is the import statement id is part of, or nil.
func pyEnclosingImport(f *pyFile, id *ts.Node) *ts.Node {
	for p := id.Parent(); p != nil; p = p.Parent() {
		switch f.typ(p) {
		case "import_statement", "import_from_statement":
			return p
		case "dotted_name", "aliased_import", "relative_import":
			continue
		}
		return nil
	}
	return nil
}

// pyWalk calls fn on every node under n in source order; fn returns false
// to skip a node's children.
func pyWalk(n *ts.Node, fn func(*ts.Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for i, c := 0, n.ChildCount(); i < c; i++ {
		pyWalk(n.Child(i), fn)
	}
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
type pyWalkBindings struct{ f *pyFile }

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
func pyLookupBinding(f *pyFile, n *ts.Node, name string, bs pyBindings, step func() bool) (b, scope *ts.Node) {
	scope = pyScopeOf(f, n)
	first := true
	for scope != nil {
		if step != nil && !step() {
			return nil, nil
		}
		t := f.typ(scope)
		if t != "class_definition" || first {
			if t == "function_definition" || t == "lambda" {
				switch bs.declares(scope, name) {
				case "global":
					scope = f.tree.Root()
					continue
				case "nonlocal":
					scope, first = pyParentScope(f, scope), false
					continue
				}
			}
			if b := bs.binding(scope, name); b != nil {
				return b, scope
			}
			if t == "module" || sameNode(scope, f.tree.Root()) {
				return nil, scope
			}
		}
		scope, first = pyParentScope(f, scope), false
	}
	return nil, nil
}

// bindingIn returns the first identifier binding name in scope (source
// order), or nil. Nested scopes are skipped but for their names.
func bindingIn(f *pyFile, scope *ts.Node, name string) *ts.Node {
	var found *ts.Node
	pyWalk(scope, func(n *ts.Node) bool {
		if found != nil {
			return false
		}
		if !sameNode(n, scope) && pyScopeTypes[f.typ(n)] {
			// A nested def or class binds its name here; a comprehension's
			// first iterable is evaluated here too, but binds nothing.
			if nm := f.field(n, "name"); nm != nil && f.text(nm) == name &&
				(f.typ(n) == "function_definition" || f.typ(n) == "class_definition") {
				found = nm
			}
			return false
		}
		if f.typ(n) == "identifier" && f.text(n) == name && pyBindingNameOf(f, n) && sameNode(pyScopeOf(f, n), scope) {
			found = n
		}
		return true
	})
	return found
}

// pyDeclares reports whether scope holds `global name` (kind "global") or
// `nonlocal name` ("nonlocal").
func pyDeclares(f *pyFile, scope *ts.Node, name string) string {
	kind := ""
	pyWalk(scope, func(n *ts.Node) bool {
		if kind != "" || (!sameNode(n, scope) && pyScopeTypes[f.typ(n)]) {
			return false
		}
		if t := f.typ(n); t == "global_statement" || t == "nonlocal_statement" {
			for i, c := 0, n.NamedChildCount(); i < c; i++ {
				if f.text(n.NamedChild(i)) == name {
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
func pyEnclosingFunction(f *pyFile, n *ts.Node) *ts.Node {
	for s := pyScopeOf(f, n); s != nil; s = pyParentScope(f, s) {
		switch f.typ(s) {
		case "function_definition":
			return s
		case "class_definition", "module":
			return nil
		}
	}
	return nil
}

// pyFirstParam is the name of fn's first positional parameter, or nil.
func pyFirstParam(f *pyFile, fn *ts.Node) *ts.Node {
	ps := f.field(fn, "parameters")
	if ps == nil || ps.NamedChildCount() == 0 {
		return nil
	}
	p := ps.NamedChild(0)
	switch f.typ(p) {
	case "identifier":
		return p
	case "typed_parameter":
		if c := p.NamedChild(0); c != nil && f.typ(c) == "identifier" {
			return c
		}
	case "default_parameter", "typed_default_parameter":
		return f.field(p, "name")
	}
	return nil
}

// pyMethodClass is the class whose method fn is, when fn is defined
// directly in a class body and is not a staticmethod; nil otherwise.
func pyMethodClass(f *pyFile, fn *ts.Node) *ts.Node {
	s := pyScopeOf(f, fn)
	if f.typ(s) != "class_definition" {
		return nil
	}
	if d := fn.Parent(); d != nil && f.typ(d) == "decorated_definition" {
		for i, c := 0, d.NamedChildCount(); i < c; i++ {
			if dc := d.NamedChild(i); f.typ(dc) == "decorator" && f.text(dc) == "@staticmethod" {
				return nil
			}
		}
	}
	return s
}

// pyEnclosingClass is, for an attribute node self.x in a method, the
// method's class when self is the method's first parameter.
func pyEnclosingClass(f *pyFile, attr *ts.Node) *ts.Node {
	obj := f.field(attr, "object")
	if obj == nil || f.typ(obj) != "identifier" {
		return nil
	}
	fn := pyEnclosingFunction(f, attr)
	if fn == nil {
		return nil
	}
	first := pyFirstParam(f, fn)
	if first == nil || f.text(first) != f.text(obj) {
		return nil
	}
	return pyMethodClass(f, fn)
}
