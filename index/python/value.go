package index

import (
	"path"
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// Python values: what a name or an expression stands for (module, class,
// instance), and the members of modules and classes.

// lookup resolves name used at node n of f through the enclosing scopes.
func (r *pyResolver) lookup(f *pyFile, n *ts.Node, name string) pyValue {
	b, scope := pyLookupBinding(f, n, name, pyWalkBindings{f}, r.step)
	switch {
	case b != nil:
		return r.bindingValue(f, b)
	case scope != nil:
		return r.starImport(f, name)
	}
	return pyValue{}
}

// starImport looks name up in the modules f imports with `from m import *`.
func (r *pyResolver) starImport(f *pyFile, name string) pyValue {
	root := f.tree.Root()
	for i, c := 0, root.NamedChildCount(); i < c; i++ {
		st := root.NamedChild(i)
		if f.typ(st) != "import_from_statement" || !pyHasWildcard(f, st) {
			continue
		}
		if mod := r.fromModule(f, st); mod != "" {
			if v := r.moduleMember(mod, name); v.ok {
				return v
			}
		}
	}
	return pyValue{}
}

func pyHasWildcard(f *pyFile, st *ts.Node) bool {
	for i, c := 0, st.NamedChildCount(); i < c; i++ {
		if f.typ(st.NamedChild(i)) == "wildcard_import" {
			return true
		}
	}
	return false
}

// bindingValue is the value of the binding identifier b of f.
func (r *pyResolver) bindingValue(f *pyFile, b *ts.Node) pyValue {
	if st := pyEnclosingImport(f, b); st != nil {
		return r.importValue(f, st, b)
	}
	v := pyValue{decl: r.target(f, b), ok: true}
	p := b.Parent()
	switch f.typ(p) {
	case "class_definition":
		v.class = &pyClass{f: f, node: p}
	case "typed_parameter", "typed_default_parameter":
		v.class, v.instance = r.evalClass(f, f.field(p, "type")), true
	case "parameters":
		if fn := p.Parent(); fn != nil && f.typ(fn) == "function_definition" && sameNode(pyFirstParam(f, fn), b) {
			if c := pyMethodClass(f, fn); c != nil {
				v.class, v.instance = &pyClass{f: f, node: c}, true
			}
		}
	case "assignment":
		if !sameNode(f.field(p, "left"), b) {
			break
		}
		if ty := f.field(p, "type"); ty != nil {
			v.class, v.instance = r.evalClass(f, ty), true
			break
		}
		// x = C() makes an instance; x = C or x = mod an alias.
		rv := r.eval(f, f.field(p, "right"))
		v.module, v.class, v.instance = rv.module, rv.class, rv.instance
	}
	if v.class == nil {
		v.instance = false
	}
	return v
}

// evalClass is the class an annotation names, or nil.
func (r *pyResolver) evalClass(f *pyFile, ty *ts.Node) *pyClass {
	if ty != nil && f.typ(ty) == "type" {
		ty = ty.NamedChild(0)
	}
	v := r.eval(f, ty)
	if v.instance {
		return nil
	}
	return v.class
}

// importValue is what the name b bound by the import statement st means.
func (r *pyResolver) importValue(f *pyFile, st, b *ts.Node) pyValue {
	p := b.Parent()
	if f.typ(st) == "import_statement" {
		dotted := f.text(b) // import a.b binds a, the top package
		if f.typ(p) == "aliased_import" {
			dotted = f.text(f.field(p, "name"))
		}
		return r.moduleValue(f.rel, pySquash(dotted))
	}
	name := f.text(b)
	if f.typ(p) == "aliased_import" {
		name = f.text(f.field(p, "name"))
	}
	if mod := r.fromModule(f, st); mod != "" {
		return r.moduleMember(mod, name)
	}
	return pyValue{}
}

// importPart is what an identifier inside the import statement st means:
// in a module path, the module it ends (`a.b` of `import a.b.c`); an
// imported name or its alias, what the import binds.
func (r *pyResolver) importPart(f *pyFile, st, id *ts.Node) pyValue {
	p := id.Parent()
	if f.typ(p) == "aliased_import" && sameNode(f.field(p, "alias"), id) {
		return r.importValue(f, st, id)
	}
	mod := f.field(st, "module_name")
	inModule := mod != nil && id.StartByte() >= mod.StartByte() && id.EndByte() <= mod.EndByte()
	if f.typ(st) == "import_from_statement" && !inModule {
		if mod := r.fromModule(f, st); mod != "" {
			return r.moduleMember(mod, f.text(id))
		}
		return pyValue{}
	}
	// A module path: the prefix up to id, absolute or from-relative.
	prefix := pySquash(string(f.src[p.StartByte():id.EndByte()]))
	var file string
	if inModule && f.typ(mod) == "relative_import" {
		prefix = pySquash(string(f.src[mod.StartByte():id.EndByte()]))
		file = r.importModule(f.rel, prefix)
	} else {
		file = r.resolveModule(f.rel, prefix)
	}
	if file == "" {
		return pyValue{}
	}
	return pyValue{decl: moduleTarget(file), ok: true, module: file}
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
func (r *pyResolver) fromModule(f *pyFile, st *ts.Node) string {
	m := f.field(st, "module_name")
	if m == nil {
		return ""
	}
	if f.typ(m) != "relative_import" {
		return r.moduleValue(f.rel, pySquash(f.text(m))).module
	}
	text := pySquash(f.text(m))
	dots := len(text) - len(strings.TrimLeft(text, "."))
	dir := path.Dir(f.rel)
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
func (r *pyResolver) moduleValue(from, dotted string) pyValue {
	if m := r.resolveModule(from, dotted); m != "" {
		return pyValue{decl: moduleTarget(m), ok: true, module: m}
	}
	parts := strings.Split(dotted, ".")
	for i := len(parts) - 1; i >= 1; i-- {
		m := r.resolveModule(from, strings.Join(parts[:i], "."))
		if m == "" {
			continue
		}
		v := pyValue{decl: moduleTarget(m), ok: true, module: m}
		for _, p := range parts[i:] {
			v = r.member(v, p)
		}
		if v.module == "" {
			return pyValue{}
		}
		return v
	}
	return pyValue{}
}

// resolveModule finds the file of an absolute dotted module name: under
// the root, then under each directory from the using file's up.
func (r *pyResolver) resolveModule(from, dotted string) string {
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
func (r *pyResolver) moduleFile(p string) string {
	if strings.HasSuffix(p, "/__init__") || p == "__init__" {
		for _, ext := range []string{".py", ".pyi"} {
			if _, ok := r.st.Header(p + ext); ok {
				return p + ext
			}
		}
		return ""
	}
	for _, c := range []string{p + ".py", p + "/__init__.py", p + ".pyi", p + "/__init__.pyi"} {
		if _, ok := r.st.Header(c); ok {
			return c
		}
	}
	return ""
}

// eval is the value of the expression n of f.
func (r *pyResolver) eval(f *pyFile, n *ts.Node) pyValue {
	if n == nil || !r.step() {
		return pyValue{}
	}
	switch f.typ(n) {
	case "identifier":
		return r.lookup(f, n, f.text(n))
	case "attribute":
		return r.member(r.eval(f, f.field(n, "object")), f.text(f.field(n, "attribute")))
	case "call":
		fv := r.eval(f, f.field(n, "function"))
		if fv.class != nil && !fv.instance {
			return pyValue{class: fv.class, instance: true}
		}
	case "parenthesized_expression", "type":
		return r.eval(f, n.NamedChild(0))
	}
	return pyValue{}
}

// member is attribute name of the value v.
func (r *pyResolver) member(v pyValue, name string) pyValue {
	switch {
	case v.module != "":
		return r.moduleMember(v.module, name)
	case v.class != nil:
		return r.classMember(v.class, name)
	}
	return pyValue{}
}

// moduleMember is name in the module file mod: a module-level binding,
// a name its star imports bring, or a submodule of a package.
func (r *pyResolver) moduleMember(mod, name string) pyValue {
	// Every link counts, cached files included: imports can be cyclic.
	if !r.step() {
		return pyValue{}
	}
	if v, ok := r.idxModuleMember(mod, name); ok {
		return v
	}
	if r.indexOnly {
		return pyValue{}
	}
	if f := r.file(mod, nil); f != nil {
		root := f.tree.Root()
		if b := bindingIn(f, root, name); b != nil {
			return r.bindingValue(f, b)
		}
		if v := r.starImport(f, name); v.ok {
			return v
		}
	}
	if base := path.Base(mod); base == "__init__.py" || base == "__init__.pyi" {
		if sub := r.moduleFile(path.Join(path.Dir(mod), name)); sub != "" {
			return pyValue{decl: moduleTarget(sub), ok: true, module: sub}
		}
	}
	return pyValue{}
}

// classMember is name in class c: its body, then attributes its methods
// assign on self, then its bases in order.
func (r *pyResolver) classMember(c *pyClass, name string) pyValue {
	if c.f == nil {
		return r.idxClassMember(c, name)
	}
	if !r.step() {
		return pyValue{}
	}
	f := c.f
	if b := bindingIn(f, c.node, name); b != nil {
		return r.bindingValue(f, b)
	}
	if a := pySelfAssignment(f, c.node, name); a != nil {
		return pyValue{decl: r.target(f, a), ok: true}
	}
	if bases := f.field(c.node, "superclasses"); bases != nil {
		for i, n := 0, bases.NamedChildCount(); i < n; i++ {
			b := bases.NamedChild(i)
			if f.typ(b) == "keyword_argument" {
				continue
			}
			if bv := r.eval(f, b); bv.class != nil && !bv.instance {
				if v := r.classMember(bv.class, name); v.ok {
					return v
				}
			}
		}
	}
	return pyValue{}
}

// pySelfAssignment is the first `self.name = ...` (the attribute's name
// node) in a method of class cls, or nil.
func pySelfAssignment(f *pyFile, cls *ts.Node, name string) *ts.Node {
	var found *ts.Node
	pyWalk(f.field(cls, "body"), func(n *ts.Node) bool {
		if found != nil || f.typ(n) == "class_definition" {
			return false
		}
		if f.typ(n) != "attribute" {
			return true
		}
		a := f.field(n, "attribute")
		if a == nil || f.text(a) != name || !pyBindingNameOf(f, n) {
			return true
		}
		if c := pyEnclosingClass(f, n); c != nil && sameNode(c, cls) {
			found = a
		}
		return true
	})
	return found
}
