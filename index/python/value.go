package python

import (
	"path"
	"strings"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// Python values: what a name or an expression stands for (module, class,
// instance), and the members of modules and classes.

// lookup resolves name used at node n of f through the enclosing scopes.
func (r *resolver) lookup(f *syntax.File, n *ts.Node, name string) syntax.Value {
	b, scope := pyLookupBinding(f, n, name, pyWalkBindings{f}, r.Step)
	switch {
	case b != nil:
		return r.bindingValue(f, b)
	case scope != nil:
		return r.starImport(f, name)
	}
	return syntax.Value{}
}

// starImport looks name up in the modules f imports with `from m import *`.
func (r *resolver) starImport(f *syntax.File, name string) syntax.Value {
	root := f.Tree.Root()
	for i, c := 0, root.NamedChildCount(); i < c; i++ {
		st := root.NamedChild(i)
		if f.Type(st) != "import_from_statement" || !pyHasWildcard(f, st) {
			continue
		}
		if mod := r.fromModule(f, st); mod != "" {
			if v := r.moduleMember(mod, name); v.OK {
				return v
			}
		}
	}
	return syntax.Value{}
}

func pyHasWildcard(f *syntax.File, st *ts.Node) bool {
	for i, c := 0, st.NamedChildCount(); i < c; i++ {
		if f.Type(st.NamedChild(i)) == "wildcard_import" {
			return true
		}
	}
	return false
}

// bindingValue is the value of the binding identifier b of f.
func (r *resolver) bindingValue(f *syntax.File, b *ts.Node) syntax.Value {
	if st := pyEnclosingImport(f, b); st != nil {
		return r.importValue(f, st, b)
	}
	v := syntax.Value{Decl: r.target(f, b), OK: true}
	p := b.Parent()
	switch f.Type(p) {
	case "class_definition":
		v.Class = &syntax.Class{F: f, Node: p}
	case "typed_parameter", "typed_default_parameter":
		v.Class, v.Instance = r.evalClass(f, f.Field(p, "type")), true
	case "parameters":
		if fn := p.Parent(); fn != nil && f.Type(fn) == "function_definition" && syntax.SameNode(pyFirstParam(f, fn), b) {
			if c := pyMethodClass(f, fn); c != nil {
				v.Class, v.Instance = &syntax.Class{F: f, Node: c}, true
			}
		}
	case "assignment":
		if !syntax.SameNode(f.Field(p, "left"), b) {
			break
		}
		if ty := f.Field(p, "type"); ty != nil {
			v.Class, v.Instance = r.evalClass(f, ty), true
			break
		}
		// x = C() makes an instance; x = C or x = mod an alias.
		rv := r.eval(f, f.Field(p, "right"))
		v.Module, v.Class, v.Instance = rv.Module, rv.Class, rv.Instance
	}
	if v.Class == nil {
		v.Instance = false
	}
	return v
}

// evalClass is the class an annotation names, or nil.
func (r *resolver) evalClass(f *syntax.File, ty *ts.Node) *syntax.Class {
	if ty != nil && f.Type(ty) == "type" {
		ty = ty.NamedChild(0)
	}
	v := r.eval(f, ty)
	if v.Instance {
		return nil
	}
	return v.Class
}

// importValue is what the name b bound by the import statement st means.
func (r *resolver) importValue(f *syntax.File, st, b *ts.Node) syntax.Value {
	p := b.Parent()
	if f.Type(st) == "import_statement" {
		dotted := f.Text(b) // import a.b binds a, the top package
		if f.Type(p) == "aliased_import" {
			dotted = f.Text(f.Field(p, "name"))
		}
		return r.moduleValue(f.Rel, pySquash(dotted))
	}
	name := f.Text(b)
	if f.Type(p) == "aliased_import" {
		name = f.Text(f.Field(p, "name"))
	}
	if mod := r.fromModule(f, st); mod != "" {
		return r.moduleMember(mod, name)
	}
	return syntax.Value{}
}

// importPart is what an identifier inside the import statement st means:
// in a module path, the module it ends (`a.b` of `import a.b.c`); an
// imported name or its alias, what the import binds.
func (r *resolver) importPart(f *syntax.File, st, id *ts.Node) syntax.Value {
	p := id.Parent()
	if f.Type(p) == "aliased_import" && syntax.SameNode(f.Field(p, "alias"), id) {
		return r.importValue(f, st, id)
	}
	mod := f.Field(st, "module_name")
	inModule := mod != nil && id.StartByte() >= mod.StartByte() && id.EndByte() <= mod.EndByte()
	if f.Type(st) == "import_from_statement" && !inModule {
		if mod := r.fromModule(f, st); mod != "" {
			return r.moduleMember(mod, f.Text(id))
		}
		return syntax.Value{}
	}
	// A module path: the prefix up to id, absolute or from-relative.
	prefix := pySquash(string(f.Src[p.StartByte():id.EndByte()]))
	var file string
	if inModule && f.Type(mod) == "relative_import" {
		prefix = pySquash(string(f.Src[mod.StartByte():id.EndByte()]))
		file = r.importModule(f.Rel, prefix)
	} else {
		file = r.resolveModule(f.Rel, prefix)
	}
	if file == "" {
		return syntax.Value{}
	}
	return syntax.Value{Decl: syntax.ModuleTarget(file), OK: true, Module: file}
}

func pySquash(s string) string {
	return strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' {
			return -1
		}
		return c
	}, s)
}

// fromModule is the module file a from-import reads, or "".
func (r *resolver) fromModule(f *syntax.File, st *ts.Node) string {
	m := f.Field(st, "module_name")
	if m == nil {
		return ""
	}
	if f.Type(m) != "relative_import" {
		return r.moduleValue(f.Rel, pySquash(f.Text(m))).Module
	}
	text := pySquash(f.Text(m))
	dots := len(text) - len(strings.TrimLeft(text, "."))
	dir := path.Dir(f.Rel)
	for range dots - 1 {
		if dir == "." {
			return ""
		}
		dir = path.Dir(dir)
	}
	rest := strings.ReplaceAll(text[dots:], ".", "/")
	if rest == "" {
		return r.moduleFile(path.Join(dir, "__init__"))
	}
	return r.moduleFile(path.Join(dir, rest))
}

// moduleValue is the module an absolute dotted name imports: its file, or
// else a module bound as an attribute of the longest prefix that has a
// file (os.path is posixpath, bound in os.py by `import posixpath as
// path`).
func (r *resolver) moduleValue(from, dotted string) syntax.Value {
	if m := r.resolveModule(from, dotted); m != "" {
		return syntax.Value{Decl: syntax.ModuleTarget(m), OK: true, Module: m}
	}
	parts := strings.Split(dotted, ".")
	for i := len(parts) - 1; i >= 1; i-- {
		m := r.resolveModule(from, strings.Join(parts[:i], "."))
		if m == "" {
			continue
		}
		v := syntax.Value{Decl: syntax.ModuleTarget(m), OK: true, Module: m}
		for _, p := range parts[i:] {
			v = r.member(v, p)
		}
		if v.Module == "" {
			return syntax.Value{}
		}
		return v
	}
	return syntax.Value{}
}

// resolveModule finds the file of an absolute dotted module name: under
// the root, then under each directory from the using file's up.
func (r *resolver) resolveModule(from, dotted string) string {
	rel := strings.ReplaceAll(dotted, ".", "/")
	if m := r.moduleFile(rel); m != "" {
		return m
	}
	for dir := path.Dir(from); dir != "."; dir = path.Dir(dir) {
		if m := r.moduleFile(path.Join(dir, rel)); m != "" {
			return m
		}
	}
	return ""
}

// moduleFile is the indexed file of module path p (no extension): p.py,
// p/__init__.py, then the stubs.
func (r *resolver) moduleFile(p string) string {
	if strings.HasSuffix(p, "/__init__") || p == "__init__" {
		for _, ext := range []string{".py", ".pyi"} {
			if _, ok := r.St.Header(p + ext); ok {
				return p + ext
			}
		}
		return ""
	}
	for _, c := range []string{p + ".py", p + "/__init__.py", p + ".pyi", p + "/__init__.pyi"} {
		if _, ok := r.St.Header(c); ok {
			return c
		}
	}
	return ""
}

// eval is the value of the expression n of f.
func (r *resolver) eval(f *syntax.File, n *ts.Node) syntax.Value {
	if n == nil || !r.Step() {
		return syntax.Value{}
	}
	switch f.Type(n) {
	case "identifier":
		return r.lookup(f, n, f.Text(n))
	case "attribute":
		return r.member(r.eval(f, f.Field(n, "object")), f.Text(f.Field(n, "attribute")))
	case "call":
		fv := r.eval(f, f.Field(n, "function"))
		if fv.Class != nil && !fv.Instance {
			return syntax.Value{Class: fv.Class, Instance: true}
		}
	case "parenthesized_expression", "type":
		return r.eval(f, n.NamedChild(0))
	}
	return syntax.Value{}
}

// member is attribute name of the value v.
func (r *resolver) member(v syntax.Value, name string) syntax.Value {
	switch {
	case v.Module != "":
		return r.moduleMember(v.Module, name)
	case v.Class != nil:
		return r.classMember(v.Class, name)
	}
	return syntax.Value{}
}

// moduleMember is name in the module file mod: a module-level binding,
// a name its star imports bring, or a submodule of a package.
func (r *resolver) moduleMember(mod, name string) syntax.Value {
	// Every link counts, cached files included: imports can be cyclic.
	if !r.Step() {
		return syntax.Value{}
	}
	if v, ok := r.idxModuleMember(mod, name); ok {
		return v
	}
	if r.IndexOnly {
		return syntax.Value{}
	}
	if f := r.file(mod, nil); f != nil {
		root := f.Tree.Root()
		if b := bindingIn(f, root, name); b != nil {
			return r.bindingValue(f, b)
		}
		if v := r.starImport(f, name); v.OK {
			return v
		}
	}
	if base := path.Base(mod); base == "__init__.py" || base == "__init__.pyi" {
		if sub := r.moduleFile(path.Join(path.Dir(mod), name)); sub != "" {
			return syntax.Value{Decl: syntax.ModuleTarget(sub), OK: true, Module: sub}
		}
	}
	return syntax.Value{}
}

// classMember is name in class c: its body, then attributes its methods
// assign on self, then its bases in order.
func (r *resolver) classMember(c *syntax.Class, name string) syntax.Value {
	if c.F == nil {
		return r.idxClassMember(c, name)
	}
	if !r.Step() {
		return syntax.Value{}
	}
	f := c.F
	if b := bindingIn(f, c.Node, name); b != nil {
		return r.bindingValue(f, b)
	}
	if a := pySelfAssignment(f, c.Node, name); a != nil {
		return syntax.Value{Decl: r.target(f, a), OK: true}
	}
	if bases := f.Field(c.Node, "superclasses"); bases != nil {
		for i, n := 0, bases.NamedChildCount(); i < n; i++ {
			b := bases.NamedChild(i)
			if f.Type(b) == "keyword_argument" {
				continue
			}
			if bv := r.eval(f, b); bv.Class != nil && !bv.Instance {
				if v := r.classMember(bv.Class, name); v.OK {
					return v
				}
			}
		}
	}
	return syntax.Value{}
}

// pySelfAssignment is the first `self.name = ...` (the attribute's name
// node) in a method of class cls, or nil.
func pySelfAssignment(f *syntax.File, cls *ts.Node, name string) *ts.Node {
	var found *ts.Node
	syntax.Walk(f.Field(cls, "body"), func(n *ts.Node) bool {
		if found != nil || f.Type(n) == "class_definition" {
			return false
		}
		if f.Type(n) != "attribute" {
			return true
		}
		a := f.Field(n, "attribute")
		if a == nil || f.Text(a) != name || !pyBindingNameOf(f, n) {
			return true
		}
		if c := pyEnclosingClass(f, n); c != nil && syntax.SameNode(c, cls) {
			found = a
		}
		return true
	})
	return found
}
