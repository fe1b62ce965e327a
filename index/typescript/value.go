package typescript

import (
	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// TypeScript values: modules and their exports, classes and interfaces
// and their members, instances from new and annotations. syntax.Value carries
// them (module: a module file; class: a class or interface node).

// tsLookup resolves name used at node n of f through the enclosing
// scopes.
func (r *resolver) tsLookup(f *syntax.File, n *ts.Node, name string) syntax.Value {
	scopeOf := func(n *ts.Node) *ts.Node { return tsScopeOf(f, n) }
	if b := tsLookupBinding(f, n, scopeOf, r.Step, func(scope *ts.Node) *ts.Node { return tsBindingIn(f, scope, name) }); b != nil {
		return r.tsBindingValue(f, b)
	}
	return syntax.Value{}
}

// tsLookupBinding is the identifier binding a name where node n of f
// uses it, through the enclosing scopes, or nil: the scope rule of the
// query-time resolver (in walks a scope) and of the index-time
// descriptors (in reads a table of the file's bindings, and scopeOf,
// tsScopeOf, is memoised: describe.go). step bounds the scopes
// looked at.
func tsLookupBinding(f *syntax.File, n *ts.Node, scopeOf func(*ts.Node) *ts.Node, step func() bool, in func(scope *ts.Node) *ts.Node) *ts.Node {
	up := func(s *ts.Node) *ts.Node {
		if f.Type(s) == "program" || s.Parent() == nil { // a broken tree's root is no program
			return nil
		}
		return scopeOf(s)
	}
	for scope := scopeOf(n); scope != nil; scope = up(scope) {
		if !step() {
			return nil
		}
		if f.Type(scope) == "class_body" {
			continue // members are not lexical names
		}
		if b := in(scope); b != nil {
			return b
		}
	}
	return nil
}

// tsBindingValue is the value of the declared name b of f.
func (r *resolver) tsBindingValue(f *syntax.File, b *ts.Node) syntax.Value {
	p := b.Parent()
	switch f.Type(p) {
	case "import_specifier":
		return r.tsSpecifier(f, p, b)
	case "namespace_import":
		if mod := r.tsImportSource(f, p); mod != "" {
			return syntax.Value{Decl: syntax.ModuleTarget(mod), OK: true, Module: mod}
		}
		return syntax.Value{}
	case "import_clause":
		if mod := r.tsImportSource(f, p); mod != "" {
			return r.tsExport(mod, "default")
		}
		return syntax.Value{}
	}
	v := syntax.Value{Decl: r.tsTarget(f, b), OK: true}
	switch f.Type(p) {
	case "class_declaration", "abstract_class_declaration", "interface_declaration":
		v.Class = &syntax.Class{F: f, Node: p}
	case "required_parameter", "optional_parameter":
		if ty := f.Field(p, "type"); ty != nil {
			v.Class, v.Instance = r.tsTypeClass(f, ty), true
			break
		}
		v.Module, v.Class, v.Instance = r.tsDefaulted(f, p, f.Field(p, "value"))
	case "assignment_pattern": // a JavaScript parameter with a default
		if f.Type(p.Parent()) == "formal_parameters" && syntax.SameNode(f.Field(p, "left"), b) {
			v.Module, v.Class, v.Instance = r.tsDefaulted(f, p, f.Field(p, "right"))
		}
	case "arrow_function": // x => …
		v.Class, v.Instance = r.tsContextualParam(f, b), true
	case "object_pattern": // const { x } = value
		if d := p.Parent(); f.Type(d) == "variable_declarator" && syntax.SameNode(f.Field(d, "name"), p) {
			mv := r.tsMember(r.tsEval(f, f.Field(d, "value")), f.Text(b))
			v.Module, v.Class, v.Instance = mv.Module, mv.Class, mv.Instance
		}
	case "type_alias_declaration":
		v.Class = r.tsTypeClass(f, f.Field(p, "value"))
	case "variable_declarator":
		if ty := f.Field(p, "type"); ty != nil {
			v.Class, v.Instance = r.tsTypeClass(f, ty), true
			break
		}
		rv := r.tsEval(f, f.Field(p, "value"))
		v.Module, v.Class, v.Instance = rv.Module, rv.Class, rv.Instance
	}
	if v.Class == nil {
		v.Instance = false
	}
	return v
}

// tsDefaulted is the value of the untyped parameter param, whose default
// value is def (nil without one): an instance of the type a callee gives
// it as a callback, else its default's value (tsDescriber.defaulted).
func (r *resolver) tsDefaulted(f *syntax.File, param, def *ts.Node) (module string, class *syntax.Class, instance bool) {
	if c := r.tsContextualParam(f, param); c != nil {
		return "", c, true
	}
	dv := r.tsEval(f, def)
	return dv.Module, dv.Class, dv.Instance
}

// tsImportSource is the module file of the import statement around n.
func (r *resolver) tsImportSource(f *syntax.File, n *ts.Node) string {
	for p := n; p != nil; p = p.Parent() {
		switch f.Type(p) {
		case "import_statement", "export_statement":
			return r.tsModuleFile(f.Rel, tsStringValue(f, f.Field(p, "source")))
		}
	}
	return ""
}

// tsSpecifier is what an import or export specifier's name (or alias)
// stands for: the export of the module it reads, or for `export {x}`
// without a source, the local x.
func (r *resolver) tsSpecifier(f *syntax.File, spec, id *ts.Node) syntax.Value {
	name := f.Field(spec, "name")
	if name == nil {
		return syntax.Value{}
	}
	if mod := r.tsImportSource(f, spec); mod != "" {
		return r.tsExport(mod, f.Text(name))
	}
	if f.Type(spec) == "export_specifier" {
		return r.tsLookup(f, name, f.Text(name))
	}
	return syntax.Value{}
}

// tsExport is the declaration module file mod exports as name.
func (r *resolver) tsExport(mod, name string) syntax.Value {
	if r.tsIdxKnown(mod) {
		return r.tsIdxExport(mod, name, 0)
	}
	f := r.tsFile(mod, nil)
	if f == nil || !r.Step() {
		return syntax.Value{}
	}
	root := f.Tree.Root()
	var stars []string
	for i, c := 0, root.NamedChildCount(); i < c; i++ {
		st := root.NamedChild(i)
		if f.Type(st) != "export_statement" {
			continue
		}
		src := tsStringValue(f, f.Field(st, "source"))
		if d := f.Field(st, "declaration"); d != nil {
			// The first overload: tsserver answers with the overload a
			// call matches, most often the first.
			if v, ok := r.tsExportedDecl(f, st, d, name); ok {
				return v
			}
			continue
		}
		if name == "default" && src == "" {
			if val := f.Field(st, "value"); val != nil {
				return r.tsEval(f, val)
			}
		}
		clause := tsChildOfType(f, st, "export_clause")
		if clause == nil {
			if src != "" && tsChildOfType(f, st, "namespace_export") == nil {
				stars = append(stars, src)
			}
			continue
		}
		for j, n := 0, clause.NamedChildCount(); j < n; j++ {
			spec := clause.NamedChild(j)
			local, alias := f.Field(spec, "name"), f.Field(spec, "alias")
			exported := local
			if alias != nil {
				exported = alias
			}
			if local == nil || f.Text(exported) != name {
				continue
			}
			if src != "" {
				if m := r.tsModuleFile(f.Rel, src); m != "" {
					return r.tsExport(m, f.Text(local))
				}
				return syntax.Value{}
			}
			return r.tsLookup(f, local, f.Text(local))
		}
	}
	for _, src := range stars {
		if m := r.tsModuleFile(f.Rel, src); m != "" {
			if v := r.tsExport(m, name); v.OK {
				return v
			}
		}
	}
	return syntax.Value{}
}

// tsExportedDecl matches an exported declaration against name.
func (r *resolver) tsExportedDecl(f *syntax.File, st, d *ts.Node, name string) (syntax.Value, bool) {
	isDefault := tsChildOfType(f, st, "default") != nil
	if nm := f.Field(d, "name"); nm != nil {
		if (isDefault && name == "default") || (!isDefault && f.Text(nm) == name) {
			return r.tsBindingValue(f, nm), true
		}
		return syntax.Value{}, false
	}
	// export const a = 1, b = 2
	var found *ts.Node
	syntax.Walk(d, func(n *ts.Node) bool {
		if found == nil && tsBindingName(f, n) && f.Text(n) == name {
			found = n
		}
		return found == nil && f.Type(n) != "arrow_function" && f.Type(n) != "function_expression"
	})
	if found != nil {
		return r.tsBindingValue(f, found), true
	}
	return syntax.Value{}, false
}

func tsChildOfType(f *syntax.File, n *ts.Node, typ string) *ts.Node {
	for i, c := 0, n.ChildCount(); i < c; i++ {
		if ch := n.Child(i); f.Type(ch) == typ {
			return ch
		}
	}
	return nil
}

// tsTypeClass is the class or interface a type annotation names, or nil.
func (r *resolver) tsTypeClass(f *syntax.File, ty *ts.Node) *syntax.Class {
	for ty = tsUnwrapType(f, ty); ty != nil; {
		switch f.Type(ty) {
		case "generic_type":
			ty = ty.NamedChild(0)
			continue
		case "object_type":
			return &syntax.Class{F: f, Node: ty}
		case "type_identifier", "identifier":
			v := r.tsLookup(f, ty, f.Text(ty))
			if v.Instance {
				return nil
			}
			return v.Class
		case "nested_type_identifier":
			v := r.tsMember(r.tsEval(f, ty.NamedChild(0)), f.Text(ty.NamedChild(ty.NamedChildCount()-1)))
			if v.Instance {
				return nil
			}
			return v.Class
		}
		return nil
	}
	return nil
}

// tsEval is the value of the expression n of f.
func (r *resolver) tsEval(f *syntax.File, n *ts.Node) syntax.Value {
	if n == nil || !r.Step() {
		return syntax.Value{}
	}
	switch f.Type(n) {
	case "identifier", "type_identifier":
		return r.tsLookup(f, n, f.Text(n))
	case "this":
		if c := tsEnclosingClass(f, n); c != nil {
			return syntax.Value{Class: &syntax.Class{F: f, Node: c}, Instance: true}
		}
	case "super":
		if c := tsEnclosingClass(f, n); c != nil {
			if sc := r.tsSuperClass(f, c); sc != nil {
				return syntax.Value{Class: sc, Instance: true}
			}
		}
	case "member_expression":
		return r.tsMember(r.tsEval(f, f.Field(n, "object")), f.Text(f.Field(n, "property")))
	case "new_expression":
		if cv := r.tsEval(f, f.Field(n, "constructor")); cv.Class != nil && !cv.Instance {
			return syntax.Value{Class: cv.Class, Instance: true}
		}
	case "parenthesized_expression", "non_null_expression", "await_expression":
		return r.tsEval(f, n.NamedChild(0))
	case "call_expression":
		return r.tsCallResult(f, n)
	case "binary_expression":
		// a || b, a ?? b: a's value when the syntax tells it, else b's.
		if op := f.Text(f.Field(n, "operator")); op == "||" || op == "??" {
			if v := r.tsEval(f, f.Field(n, "left")); v.Class != nil || v.Module != "" {
				return v
			}
			return r.tsEval(f, f.Field(n, "right"))
		}
	case "as_expression", "satisfies_expression":
		if c := r.tsTypeClass(f, n.NamedChild(1)); c != nil {
			return syntax.Value{Class: c, Instance: true}
		}
		return r.tsEval(f, n.NamedChild(0))
	}
	return syntax.Value{}
}

// tsMember is property name of v.
func (r *resolver) tsMember(v syntax.Value, name string) syntax.Value {
	switch {
	case v.Module != "":
		return r.tsExport(v.Module, name)
	case v.Class != nil:
		return r.tsClassMember(v.Class, name)
	}
	return syntax.Value{}
}

// tsClassMember is name declared in class or interface c: its body, its
// constructor's parameter properties, then what it extends and
// implements, in order.
func (r *resolver) tsClassMember(c *syntax.Class, name string) syntax.Value {
	if c.F == nil {
		return r.tsIdxClassMember(c, name, 0)
	}
	if !r.Step() {
		return syntax.Value{}
	}
	f := c.F
	body := f.Field(c.Node, "body")
	if f.Type(c.Node) == "object_type" {
		body = c.Node
	}
	if body != nil {
		for i, n := 0, body.NamedChildCount(); i < n; i++ {
			m := body.NamedChild(i)
			if nm := f.Field(m, "name"); nm != nil && f.Text(nm) == name {
				v := syntax.Value{Decl: r.tsTarget(f, nm), OK: true}
				if ty := f.Field(m, "type"); ty != nil && f.Type(m) != "method_signature" {
					v.Class, v.Instance = r.tsTypeClass(f, ty), true
				}
				return v
			}
			if f.Type(m) == "method_definition" && f.Text(f.Field(m, "name")) == "constructor" {
				if v, ok := r.tsParamMember(f, m, name); ok {
					return v
				}
			}
		}
	}
	for _, sc := range r.tsSupers(c) {
		if v := r.tsClassMember(sc, name); v.OK {
			return v
		}
	}
	return syntax.Value{}
}

// tsSupers are the classes and interfaces class or interface c extends
// and implements, in order.
func (r *resolver) tsSupers(c *syntax.Class) []*syntax.Class {
	f := c.F
	var supers []*ts.Node
	syntax.Walk(c.Node, func(n *ts.Node) bool {
		switch tsHeritageType(f, n) {
		case "class_body", "interface_body", "object_type", "formal_parameters", "statement_block":
			return false
		case "extends_clause", "implements_clause", "extends_type_clause":
			for i, k := 0, n.NamedChildCount(); i < k; i++ {
				supers = append(supers, n.NamedChild(i))
			}
			return false
		}
		return true
	})
	var out []*syntax.Class
	for _, s := range supers {
		var sc *syntax.Class
		s = tsHeritageCallee(f, s)
		if f.Type(s) == "identifier" || f.Type(s) == "member_expression" {
			if v := r.tsEval(f, s); !v.Instance {
				sc = v.Class
			}
		} else {
			sc = r.tsTypeClass(f, s)
		}
		if sc != nil {
			out = append(out, sc)
		}
	}
	return out
}

// tsParamMember finds a constructor parameter property named name.
func (r *resolver) tsParamMember(f *syntax.File, ctor *ts.Node, name string) (syntax.Value, bool) {
	ps := f.Field(ctor, "parameters")
	if ps == nil {
		return syntax.Value{}, false
	}
	for i, n := 0, ps.NamedChildCount(); i < n; i++ {
		p := ps.NamedChild(i)
		pat := f.Field(p, "pattern")
		if pat != nil && f.Text(pat) == name && tsParamProperty(f, p) {
			v := syntax.Value{Decl: r.tsTarget(f, pat), OK: true}
			v.Class, v.Instance = r.tsTypeClass(f, f.Field(p, "type")), true
			if v.Class == nil {
				v.Instance = false
			}
			return v, true
		}
	}
	return syntax.Value{}, false
}

// tsSuperClass is the class that class c extends, or nil.
func (r *resolver) tsSuperClass(f *syntax.File, c *ts.Node) *syntax.Class {
	ext := tsExtends(f, c)
	if v := r.tsEval(f, ext); v.Class != nil && !v.Instance {
		return v.Class
	}
	return nil
}

// tsHeritageCallee is the class an extends clause names: S of `S(T)`, the
// masked `S<T>` (tsMaskHeritage), or the clause's expression itself.
func tsHeritageCallee(f *syntax.File, n *ts.Node) *ts.Node {
	if f.Type(n) == "call_expression" {
		return f.Field(n, "function")
	}
	return n
}
