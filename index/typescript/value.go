package index

import (
	ts "github.com/odvcencio/gotreesitter"
)

// TypeScript values: modules and their exports, classes and interfaces
// and their members, instances from new and annotations. pyValue carries
// them (module: a module file; class: a class or interface node).

// tsLookup resolves name used at node n of f through the enclosing
// scopes.
func (r *pyResolver) tsLookup(f *pyFile, n *ts.Node, name string) pyValue {
	scopeOf := func(n *ts.Node) *ts.Node { return tsScopeOf(f, n) }
	if b := tsLookupBinding(f, n, scopeOf, r.step, func(scope *ts.Node) *ts.Node { return tsBindingIn(f, scope, name) }); b != nil {
		return r.tsBindingValue(f, b)
	}
	return pyValue{}
}

// tsLookupBinding is the identifier binding a name where node n of f
// uses it, through the enclosing scopes, or nil: the scope rule of the
// query-time resolver (in walks a scope) and of the index-time
// descriptors (in reads a table of the file's bindings, and scopeOf,
// tsScopeOf, is memoised: resolve_tsdesc.go). step bounds the scopes
// looked at.
func tsLookupBinding(f *pyFile, n *ts.Node, scopeOf func(*ts.Node) *ts.Node, step func() bool, in func(scope *ts.Node) *ts.Node) *ts.Node {
	up := func(s *ts.Node) *ts.Node {
		if f.typ(s) == "program" || s.Parent() == nil { // a broken tree's root is no program
			return nil
		}
		return scopeOf(s)
	}
	for scope := scopeOf(n); scope != nil; scope = up(scope) {
		if !step() {
			return nil
		}
		if f.typ(scope) == "class_body" {
			continue // members are not lexical names
		}
		if b := in(scope); b != nil {
			return b
		}
	}
	return nil
}

// tsBindingValue is the value of the declared name b of f.
func (r *pyResolver) tsBindingValue(f *pyFile, b *ts.Node) pyValue {
	p := b.Parent()
	switch f.typ(p) {
	case "import_specifier":
		return r.tsSpecifier(f, p, b)
	case "namespace_import":
		if mod := r.tsImportSource(f, p); mod != "" {
			return pyValue{decl: moduleTarget(mod), ok: true, module: mod}
		}
		return pyValue{}
	case "import_clause":
		if mod := r.tsImportSource(f, p); mod != "" {
			return r.tsExport(mod, "default")
		}
		return pyValue{}
	}
	v := pyValue{decl: r.tsTarget(f, b), ok: true}
	switch f.typ(p) {
	case "class_declaration", "abstract_class_declaration", "interface_declaration":
		v.class = &pyClass{f: f, node: p}
	case "required_parameter", "optional_parameter":
		if ty := f.field(p, "type"); ty != nil {
			v.class, v.instance = r.tsTypeClass(f, ty), true
			break
		}
		v.module, v.class, v.instance = r.tsDefaulted(f, p, f.field(p, "value"))
	case "assignment_pattern": // a JavaScript parameter with a default
		if f.typ(p.Parent()) == "formal_parameters" && sameNode(f.field(p, "left"), b) {
			v.module, v.class, v.instance = r.tsDefaulted(f, p, f.field(p, "right"))
		}
	case "arrow_function": // x => …
		v.class, v.instance = r.tsContextualParam(f, b), true
	case "object_pattern": // const { x } = value
		if d := p.Parent(); f.typ(d) == "variable_declarator" && sameNode(f.field(d, "name"), p) {
			mv := r.tsMember(r.tsEval(f, f.field(d, "value")), f.text(b))
			v.module, v.class, v.instance = mv.module, mv.class, mv.instance
		}
	case "type_alias_declaration":
		v.class = r.tsTypeClass(f, f.field(p, "value"))
	case "variable_declarator":
		if ty := f.field(p, "type"); ty != nil {
			v.class, v.instance = r.tsTypeClass(f, ty), true
			break
		}
		rv := r.tsEval(f, f.field(p, "value"))
		v.module, v.class, v.instance = rv.module, rv.class, rv.instance
	}
	if v.class == nil {
		v.instance = false
	}
	return v
}

// tsDefaulted is the value of the untyped parameter param, whose default
// value is def (nil without one): an instance of the type a callee gives
// it as a callback, else its default's value (tsDescriber.defaulted).
func (r *pyResolver) tsDefaulted(f *pyFile, param, def *ts.Node) (module string, class *pyClass, instance bool) {
	if c := r.tsContextualParam(f, param); c != nil {
		return "", c, true
	}
	dv := r.tsEval(f, def)
	return dv.module, dv.class, dv.instance
}

// tsImportSource is the module file of the import statement around n.
func (r *pyResolver) tsImportSource(f *pyFile, n *ts.Node) string {
	for p := n; p != nil; p = p.Parent() {
		switch f.typ(p) {
		case "import_statement", "export_statement":
			return r.tsModuleFile(f.rel, tsStringValue(f, f.field(p, "source")))
		}
	}
	return ""
}

// tsSpecifier is what an import or export specifier's name (or alias)
// stands for: the export of the module it reads, or for `export {x}`
// without a source, the local x.
func (r *pyResolver) tsSpecifier(f *pyFile, spec, id *ts.Node) pyValue {
	name := f.field(spec, "name")
	if name == nil {
		return pyValue{}
	}
	if mod := r.tsImportSource(f, spec); mod != "" {
		return r.tsExport(mod, f.text(name))
	}
	if f.typ(spec) == "export_specifier" {
		return r.tsLookup(f, name, f.text(name))
	}
	return pyValue{}
}

// tsExport is the declaration module file mod exports as name.
func (r *pyResolver) tsExport(mod, name string) pyValue {
	if r.tsIdxKnown(mod) {
		return r.tsIdxExport(mod, name, 0)
	}
	f := r.tsFile(mod, nil)
	if f == nil || !r.step() {
		return pyValue{}
	}
	root := f.tree.Root()
	var stars []string
	for i, c := 0, root.NamedChildCount(); i < c; i++ {
		st := root.NamedChild(i)
		if f.typ(st) != "export_statement" {
			continue
		}
		src := tsStringValue(f, f.field(st, "source"))
		if d := f.field(st, "declaration"); d != nil {
			// The first overload: tsserver answers with the overload a
			// call matches, most often the first.
			if v, ok := r.tsExportedDecl(f, st, d, name); ok {
				return v
			}
			continue
		}
		if name == "default" && src == "" {
			if val := f.field(st, "value"); val != nil {
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
			local, alias := f.field(spec, "name"), f.field(spec, "alias")
			exported := local
			if alias != nil {
				exported = alias
			}
			if local == nil || f.text(exported) != name {
				continue
			}
			if src != "" {
				if m := r.tsModuleFile(f.rel, src); m != "" {
					return r.tsExport(m, f.text(local))
				}
				return pyValue{}
			}
			return r.tsLookup(f, local, f.text(local))
		}
	}
	for _, src := range stars {
		if m := r.tsModuleFile(f.rel, src); m != "" {
			if v := r.tsExport(m, name); v.ok {
				return v
			}
		}
	}
	return pyValue{}
}

// tsExportedDecl matches an exported declaration against name.
func (r *pyResolver) tsExportedDecl(f *pyFile, st, d *ts.Node, name string) (pyValue, bool) {
	isDefault := tsChildOfType(f, st, "default") != nil
	if nm := f.field(d, "name"); nm != nil {
		if (isDefault && name == "default") || (!isDefault && f.text(nm) == name) {
			return r.tsBindingValue(f, nm), true
		}
		return pyValue{}, false
	}
	// export const a = 1, b = 2
	var found *ts.Node
	pyWalk(d, func(n *ts.Node) bool {
		if found == nil && tsBindingName(f, n) && f.text(n) == name {
			found = n
		}
		return found == nil && f.typ(n) != "arrow_function" && f.typ(n) != "function_expression"
	})
	if found != nil {
		return r.tsBindingValue(f, found), true
	}
	return pyValue{}, false
}

func tsChildOfType(f *pyFile, n *ts.Node, typ string) *ts.Node {
	for i, c := 0, n.ChildCount(); i < c; i++ {
		if ch := n.Child(i); f.typ(ch) == typ {
			return ch
		}
	}
	return nil
}

// tsTypeClass is the class or interface a type annotation names, or nil.
func (r *pyResolver) tsTypeClass(f *pyFile, ty *ts.Node) *pyClass {
	for ty = tsUnwrapType(f, ty); ty != nil; {
		switch f.typ(ty) {
		case "generic_type":
			ty = ty.NamedChild(0)
			continue
		case "object_type":
			return &pyClass{f: f, node: ty}
		case "type_identifier", "identifier":
			v := r.tsLookup(f, ty, f.text(ty))
			if v.instance {
				return nil
			}
			return v.class
		case "nested_type_identifier":
			v := r.tsMember(r.tsEval(f, ty.NamedChild(0)), f.text(ty.NamedChild(ty.NamedChildCount()-1)))
			if v.instance {
				return nil
			}
			return v.class
		}
		return nil
	}
	return nil
}

// tsEval is the value of the expression n of f.
func (r *pyResolver) tsEval(f *pyFile, n *ts.Node) pyValue {
	if n == nil || !r.step() {
		return pyValue{}
	}
	switch f.typ(n) {
	case "identifier", "type_identifier":
		return r.tsLookup(f, n, f.text(n))
	case "this":
		if c := tsEnclosingClass(f, n); c != nil {
			return pyValue{class: &pyClass{f: f, node: c}, instance: true}
		}
	case "super":
		if c := tsEnclosingClass(f, n); c != nil {
			if sc := r.tsSuperClass(f, c); sc != nil {
				return pyValue{class: sc, instance: true}
			}
		}
	case "member_expression":
		return r.tsMember(r.tsEval(f, f.field(n, "object")), f.text(f.field(n, "property")))
	case "new_expression":
		if cv := r.tsEval(f, f.field(n, "constructor")); cv.class != nil && !cv.instance {
			return pyValue{class: cv.class, instance: true}
		}
	case "parenthesized_expression", "non_null_expression", "await_expression":
		return r.tsEval(f, n.NamedChild(0))
	case "call_expression":
		return r.tsCallResult(f, n)
	case "binary_expression":
		// a || b, a ?? b: a's value when the syntax tells it, else b's.
		if op := f.text(f.field(n, "operator")); op == "||" || op == "??" {
			if v := r.tsEval(f, f.field(n, "left")); v.class != nil || v.module != "" {
				return v
			}
			return r.tsEval(f, f.field(n, "right"))
		}
	case "as_expression", "satisfies_expression":
		if c := r.tsTypeClass(f, n.NamedChild(1)); c != nil {
			return pyValue{class: c, instance: true}
		}
		return r.tsEval(f, n.NamedChild(0))
	}
	return pyValue{}
}

// tsMember is property name of v.
func (r *pyResolver) tsMember(v pyValue, name string) pyValue {
	switch {
	case v.module != "":
		return r.tsExport(v.module, name)
	case v.class != nil:
		return r.tsClassMember(v.class, name)
	}
	return pyValue{}
}

// tsClassMember is name declared in class or interface c: its body, its
// constructor's parameter properties, then what it extends and
// implements, in order.
func (r *pyResolver) tsClassMember(c *pyClass, name string) pyValue {
	if c.f == nil {
		return r.tsIdxClassMember(c, name, 0)
	}
	if !r.step() {
		return pyValue{}
	}
	f := c.f
	body := f.field(c.node, "body")
	if f.typ(c.node) == "object_type" {
		body = c.node
	}
	if body != nil {
		for i, n := 0, body.NamedChildCount(); i < n; i++ {
			m := body.NamedChild(i)
			if nm := f.field(m, "name"); nm != nil && f.text(nm) == name {
				v := pyValue{decl: r.tsTarget(f, nm), ok: true}
				if ty := f.field(m, "type"); ty != nil && f.typ(m) != "method_signature" {
					v.class, v.instance = r.tsTypeClass(f, ty), true
				}
				return v
			}
			if f.typ(m) == "method_definition" && f.text(f.field(m, "name")) == "constructor" {
				if v, ok := r.tsParamMember(f, m, name); ok {
					return v
				}
			}
		}
	}
	for _, sc := range r.tsSupers(c) {
		if v := r.tsClassMember(sc, name); v.ok {
			return v
		}
	}
	return pyValue{}
}

// tsSupers are the classes and interfaces class or interface c extends
// and implements, in order.
func (r *pyResolver) tsSupers(c *pyClass) []*pyClass {
	f := c.f
	var supers []*ts.Node
	pyWalk(c.node, func(n *ts.Node) bool {
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
	var out []*pyClass
	for _, s := range supers {
		var sc *pyClass
		s = tsHeritageCallee(f, s)
		if f.typ(s) == "identifier" || f.typ(s) == "member_expression" {
			if v := r.tsEval(f, s); !v.instance {
				sc = v.class
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
func (r *pyResolver) tsParamMember(f *pyFile, ctor *ts.Node, name string) (pyValue, bool) {
	ps := f.field(ctor, "parameters")
	if ps == nil {
		return pyValue{}, false
	}
	for i, n := 0, ps.NamedChildCount(); i < n; i++ {
		p := ps.NamedChild(i)
		pat := f.field(p, "pattern")
		if pat != nil && f.text(pat) == name && tsParamProperty(f, p) {
			v := pyValue{decl: r.tsTarget(f, pat), ok: true}
			v.class, v.instance = r.tsTypeClass(f, f.field(p, "type")), true
			if v.class == nil {
				v.instance = false
			}
			return v, true
		}
	}
	return pyValue{}, false
}

// tsSuperClass is the class that class c extends, or nil.
func (r *pyResolver) tsSuperClass(f *pyFile, c *ts.Node) *pyClass {
	ext := tsExtends(f, c)
	if v := r.tsEval(f, ext); v.class != nil && !v.instance {
		return v.class
	}
	return nil
}

// tsHeritageCallee is the class an extends clause names: S of `S(T)`, the
// masked `S<T>` (tsMaskHeritage), or the clause's expression itself.
func tsHeritageCallee(f *pyFile, n *ts.Node) *ts.Node {
	if f.typ(n) == "call_expression" {
		return f.field(n, "function")
	}
	return n
}
