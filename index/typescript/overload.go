package typescript

import (
	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/syntax"
)

// Overloads. A TypeScript function or method may be declared by several
// signatures before its implementation. tsserver answers a call's
// definition with the signature the call resolves to, and its references
// with every use of any of them. So references count against one
// declaration of the group, its first signature (tsCanonical), and
// Definitions picks the signature a call's arguments fit
// (tsPickOverload): by their number, a spread argument (only a rest
// parameter takes it), and function arguments (a function cannot be
// passed for a parameter of a named non-function type, nor a
// non-predicate function for a type-guard parameter; a name or call
// counts as a function when declared with or returning a function type).
// Argument types beyond that would need a type checker.

var tsSignatureTypes = map[string]bool{
	"function_signature": true, "function_declaration": true, "method_signature": true,
	"method_definition": true, "abstract_method_signature": true,
}

// tsDeclNode is the name node of the declaration t in its file, or nil.
func (r *resolver) tsDeclNode(t syntax.Target) (*syntax.File, *ts.Node) {
	f := r.tsFile(t.Path, nil)
	if f == nil {
		return nil, nil
	}
	off, ok := syntax.OffsetOf(f.Src, t.Selection.Start)
	if !ok {
		return nil, nil
	}
	n := f.Tree.Root().NamedDescendantForByteRange(uint32(off), uint32(off))
	if n == nil || !tsIdentTypes[f.Type(n)] || int(n.StartByte()) != off {
		return nil, nil
	}
	return f, n
}

// tsOverloads lists the name nodes of the declarations of the group the
// function or method named nm belongs to, in source order (nil when nm
// names no function or method).
func tsOverloads(f *syntax.File, nm *ts.Node) []*ts.Node {
	d := nm.Parent()
	if d == nil || !tsSignatureTypes[f.Type(d)] || !syntax.SameNode(f.Field(d, "name"), nm) {
		return nil
	}
	c := d.Parent()
	if f.Type(c) == "export_statement" {
		c = c.Parent()
	}
	if c == nil {
		return nil
	}
	name := f.Text(nm)
	var out []*ts.Node
	for i, k := 0, c.NamedChildCount(); i < k; i++ {
		decl := c.NamedChild(i)
		if f.Type(decl) == "export_statement" {
			decl = f.Field(decl, "declaration")
		}
		if tsSignatureTypes[f.Type(decl)] {
			if n := f.Field(decl, "name"); n != nil && f.Text(n) == name {
				out = append(out, n)
			}
		}
	}
	return out
}

// tsPickOverload refines t, what the identifier id of uf resolves to, to
// the signature its call's arguments fit, when id is a call's callee and
// t one of several signatures.
func (r *resolver) tsPickOverload(uf *syntax.File, id *ts.Node, t syntax.Target) syntax.Target {
	callee := id
	if p := id.Parent(); uf.Type(p) == "member_expression" && syntax.SameNode(uf.Field(p, "property"), id) {
		callee = p
	}
	call := callee.Parent()
	if uf.Type(call) != "call_expression" || !syntax.SameNode(uf.Field(call, "function"), callee) {
		return t
	}
	if f, g := r.tsOverloadGroup(t); g != nil {
		if o := r.tsFitOverload(uf, call, f, g); o != nil {
			t.Selection = syntax.NodeRange(o)
		}
	}
	return t
}

// tsOverloadGroup returns the overload signatures of a function or method
// t and the file declaring them; g is nil when t has no overloads.
func (r *resolver) tsOverloadGroup(t syntax.Target) (f *syntax.File, g []*ts.Node) {
	if t.Kind != extract.KindFunction && t.Kind != extract.KindMethod {
		return nil, nil
	}
	if r.tsIdxKnown(t.Path) && !r.tsOverloaded(t) {
		return nil, nil // the index tells, without parsing t's file
	}
	f, nm := r.tsDeclNode(t)
	if nm == nil {
		return nil, nil
	}
	if g = tsOverloads(f, nm); len(g) > 1 {
		return f, g
	}
	return nil, nil
}

// tsParams are the parameters of a signature, without a `this`
// parameter.
func tsParams(f *syntax.File, decl *ts.Node) []*ts.Node {
	ps := f.Field(decl, "parameters")
	if ps == nil {
		return nil
	}
	var out []*ts.Node
	for i, k := 0, ps.NamedChildCount(); i < k; i++ {
		p := ps.NamedChild(i)
		switch f.Type(p) {
		case "required_parameter", "optional_parameter":
			if pat := f.Field(p, "pattern"); f.Type(pat) != "this" {
				out = append(out, p)
			}
		}
	}
	return out
}

// tsArgsFit reports whether the arguments args of a call in uf fit the
// parameters of the signature decl of f.
func (r *resolver) tsArgsFit(uf *syntax.File, args *ts.Node, f *syntax.File, decl *ts.Node) bool {
	params := tsParams(f, decl)
	required, rest := 0, -1
	for i, p := range params {
		switch {
		case f.Type(f.Field(p, "pattern")) == "rest_pattern":
			rest = i
		case f.Type(p) == "required_parameter" && f.Field(p, "value") == nil:
			required = i + 1
		}
	}
	if args == nil {
		return false
	}
	list := namedChildren(uf, args)
	for i, a := range list {
		if uf.Type(a) == "spread_element" {
			// An array of unknown length fills a rest parameter, not
			// fixed positions (nor a tuple with fixed elements after its
			// spread).
			return rest >= 0 && i >= rest && !tsFixedTail(f, f.Field(params[rest], "type"))
		}
		if i >= len(params) && rest < 0 {
			return false
		}
		if i < len(params) && i != rest && !r.tsArgKindFits(uf, a, f, decl, f.Field(params[i], "type")) {
			return false
		}
	}
	return len(list) >= required
}

// tsFixedTail reports whether a rest parameter's type is a tuple with an
// element after its spread ([...A, S]).
func tsFixedTail(f *syntax.File, ty *ts.Node) bool {
	if f.Type(ty) == "type_annotation" {
		ty = ty.NamedChild(0)
	}
	if f.Type(ty) != "tuple_type" || ty.NamedChildCount() == 0 {
		return false
	}
	return f.Type(ty.NamedChild(ty.NamedChildCount()-1)) != "rest_type"
}

// tsArgKindFits rejects a function argument for a parameter of a
// non-function type, and a function that is no type guard for a
// parameter that must be one.
func (r *resolver) tsArgKindFits(uf *syntax.File, arg *ts.Node, f *syntax.File, decl, ty *ts.Node) bool {
	fn, guard := r.tsFunctionArg(uf, arg)
	if !fn || ty == nil {
		return true
	}
	if f.Type(ty) == "type_annotation" {
		ty = ty.NamedChild(0)
	}
	switch f.Type(ty) {
	case "function_type":
		_, returnsGuard := tsFunctionType(f, ty)
		return guard || !returnsGuard
	case "predefined_type", "literal_type", "object_type", "array_type", "tuple_type":
		return false
	case "type_identifier":
		// A type parameter of the signature takes anything.
		return tsTypeParam(f, decl, f.Text(ty))
	}
	return true
}

// tsFunctionArg reports whether arg is a function, as far as the syntax
// tells (a function expression, a name declared with a function type or
// bound to a function expression, a call declared to return a function
// type), and whether it is declared a type guard (`(x): x is T => …`).
func (r *resolver) tsFunctionArg(f *syntax.File, arg *ts.Node) (fn, guard bool) {
	switch f.Type(arg) {
	case "arrow_function", "function_expression", "function":
		return true, f.Type(f.Field(arg, "return_type")) == "type_predicate_annotation"
	case "identifier":
		v := r.tsLookup(f, arg, f.Text(arg))
		if !v.OK {
			return false, false
		}
		df, nm := r.tsDeclNode(v.Decl)
		if nm == nil {
			return false, false
		}
		d := nm.Parent()
		if val := df.Field(d, "value"); df.Type(d) == "variable_declarator" && tsFunctionNode(df, val) {
			return r.tsFunctionArg(df, val)
		}
		return tsFunctionType(df, df.Field(d, "type"))
	case "call_expression":
		if df, decl := r.tsCallee(f, arg, r.tsCalleeValue(f, arg)); decl != nil {
			return tsFunctionType(df, tsReturnType(df, decl))
		}
	}
	return false, false
}

// tsFunctionType reports whether the type ty is a function type, and
// whether that returns a type predicate.
func tsFunctionType(f *syntax.File, ty *ts.Node) (fn, guard bool) {
	ty = tsUnwrapType(f, ty)
	if f.Type(ty) != "function_type" {
		return false, false
	}
	for i, k := 0, ty.NamedChildCount(); i < k; i++ {
		if f.Type(ty.NamedChild(i)) == "type_predicate" {
			return true, true
		}
	}
	return true, false
}

// tsTypeParam reports whether name is a type parameter of decl.
func tsTypeParam(f *syntax.File, decl *ts.Node, name string) bool {
	tps := f.Field(decl, "type_parameters")
	if tps == nil {
		return false
	}
	for i, k := 0, tps.NamedChildCount(); i < k; i++ {
		if n := tps.NamedChild(i).NamedChild(0); n != nil && f.Text(n) == name {
			return true
		}
	}
	return false
}
