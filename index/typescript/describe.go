package typescript

import (
	"sort"
	"strings"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// TypeScript and JavaScript resolution descriptors, written at index time
// (since schema 8; 9 added default-typed parameters and this.x in plain
// JavaScript functions) as Python's are (python/describe.go): while the extractor
// holds a file's tree, each identifier occurrence gets a descriptor of
// what it binds to from that file's syntax, with the query-time
// resolver's scope rule (tsLookupBinding over tsScopeOf and tsBinding:
// one copy), so that references evaluate small strings against the
// index (idx.go) instead of parsing files.
//
// A descriptor is a head followed by steps:
//
//	@L:C       the binding identifier at 0-based line L, byte column C of
//	           this file (a local, a parameter, a function, a class, a
//	           member's own declaration)
//	mSPEC|     the module the specifier SPEC names from this file
//	           (tsModuleFile, when it is evaluated); `import {a} from
//	           './m'` is "m./m|.a", a default import "m./m|.default"
//
// and the steps ".name" (a member), "()" (what a call returns: the
// callee's declared return type), "#" (an instance of a class: `new C()`,
// an annotation `x: C`) and "~A/I" (the type of the I-th parameter of a
// callback passed as the A-th argument of the callee, as its signature
// declares it). An occurrence that is a property access (x.name) starts
// with '.': ".V.name" when the syntax gives x's value V, "." alone when
// not; such an occurrence that does not resolve is listed uncertain. In
// JavaScript, this.x inside a plain function is ".@L:C", the function's
// first this.x = … (tsThisField).
//
// Facts about the file, which no occurrence points at, share the table:
//
//	!v@L:C=VALUE   the value of the binding at L:C (annotated or initialised
//	               variables, parameters and fields, destructured names,
//	               type aliases, callback parameters)
//	!r@L:C=VALUE   what calling the function, method or function-typed
//	               binding named at L:C returns
//	!c@L:C/A/I=V   the type of callback parameter I of parameter A of the
//	               signature named at L:C (the first of an overload group)
//	!b@L:C=S1 S2   the class or interface named at L:C, with the classes
//	               and interfaces it extends and implements
//	!m@L:C=N@P     constructor parameter property N at P of the class at L:C
//	!eNAME=VALUE   the module exports NAME (the first statement that does)
//	!sSPEC         export * from SPEC, in order
//	!g@L:C         the binding at L:C is module-level though no symbol
//	               names it (a destructured name): other files may use it
//
// JSDoc links ({@link name}) are added to the file's occurrences, with
// the descriptor of name where the comment stands: tsserver counts them
// as references, and the index does not record comments otherwise.
//
// At index time the scanner index/extract/tsscan writes these
// descriptors without a tree, restating these rules over its parser's
// records (its describe.go): a change here is to be made there too; its
// tests (TestScanMatchesTreeSitter, FuzzScan) compare the two.

// DescribeTypeScript is the describer (extract.Annotator) of TypeScript
// and TSX files.
func DescribeTypeScript(t *extract.Tree, src []byte, res *extract.Result) {
	annotateTS(t, src, res, false)
}

// DescribeJavaScript is the describer of JavaScript files.
func DescribeJavaScript(t *extract.Tree, src []byte, res *extract.Result) {
	annotateTS(t, src, res, true)
}

// tsValueDepth bounds the nesting of the expressions a descriptor
// describes.
const tsValueDepth = 12

// annotateTS writes the descriptors of res's references and the file's
// facts. A failure (a panic on a broken tree) leaves the file without
// descriptors: its occurrences are then unknown, not wrong.
func annotateTS(tree *extract.Tree, src []byte, res *extract.Result, js bool) {
	refs, ops := res.Refs, res.Operands
	defer func() {
		if recover() != nil {
			for i := range refs {
				refs[i].Operand = 0
			}
			res.Refs, res.Operands = refs, ops
		}
	}()
	if len(res.Operands) > 0 {
		return // another annotator's table: not ours to mix into
	}
	d := newTSDescriber(&syntax.File{Src: src, Tree: tree})
	d.js = js
	lines := syntax.LineOffsets(src)
	added := d.docLinks(res)
	for i := range res.Refs {
		r := &res.Refs[i]
		if r.Operand != 0 || int(r.Pos.Line) >= len(lines) {
			continue
		}
		if id := d.IdentAt(lines[r.Pos.Line] + int(r.Pos.Col)); id != nil {
			r.Operand = d.Intern(d.describe(id))
		}
	}
	d.facts(res.Symbols)
	if added {
		sort.SliceStable(res.Refs, func(i, j int) bool { return res.Refs[i].Pos.Less(res.Refs[j].Pos) })
	}
	res.Operands = d.Table
}

// tsDescriber describes the identifiers of one parsed file.
type tsDescriber struct {
	syntax.DescTable
	f        *syntax.File
	bind     map[tsNodeKey]map[string]*ts.Node // first binding of each name in each scope
	scopes   map[tsNodeKey]*ts.Node            // scopeOf's memo
	decls    []*ts.Node                        // declaration names, in source order
	classes  []*ts.Node                        // classes and interfaces
	objects  []*ts.Node                        // object types described as classes
	comments []*ts.Node
	exported map[string]bool // names of !e facts written
	js       bool            // JavaScript: fields are declared by this.x = assignments
	// fields memoises tsThisFields per function: a long constructor
	// function reads this.x many times.
	fields map[tsNodeKey]map[string]*ts.Node
}

func newTSDescriber(f *syntax.File) *tsDescriber {
	d := &tsDescriber{f: f, bind: map[tsNodeKey]map[string]*ts.Node{}, scopes: map[tsNodeKey]*ts.Node{}, exported: map[string]bool{}}
	syntax.Walk(f.Tree.Root(), func(n *ts.Node) bool {
		t := f.Type(n)
		if tsIdentTypes[t] {
			d.Idents = append(d.Idents, n)
		}
		switch t {
		case "comment":
			d.comments = append(d.comments, n)
		case "class_declaration", "abstract_class_declaration", "class", "interface_declaration":
			d.classes = append(d.classes, n)
		}
		if tsDeclTypes[t] {
			if nm := f.Field(n, "name"); nm != nil {
				d.addBinding(nm)
			}
		}
		if tsBindingName(f, n) {
			d.addBinding(n)
		}
		return true
	})
	return d
}

// addBinding records nm as a binding of its scope, unless the scope
// binds its name already (tsBindingIn finds the first in source order).
func (d *tsDescriber) addBinding(nm *ts.Node) {
	f := d.f
	k := nodeKey(tsScopeOf(f, nm))
	m := d.bind[k]
	if m == nil {
		m = map[string]*ts.Node{}
		d.bind[k] = m
	}
	if name := f.Text(nm); m[name] == nil {
		m[name] = nm
		d.decls = append(d.decls, nm)
	}
}

// tsNodeKey identifies a node of one tree: hashing it is cheaper than
// pyScopeKey's type name, and lookups hash one per scope climbed.
type tsNodeKey struct {
	start, end uint32
	sym        ts.Symbol
}

func nodeKey(n *ts.Node) tsNodeKey { return tsNodeKey{n.StartByte(), n.EndByte(), n.Symbol()} }

// lookup is tsLookupBinding over the table.
func (d *tsDescriber) lookup(n *ts.Node, name string) *ts.Node {
	return tsLookupBinding(d.f, n, d.scopeOf, func() bool { return true }, func(scope *ts.Node) *ts.Node {
		return d.bind[nodeKey(scope)][name]
	})
}

// scopeOf is tsScopeOf, memoised for scopes: every identifier's lookup
// climbs the same chains, and minified files nest deep (tsScopeOf was
// most of the annotation's time on GOROOT's webcomponents.min.js).
func (d *tsDescriber) scopeOf(n *ts.Node) *ts.Node {
	if !tsScopeTypes[d.f.Type(n)] {
		return tsScopeOf(d.f, n)
	}
	k := nodeKey(n)
	if s, ok := d.scopes[k]; ok {
		return s
	}
	s := tsScopeOf(d.f, n)
	d.scopes[k] = s
	return s
}

// at is the head naming the identifier n of this file.
func at(n *ts.Node) string { return "@" + syntax.PosString(n) }

// describe is the descriptor of the identifier id (tsResolveName of the
// resolver), "" when the syntax binds it to nothing.
func (d *tsDescriber) describe(id *ts.Node) string {
	f := d.f
	name := f.Text(id)
	p := id.Parent()
	if p == nil {
		return ""
	}
	switch f.Type(p) {
	case "member_expression":
		if syntax.SameNode(f.Field(p, "property"), id) {
			if field := d.thisField(p, name); field != nil {
				return "." + at(field)
			}
			return d.selector(d.value(f.Field(p, "object"), 0), name)
		}
	case "nested_type_identifier":
		if !syntax.SameNode(p.NamedChild(0), id) {
			return d.selector(d.value(p.NamedChild(0), 0), name)
		}
	case "import_specifier", "export_specifier":
		return d.specifier(p)
	case "method_definition", "public_field_definition", "method_signature", "property_signature",
		"abstract_method_signature":
		if syntax.SameNode(f.Field(p, "name"), id) {
			return at(id)
		}
	}
	if f.Type(id) == "property_identifier" {
		return ""
	}
	if b := d.lookup(id, name); b != nil {
		return d.bindingRef(b)
	}
	if tsBinding(f, id) {
		return at(id)
	}
	return ""
}

// thisField is tsThisField in JavaScript, with tsThisFields memoised per
// function; nil in TypeScript, whose fields are declared.
func (d *tsDescriber) thisField(member *ts.Node, name string) *ts.Node {
	if !d.js {
		return nil
	}
	return tsThisField(d.f, member, name, func(fn *ts.Node) map[string]*ts.Node {
		k := nodeKey(fn)
		fields, ok := d.fields[k]
		if !ok {
			if d.fields == nil {
				d.fields = map[tsNodeKey]map[string]*ts.Node{}
			}
			fields = tsThisFields(d.f, fn)
			d.fields[k] = fields
		}
		return fields
	})
}

// selector is the descriptor of a property access to name of a value v.
func (d *tsDescriber) selector(v, name string) string {
	if v == "" {
		return "."
	}
	return "." + v + "." + name
}

// bindingRef is the head of the binding identifier b: an import's module
// member, or b itself (tsBindingValue of the resolver).
func (d *tsDescriber) bindingRef(b *ts.Node) string {
	f := d.f
	p := b.Parent()
	switch f.Type(p) {
	case "import_specifier":
		return d.specifier(p)
	case "namespace_import", "import_clause":
		mod := d.source(p)
		if mod == "" {
			return ""
		}
		if f.Type(p) == "import_clause" {
			return mod + ".default"
		}
		return mod
	}
	return at(b)
}

// source is the module head of the import or export statement around n,
// "" when it has no source.
func (d *tsDescriber) source(n *ts.Node) string {
	f := d.f
	for p := n; p != nil; p = p.Parent() {
		switch f.Type(p) {
		case "import_statement", "export_statement":
			return tsModuleHead(tsStringValue(f, f.Field(p, "source")))
		}
	}
	return ""
}

// tsModuleHead is the head of the module specifier spec. The file's
// path is not known at index time (nor needed: a moved file is indexed
// again): the evaluation resolves spec from it (tsModuleFile).
func tsModuleHead(spec string) string {
	if spec == "" || strings.ContainsAny(spec, "|\n") {
		return ""
	}
	return "m" + spec + "|"
}

// specifier describes an import or export specifier (tsSpecifier of the
// resolver): the export of the module it reads, or for `export {x}`
// without a source, the local x.
func (d *tsDescriber) specifier(spec *ts.Node) string {
	f := d.f
	name := f.Field(spec, "name")
	if name == nil {
		return ""
	}
	if mod := d.source(spec); mod != "" {
		return mod + "." + f.Text(name)
	}
	if f.Type(spec) == "export_specifier" {
		if b := d.lookup(name, f.Text(name)); b != nil {
			return d.bindingRef(b)
		}
	}
	return ""
}

// value describes what the expression n evaluates to, "" when unknown
// (tsEval of the resolver).
func (d *tsDescriber) value(n *ts.Node, depth int) string {
	f := d.f
	if n == nil || depth > tsValueDepth {
		return ""
	}
	var v string
	switch f.Type(n) {
	case "identifier", "type_identifier":
		if b := d.lookup(n, f.Text(n)); b != nil {
			v = d.bindingRef(b)
		}
	case "this":
		if c := tsEnclosingClass(f, n); c != nil {
			if nm := f.Field(c, "name"); nm != nil {
				v = at(nm) + "#"
			}
		}
	case "super":
		if c := tsEnclosingClass(f, n); c != nil {
			v = tsSuffix(d.value(tsExtends(f, c), depth+1), "#")
		}
	case "member_expression":
		v = tsSuffix(d.value(f.Field(n, "object"), depth+1), "."+f.Text(f.Field(n, "property")))
	case "new_expression":
		v = tsSuffix(d.value(f.Field(n, "constructor"), depth+1), "#")
	case "parenthesized_expression", "non_null_expression", "await_expression":
		v = d.value(n.NamedChild(0), depth+1)
	case "call_expression":
		v = tsSuffix(d.value(f.Field(n, "function"), depth+1), "()")
	case "binary_expression":
		if op := f.Text(f.Field(n, "operator")); op == "||" || op == "??" {
			if v = d.value(f.Field(n, "left"), depth+1); v == "" {
				v = d.value(f.Field(n, "right"), depth+1)
			}
		}
	case "as_expression", "satisfies_expression":
		if v = tsSuffix(d.typeValue(n.NamedChild(1), depth+1), "#"); v == "" {
			v = d.value(n.NamedChild(0), depth+1)
		}
	}
	if len(v) > syntax.DescMax {
		return ""
	}
	return v
}

// tsSuffix is v+step, "" when v is unknown.
func tsSuffix(v, step string) string {
	if v == "" {
		return ""
	}
	return v + step
}

// tsHeritageType is n's node type, except that JavaScript's class_heritage,
// which holds the superclass expression itself where TypeScript's holds
// an extends_clause, counts as an extends_clause.
func tsHeritageType(f *syntax.File, n *ts.Node) string {
	t := f.Type(n)
	if t == "class_heritage" {
		if first := n.NamedChild(0); first != nil && f.Type(first) != "extends_clause" && f.Type(first) != "implements_clause" {
			return "extends_clause"
		}
	}
	return t
}

// tsExtends is the class that the extends clause of class c names, or nil.
func tsExtends(f *syntax.File, c *ts.Node) *ts.Node {
	var ext *ts.Node
	syntax.Walk(c, func(n *ts.Node) bool {
		switch tsHeritageType(f, n) {
		case "class_body":
			return false
		case "extends_clause":
			ext = tsHeritageCallee(f, n.NamedChild(0))
			return false
		}
		return ext == nil
	})
	return ext
}

// typeValue describes the class or interface a type annotation names
// (tsTypeClass of the resolver); "" when unknown.
func (d *tsDescriber) typeValue(ty *ts.Node, depth int) string {
	f := d.f
	for ty = tsUnwrapType(f, ty); ty != nil && depth <= tsValueDepth; depth++ {
		switch f.Type(ty) {
		case "generic_type":
			ty = ty.NamedChild(0)
			continue
		case "object_type":
			d.objects = append(d.objects, ty)
			return at(ty)
		case "type_identifier", "identifier":
			if b := d.lookup(ty, f.Text(ty)); b != nil {
				return d.bindingRef(b)
			}
		case "nested_type_identifier":
			return tsSuffix(d.value(ty.NamedChild(0), depth+1), "."+f.Text(ty.NamedChild(ty.NamedChildCount()-1)))
		}
		return ""
	}
	return ""
}

// instanceOf is an instance of the type ty describes.
func (d *tsDescriber) instanceOf(ty *ts.Node) string { return tsSuffix(d.typeValue(ty, 0), "#") }

// posKey is "L:C" of n.
func posKey(n *ts.Node) string { return syntax.PosString(n) }
