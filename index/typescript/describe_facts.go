package typescript

import (
	"bytes"
	"strconv"
	"strings"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// The facts of a TypeScript file's descriptor table (describe.go):
// what its bindings hold, what its functions return and pass their
// callbacks, its classes' heritage, its exports.

// facts appends the file's facts to the table; syms are the file's
// symbols.
func (d *tsDescriber) facts(syms []extract.Symbol) {
	f := d.f
	named := map[extract.Pos]bool{}
	for _, s := range syms {
		named[s.Selection.Start] = true
	}
	for _, b := range d.decls {
		if v := d.bindingValue(b); v != "" {
			d.Intern("!v@" + posKey(b) + "=" + v)
		}
		p := b.StartPoint()
		if !named[extract.Pos{Line: p.Row, Col: p.Column}] && f.Type(tsScopeOf(f, b)) == "program" && d.bindingRef(b) == at(b) {
			d.Intern("!g@" + posKey(b))
		}
	}
	for _, c := range d.classes {
		d.classFacts(c)
	}
	syntax.Walk(f.Tree.Root(), func(n *ts.Node) bool {
		if tsSignatureTypes[f.Type(n)] {
			if nm := f.Field(n, "name"); nm != nil {
				d.signatureFacts(nm, n)
			}
		}
		return true
	})
	d.exports()
	d.objectFacts() // last: the facts above describe object types
}

// bindingValue describes the value of the binding identifier b
// (tsBindingValue of the resolver), "" when unknown or b is a class.
func (d *tsDescriber) bindingValue(b *ts.Node) string {
	f := d.f
	p := b.Parent()
	switch f.Type(p) {
	case "required_parameter", "optional_parameter":
		if ty := f.Field(p, "type"); ty != nil {
			d.returnsIfFunction(b, ty)
			return d.instanceOf(ty)
		}
		return d.defaulted(p, f.Field(p, "value"))
	case "assignment_pattern": // a JavaScript parameter with a default
		if f.Type(p.Parent()) == "formal_parameters" && syntax.SameNode(f.Field(p, "left"), b) {
			return d.defaulted(p, f.Field(p, "right"))
		}
	case "arrow_function": // x => …
		return d.contextual(b)
	case "object_pattern": // const { x } = value
		if dl := p.Parent(); f.Type(dl) == "variable_declarator" && syntax.SameNode(f.Field(dl, "name"), p) {
			return tsSuffix(d.value(f.Field(dl, "value"), 0), "."+f.Text(b))
		}
	case "type_alias_declaration":
		return d.typeValue(f.Field(p, "value"), 0)
	case "variable_declarator":
		if ty := f.Field(p, "type"); ty != nil {
			d.returnsIfFunction(b, ty)
			return d.instanceOf(ty)
		}
		val := f.Field(p, "value")
		if tsFunctionNode(f, val) {
			d.returns(b, val)
			d.callbacks(b, val)
		}
		return d.value(val, 0)
	}
	return ""
}

// defaulted describes the untyped parameter param, whose default value
// is def (nil without one): the type a callee gives it as a callback, else
// its default's, as TypeScript infers it.
func (d *tsDescriber) defaulted(param, def *ts.Node) string {
	if v := d.contextual(param); v != "" {
		return v
	}
	return d.value(def, 0)
}

// returns writes the !r fact of the function-valued binding named nm,
// whose signature is sig (a function, an arrow function, a function type).
func (d *tsDescriber) returns(nm, sig *ts.Node) {
	if v := d.instanceOf(tsReturnType(d.f, sig)); v != "" {
		d.Intern("!r@" + posKey(nm) + "=" + v)
	}
}

// returnsIfFunction writes the !r fact of the binding named nm when its
// annotation ty is a function type.
func (d *tsDescriber) returnsIfFunction(nm, ty *ts.Node) {
	if ft := tsUnwrapType(d.f, ty); d.f.Type(ft) == "function_type" {
		d.returns(nm, ft)
	}
}

// callbacks writes the !c facts of the signature sig named at group (the
// first of its overloads): the declared types of the parameters of the
// function types its parameters have. An earlier overload's fact wins.
func (d *tsDescriber) callbacks(group, sig *ts.Node) {
	f := d.f
	for a, param := range tsParams(f, sig) {
		ty := tsUnwrapType(f, f.Field(param, "type"))
		if f.Type(ty) != "function_type" {
			continue
		}
		for i, cb := range tsParams(f, ty) {
			v := d.instanceOf(f.Field(cb, "type"))
			if v == "" {
				continue
			}
			key := "!c@" + posKey(group) + "/" + strconv.Itoa(a) + "/" + strconv.Itoa(i) + "="
			if !d.hasPrefix(key) {
				d.Intern(key + v)
			}
		}
	}
}

// hasPrefix reports whether the table holds a fact starting with key
// (few: callback facts per signature).
func (d *tsDescriber) hasPrefix(key string) bool {
	for _, s := range d.Table {
		if strings.HasPrefix(s, key) {
			return true
		}
	}
	return false
}

// signatureFacts writes what the function or method sig named nm returns
// and passes its callbacks, under the first of its overloads.
func (d *tsDescriber) signatureFacts(nm, sig *ts.Node) {
	group := nm
	if g := tsOverloads(d.f, nm); len(g) > 0 {
		group = g[0]
	}
	if syntax.SameNode(group, nm) {
		d.returns(nm, sig)
	}
	d.callbacks(group, sig)
}

// classFacts writes the heritage of class or interface c, the types of
// its fields and properties, and its constructor's parameter properties.
func (d *tsDescriber) classFacts(c *ts.Node) {
	f := d.f
	name := f.Field(c, "name")
	if name == nil {
		return
	}
	var supers []string
	syntax.Walk(c, func(n *ts.Node) bool {
		switch tsHeritageType(f, n) {
		case "class_body", "interface_body", "object_type", "formal_parameters", "statement_block":
			return false
		case "extends_clause", "implements_clause", "extends_type_clause":
			supers = d.heritage(n, supers)
			return false
		}
		return true
	})
	d.Intern("!b@" + posKey(name) + "=" + strings.Join(supers, " "))
	d.memberFacts(name, f.Field(c, "body"), false)
}

// heritage appends to supers the values of the classes and interfaces
// clause n names.
func (d *tsDescriber) heritage(n *ts.Node, supers []string) []string {
	f := d.f
	for i, k := 0, n.NamedChildCount(); i < k; i++ {
		s := tsHeritageCallee(f, n.NamedChild(i))
		v := d.value(s, 0)
		if t := f.Type(s); t != "identifier" && t != "member_expression" {
			v = d.typeValue(s, 0)
		}
		if v != "" && !strings.Contains(v, " ") {
			supers = append(supers, v)
		}
	}
	return supers
}

// objectFacts writes the members of the object types described as
// classes (their own position naming them), each once.
func (d *tsDescriber) objectFacts() {
	done := map[uint32]bool{}
	for i := 0; i < len(d.objects); i++ { // memberFacts may describe more
		o := d.objects[i]
		if done[o.StartByte()] {
			continue
		}
		done[o.StartByte()] = true
		d.Intern("!b@" + posKey(o) + "=")
		d.memberFacts(o, o, true)
	}
}

// memberFacts writes the types of the fields and properties of body, the
// members of the class named (or the object type at) name, its
// constructor's parameter properties, and, for an object type (whose
// members the symbols do not list under it), its members.
func (d *tsDescriber) memberFacts(name, body *ts.Node, object bool) {
	f := d.f
	for i, k := 0, body.NamedChildCount(); body != nil && i < k; i++ {
		m := body.NamedChild(i)
		nm := f.Field(m, "name")
		if nm == nil {
			continue
		}
		if object {
			d.Intern("!m@" + posKey(name) + "=" + f.Text(nm) + at(nm))
		}
		if ty := f.Field(m, "type"); ty != nil && f.Type(m) != "method_signature" {
			d.returnsIfFunction(nm, ty)
			if v := d.instanceOf(ty); v != "" {
				d.Intern("!v@" + posKey(nm) + "=" + v)
			}
		}
		if f.Type(m) == "method_definition" && f.Text(nm) == "constructor" {
			d.paramProperties(name, m)
		}
	}
	if !object && d.js {
		d.thisAssignments(name, body)
	}
}

// thisAssignments writes an !m fact for each name assigned as this.NAME =
// in the methods of the JavaScript class body (the first assignment of
// each, in source order): a JavaScript class declares its fields that
// way, and tsserver takes the first such assignment for the field's
// declaration. The index looks a member up among the class's symbols
// first, so a declared field keeps its declaration. Not for TypeScript,
// whose fields are declared (a subclass's this.x = would shadow the base
// class's declaration of x). Functions that rebind this are not entered
// (tsEachThisAssignment).
func (d *tsDescriber) thisAssignments(cname, body *ts.Node) {
	f := d.f
	seen := map[string]bool{}
	tsEachThisAssignment(f, body, func(p *ts.Node) {
		if !seen[f.Text(p)] {
			seen[f.Text(p)] = true
			d.Intern("!m@" + posKey(cname) + "=" + f.Text(p) + at(p))
		}
	})
}

// paramProperties writes the !m facts of constructor ctor of the class
// named cname.
func (d *tsDescriber) paramProperties(cname, ctor *ts.Node) {
	f := d.f
	ps := f.Field(ctor, "parameters")
	for i, n := 0, ps.NamedChildCount(); ps != nil && i < n; i++ {
		p := ps.NamedChild(i)
		if pat := f.Field(p, "pattern"); pat != nil && f.Type(pat) == "identifier" && tsParamProperty(f, p) {
			d.Intern("!m@" + posKey(cname) + "=" + f.Text(pat) + at(pat))
		}
	}
}

// contextual describes the type of an untyped callback parameter param
// from the parameter its function is passed for (tsContextualParam of
// the resolver): CALLEE~A/I.
func (d *tsDescriber) contextual(param *ts.Node) string {
	f := d.f
	fn := param.Parent()
	if f.Type(fn) == "formal_parameters" {
		fn = fn.Parent()
	}
	if !tsFunctionNode(f, fn) {
		return ""
	}
	idx := 0
	if f.Type(param) != "identifier" {
		idx = nodeIndex(tsParams(f, fn), param)
	}
	args := fn.Parent()
	if idx < 0 || f.Type(args) != "arguments" {
		return ""
	}
	a := nodeIndex(namedChildren(f, args), fn)
	call := args.Parent()
	var callee string
	switch f.Type(call) {
	case "call_expression":
		callee = d.value(f.Field(call, "function"), 0)
	case "new_expression":
		callee = tsSuffix(d.value(f.Field(call, "constructor"), 0), ".constructor")
	}
	if callee == "" || a < 0 {
		return ""
	}
	return callee + "~" + strconv.Itoa(a) + "/" + strconv.Itoa(idx)
}

// exports writes the !e and !s facts of the module's top-level export
// statements (tsExport of the resolver), the first statement exporting a
// name winning.
func (d *tsDescriber) exports() {
	f := d.f
	root := f.Tree.Root()
	for i, c := 0, root.NamedChildCount(); i < c; i++ {
		st := root.NamedChild(i)
		if f.Type(st) != "export_statement" {
			continue
		}
		mod := tsModuleHead(tsStringValue(f, f.Field(st, "source")))
		if decl := f.Field(st, "declaration"); decl != nil {
			d.exportedDecl(st, decl)
			continue
		}
		if mod == "" {
			if val := f.Field(st, "value"); val != nil {
				d.export("default", d.value(val, 0))
			}
		}
		clause := tsChildOfType(f, st, "export_clause")
		if clause == nil {
			if mod != "" && tsChildOfType(f, st, "namespace_export") == nil {
				d.Intern("!s" + mod[1:len(mod)-1])
			}
			continue
		}
		for j, n := 0, clause.NamedChildCount(); j < n; j++ {
			spec := clause.NamedChild(j)
			local, alias := f.Field(spec, "name"), f.Field(spec, "alias")
			if local == nil {
				continue
			}
			exported := local
			if alias != nil {
				exported = alias
			}
			d.export(f.Text(exported), d.specifier(spec))
		}
	}
}

// export writes !eNAME=v, unless an earlier statement exports name.
func (d *tsDescriber) export(name, v string) {
	if d.exported[name] {
		return
	}
	d.exported[name] = true
	if v != "" {
		d.Intern("!e" + name + "=" + v)
	}
}

// exportedDecl writes the exports of an exported declaration
// (tsExportedDecl of the resolver).
func (d *tsDescriber) exportedDecl(st, decl *ts.Node) {
	f := d.f
	isDefault := tsChildOfType(f, st, "default") != nil
	if nm := f.Field(decl, "name"); nm != nil {
		name := f.Text(nm)
		if isDefault {
			name = "default"
		}
		d.export(name, at(nm))
		return
	}
	syntax.Walk(decl, func(n *ts.Node) bool {
		if tsBindingName(f, n) {
			d.export(f.Text(n), at(n))
		}
		return f.Type(n) != "arrow_function" && f.Type(n) != "function_expression"
	})
}

// docLinks adds to res the JSDoc links of the file's comments ({@link
// name}, @linkcode, @linkplain) whose name the comment's scope binds, with
// its descriptor (tsDocLinks of the resolver judged them at query time).
// It reports whether it added any.
func (d *tsDescriber) docLinks(res *extract.Result) bool {
	f := d.f
	added := false
	for _, n := range d.comments {
		text := f.Src[n.StartByte():n.EndByte()]
		for j, name := range extract.DocLinks(text) {
			b := d.lookup(n, name)
			if b == nil {
				continue
			}
			desc := d.bindingRef(b)
			if desc == "" {
				continue
			}
			p := tsPosOf(f, int(n.StartByte())+j)
			res.Refs = append(res.Refs, extract.Ref{Name: name, Pos: p, Operand: d.Intern(desc)})
			added = true
		}
	}
	return added
}

// tsPosOf is the line and byte column of byte offset off of f.
func tsPosOf(f *syntax.File, off int) extract.Pos {
	line := bytes.Count(f.Src[:off], []byte("\n"))
	start := bytes.LastIndexByte(f.Src[:off], '\n') + 1
	return extract.Pos{Line: uint32(line), Col: uint32(off - start)}
}
