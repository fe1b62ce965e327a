package python

import (
	"sort"
	"strings"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// Python resolution descriptors, written at index time (schema 7) so that
// a references query, and a definition that leads into other modules,
// evaluates small strings against the index (idx.go) instead of
// parsing files. While the extractor holds a Python file's tree, each
// identifier occurrence gets a descriptor of what it binds to from that
// file's syntax alone, with the query-time resolver's scope rules
// (pyLookupBinding, pyBindingNameOf, pyEnclosingImport): one copy of the
// rules, so an occurrence's descriptor evaluates to what resolving it
// would.
//
// A descriptor is a head followed by steps (".name": an attribute,
// "()": a call, which makes an instance of a class):
//
//	@L:C        the binding identifier at 0-based line L, byte column C
//	            of this file (a local, a def, a class, an assignment)
//	mPATH       the module PATH, dots written as '/' (os/path, /x for .x)
//	nPATH:NAME  NAME in module PATH (from PATH import NAME)
//	*NAME       NAME from the file's star imports (or a builtin)
//	.           (alone) an attribute of a value the syntax does not know
//
// A bare name resolved at module scope is prefixed 'g' ("g*" when the
// module does not bind it): moduleMember finds a module's binding of a
// name from any of its 'g' occurrences. An attribute that is assigned
// (self.x = ...) is prefixed '='. The value of an occurrence's object in
// x.attr is inlined, so x = C(); x.attr is "@L:C().attr" with L:C C's
// name.
//
// Facts about the file, which no occurrence points at, share the table:
//
//	!sPATH          from PATH import * at module level, in order
//	!v@L:C=VALUE    the value of the module- or class-level binding at L:C
//	!b@L:C=V1 V2    the bases of the class named at L:C that syntax knows
//
// Descriptors are interned per file (extract.Result.Operands) and each
// occurrence stores its index (Ref.Operand), as Go's operand descriptors
// do.

// pyValueDepth bounds the nesting of the values a descriptor inlines
// (x = y = z = ... chains).
const pyValueDepth = 8

// Describe writes the descriptors of res's references and the
// file's facts. A failure (a panic on a broken tree) leaves the file
// without descriptors: its occurrences are then unknown, not wrong.
func Describe(tree *extract.Tree, src []byte, res *extract.Result) {
	refs := res.Refs
	defer func() {
		if recover() != nil {
			for i := range refs {
				refs[i].Operand = 0
			}
			res.Refs, res.Operands = refs, nil
		}
	}()
	d := newPyDescriber(&syntax.File{Src: src, Tree: tree})
	lines := syntax.LineOffsets(src)
	added := d.allStrings(res)
	for i := range res.Refs {
		r := &res.Refs[i]
		if r.Operand != 0 || int(r.Pos.Line) >= len(lines) {
			continue
		}
		id := d.IdentAt(lines[r.Pos.Line] + int(r.Pos.Col))
		if id == nil {
			continue
		}
		r.Operand = d.Intern(d.describe(id))
	}
	d.facts()
	if added {
		sort.SliceStable(res.Refs, func(i, j int) bool { return res.Refs[i].Pos.Less(res.Refs[j].Pos) })
	}
	res.Operands = d.Table
}

// pyDescriber describes the identifiers of one parsed file.
type pyDescriber struct {
	syntax.DescTable
	f   *syntax.File
	tab *pyBindingTable
}

func newPyDescriber(f *syntax.File) *pyDescriber {
	d := &pyDescriber{f: f}
	d.tab = newPyBindingTable(f, func(n *ts.Node) { d.Idents = append(d.Idents, n) })
	return d
}

// describe is the descriptor of the identifier id, "" when the syntax
// says nothing (a keyword argument's name).
func (d *pyDescriber) describe(id *ts.Node) string {
	f := d.f
	name := f.Text(id)
	p := id.Parent()
	if p != nil && f.Type(p) == "attribute" && syntax.SameNode(f.Field(p, "attribute"), id) {
		v := d.value(f.Field(p, "object"), 0)
		if v == "" {
			return "."
		}
		desc := v + "." + name
		if pyBindingNameOf(f, p) {
			desc = "=" + desc
		}
		return desc
	}
	if p != nil && f.Type(p) == "keyword_argument" && syntax.SameNode(f.Field(p, "name"), id) {
		return ""
	}
	if st := pyEnclosingImport(f, id); st != nil {
		v := d.importPart(st, id)
		if v != "" && pyBindingNameOf(f, id) && f.Type(pyScopeOf(f, id)) == "module" {
			v = "g" + v
		}
		return v
	}
	b, scope := pyLookupBinding(f, id, name, d.tab, nil)
	g := ""
	if scope != nil && f.Type(scope) == "module" {
		g = "g"
	}
	switch {
	case b == nil && g != "":
		return "g*"
	case b == nil:
		return ""
	}
	if st := pyEnclosingImport(f, b); st != nil {
		if v := d.importValue(st, b); v != "" {
			return g + v
		}
		return ""
	}
	return g + "@" + syntax.PosString(b)
}

// pyModulePath writes a dotted module name with '/' for '.', so that
// descriptors keep '.' for attribute steps.
func pyModulePath(dotted string) string { return strings.ReplaceAll(pySquash(dotted), ".", "/") }

// importValue describes the name b bound by the import statement st
// (importValue of the resolver).
func (d *pyDescriber) importValue(st, b *ts.Node) string {
	f := d.f
	p := b.Parent()
	if f.Type(st) == "import_statement" {
		dotted := f.Text(b)
		if f.Type(p) == "aliased_import" {
			dotted = f.Text(f.Field(p, "name"))
		}
		return "m" + pyModulePath(dotted)
	}
	name := f.Text(b)
	if f.Type(p) == "aliased_import" {
		name = f.Text(f.Field(p, "name"))
	}
	return d.fromMember(st, name)
}

// fromMember describes name read from the module of from-import st.
func (d *pyDescriber) fromMember(st *ts.Node, name string) string {
	m := d.f.Field(st, "module_name")
	if m == nil || name == "" {
		return ""
	}
	return "n" + pyModulePath(d.f.Text(m)) + ":" + name
}

// importPart describes an identifier inside an import statement
// (importPart of the resolver).
func (d *pyDescriber) importPart(st, id *ts.Node) string {
	f := d.f
	p := id.Parent()
	if f.Type(p) == "aliased_import" && syntax.SameNode(f.Field(p, "alias"), id) {
		return d.importValue(st, id)
	}
	mod := f.Field(st, "module_name")
	inModule := mod != nil && id.StartByte() >= mod.StartByte() && id.EndByte() <= mod.EndByte()
	if f.Type(st) == "import_from_statement" && !inModule {
		return d.fromMember(st, f.Text(id))
	}
	start := p.StartByte()
	if inModule && f.Type(mod) == "relative_import" {
		start = mod.StartByte()
	}
	return "m" + pyModulePath(string(f.Src[start:id.EndByte()]))
}

// value describes what the expression n evaluates to, "" when unknown
// (eval and bindingValue of the resolver).
func (d *pyDescriber) value(n *ts.Node, depth int) string {
	f := d.f
	if n == nil || depth > pyValueDepth {
		return ""
	}
	var v string
	switch f.Type(n) {
	case "identifier":
		name := f.Text(n)
		b, scope := pyLookupBinding(f, n, name, d.tab, nil)
		switch {
		case b != nil:
			v = d.bindingValue(b, depth)
		case scope != nil:
			v = "*" + name
		}
	case "attribute":
		if o := d.value(f.Field(n, "object"), depth+1); o != "" {
			v = o + "." + f.Text(f.Field(n, "attribute"))
		}
	case "call":
		if o := d.value(f.Field(n, "function"), depth+1); o != "" {
			v = o + "()"
		}
	case "parenthesized_expression", "type":
		v = d.value(n.NamedChild(0), depth+1)
	}
	if len(v) > syntax.DescMax {
		return ""
	}
	return v
}

// bindingValue describes the value of the binding identifier b.
func (d *pyDescriber) bindingValue(b *ts.Node, depth int) string {
	f := d.f
	if st := pyEnclosingImport(f, b); st != nil {
		return d.importValue(st, b)
	}
	p := b.Parent()
	if p == nil {
		return ""
	}
	switch f.Type(p) {
	case "class_definition":
		return "@" + syntax.PosString(b)
	case "typed_parameter", "typed_default_parameter":
		return d.instance(d.value(f.Field(p, "type"), depth+1))
	case "parameters":
		if fn := p.Parent(); fn != nil && f.Type(fn) == "function_definition" && syntax.SameNode(pyFirstParam(f, fn), b) {
			if c := pyMethodClass(f, fn); c != nil {
				if nm := f.Field(c, "name"); nm != nil {
					return "@" + syntax.PosString(nm) + "()"
				}
			}
		}
	case "assignment":
		if !syntax.SameNode(f.Field(p, "left"), b) {
			return ""
		}
		if ty := f.Field(p, "type"); ty != nil {
			return d.instance(d.value(ty, depth+1))
		}
		return d.value(f.Field(p, "right"), depth+1)
	}
	return ""
}

// instance is an instance of the class v describes.
func (d *pyDescriber) instance(v string) string {
	if v == "" {
		return ""
	}
	return v + "()"
}

// facts appends the file's facts to the table: star imports, values of
// module- and class-level bindings, and the bases of classes.
func (d *pyDescriber) facts() {
	f := d.f
	root := f.Tree.Root()
	for i, c := 0, root.NamedChildCount(); i < c; i++ {
		st := root.NamedChild(i)
		if f.Type(st) == "import_from_statement" && pyHasWildcard(f, st) {
			if m := f.Field(st, "module_name"); m != nil {
				d.Intern("!s" + pyModulePath(f.Text(m)))
			}
		}
	}
	for _, b := range d.tab.scoped {
		if p := b.Parent(); p != nil && f.Type(p) == "assignment" {
			if v := d.bindingValue(b, 0); v != "" {
				d.Intern("!v@" + syntax.PosString(b) + "=" + v)
			}
		}
	}
	syntax.Walk(root, func(n *ts.Node) bool {
		if f.Type(n) != "class_definition" {
			return true
		}
		bases, name := f.Field(n, "superclasses"), f.Field(n, "name")
		if bases == nil || name == nil {
			return true
		}
		var vs []string
		for i, c := 0, bases.NamedChildCount(); i < c; i++ {
			if b := bases.NamedChild(i); f.Type(b) != "keyword_argument" {
				if v := d.value(b, 0); v != "" {
					vs = append(vs, v)
				}
			}
		}
		if len(vs) > 0 {
			d.Intern("!b@" + syntax.PosString(name) + "=" + strings.Join(vs, " "))
		}
		return true
	})
}

// allStrings adds to res, as references, the strings of the module-level
// __all__ that name a module-level binding: `from m import *` binds what
// __all__ lists, so pyright, and a rename, count them. Their descriptor
// is the module-level name's. It reports whether it added any.
func (d *pyDescriber) allStrings(res *extract.Result) bool {
	f := d.f
	root := f.Tree.Root()
	added := false
	for i, n := 0, root.NamedChildCount(); i < n; i++ {
		a := root.NamedChild(i)
		if f.Type(a) == "expression_statement" && a.NamedChildCount() > 0 {
			a = a.NamedChild(0)
		}
		if t := f.Type(a); (t != "assignment" && t != "augmented_assignment") || f.Text(f.Field(a, "left")) != "__all__" {
			continue
		}
		list := f.Field(a, "right")
		if t := f.Type(list); t != "list" && t != "tuple" {
			continue
		}
		for j, m := 0, list.NamedChildCount(); j < m; j++ {
			s := f.Text(list.NamedChild(j))
			if len(s) < 3 || !isPyIdent(s[1:len(s)-1]) {
				continue
			}
			name := s[1 : len(s)-1]
			p, ok := pyStringNaming(f, list.NamedChild(j), name)
			if !ok {
				continue
			}
			desc := "g*"
			if b := d.tab.binding(root, name); b != nil {
				if st := pyEnclosingImport(f, b); st != nil {
					desc = "g" + d.importValue(st, b)
				} else {
					desc = "g@" + syntax.PosString(b)
				}
			}
			res.Refs = append(res.Refs, extract.Ref{Name: name, Pos: p, Operand: d.Intern(desc)})
			added = true
		}
	}
	return added
}

// pyStringNaming reports whether n is a plain string literal 'name' or
// "name", and where name starts in it.
func pyStringNaming(f *syntax.File, n *ts.Node, name string) (extract.Pos, bool) {
	s := f.Text(n)
	if f.Type(n) != "string" || len(s) != len(name)+2 || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] || s[1:len(s)-1] != name {
		return extract.Pos{}, false
	}
	p := n.StartPoint()
	return extract.Pos{Line: p.Row, Col: p.Column + 1}, true
}

func isPyIdent(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c < 0x80 {
			return false
		}
	}
	return true
}

// pyBindingTable is pyBindings built in one walk of a file: the first
// binding of each name in each scope, and its global and nonlocal
// declarations.
type pyBindingTable struct {
	f    *syntax.File
	bind map[pyScopeKey]map[string]*ts.Node
	decl map[pyScopeKey]map[string]string
	// scoped are the first bindings of module and class scopes, in
	// source order.
	scoped []*ts.Node
}

type pyScopeKey struct {
	start, end uint32
	typ        string
}

func pyKey(f *syntax.File, n *ts.Node) pyScopeKey {
	return pyScopeKey{n.StartByte(), n.EndByte(), f.Type(n)}
}

// newPyBindingTable walks f once, calling ident on each identifier in
// source order.
func newPyBindingTable(f *syntax.File, ident func(*ts.Node)) *pyBindingTable {
	t := &pyBindingTable{f: f, bind: map[pyScopeKey]map[string]*ts.Node{}, decl: map[pyScopeKey]map[string]string{}}
	syntax.Walk(f.Tree.Root(), func(n *ts.Node) bool {
		switch typ := f.Type(n); typ {
		case "identifier":
			ident(n)
			if !pyBindingNameOf(f, n) {
				return true
			}
			scope := pyScopeOf(f, n)
			k := pyKey(f, scope)
			m := t.bind[k]
			if m == nil {
				m = map[string]*ts.Node{}
				t.bind[k] = m
			}
			name := f.Text(n)
			if m[name] == nil {
				m[name] = n
				if st := f.Type(scope); st == "module" || st == "class_definition" {
					t.scoped = append(t.scoped, n)
				}
			}
		case "global_statement", "nonlocal_statement":
			k := pyKey(f, pyScopeOf(f, n))
			m := t.decl[k]
			if m == nil {
				m = map[string]string{}
				t.decl[k] = m
			}
			for i, c := 0, n.NamedChildCount(); i < c; i++ {
				if name := f.Text(n.NamedChild(i)); m[name] == "" {
					m[name] = typ[:len(typ)-len("_statement")]
				}
			}
		}
		return true
	})
	return t
}

func (t *pyBindingTable) binding(scope *ts.Node, name string) *ts.Node {
	return t.bind[pyKey(t.f, scope)][name]
}

func (t *pyBindingTable) declares(scope *ts.Node, name string) string {
	return t.decl[pyKey(t.f, scope)][name]
}
