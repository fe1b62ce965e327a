package typescript

import (
	"strconv"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// TypeScript values the syntax types without a checker: what a call
// returns (the declared return type of the function, method or function-
// typed variable it calls, of the overload its arguments fit), the type of
// an untyped callback parameter from the parameter it is passed for
// (`operate((source, subscriber) => …)` with `operate(init: (s:
// Observable<T>, sub: Subscriber<R>) => …)`), `a || b` and `a ?? b`,
// destructured names (`const { delegate } = provider`), and union and
// inline object types.

// tsCallResult is the value a call expression returns.
func (r *resolver) tsCallResult(f *syntax.File, call *ts.Node) syntax.Value {
	callee := r.tsCalleeValue(f, call)
	if v, ok := r.tsIdxCallee(callee, "r", ""); ok {
		return v
	}
	df, decl := r.tsCallee(f, call, callee)
	if decl == nil {
		return syntax.Value{}
	}
	if c := r.tsTypeClass(df, tsReturnType(df, decl)); c != nil {
		return syntax.Value{Class: c, Instance: true}
	}
	return syntax.Value{}
}

// tsCalleeValue is what a call or new expression of f calls: the
// function, or for new, the constructor of the class.
func (r *resolver) tsCalleeValue(f *syntax.File, call *ts.Node) syntax.Value {
	switch f.Type(call) {
	case "call_expression":
		return r.tsEval(f, f.Field(call, "function"))
	case "new_expression":
		cv := r.tsEval(f, f.Field(call, "constructor"))
		switch {
		case cv.Class == nil || cv.Instance:
		case cv.Class.F == nil:
			return r.tsIdxClassMember(cv.Class, "constructor", 0)
		default:
			if ctor := tsConstructor(cv.Class.F, cv.Class.Node); ctor != nil {
				if nm := cv.Class.F.Field(ctor, "name"); nm != nil {
					return syntax.Value{Decl: r.tsTarget(cv.Class.F, nm), OK: true}
				}
			}
		}
	}
	return syntax.Value{}
}

// tsIdxCallee evaluates, for a callee v declared in a file the index
// describes, its fact of kind "r" (what it returns) or "c" (suffix
// "/A/I": a callback parameter's type); ok is false when v is not one.
// The overload a call's arguments fit is not told apart there: the
// group's first signature answers, as the descriptors do.
func (r *resolver) tsIdxCallee(v syntax.Value, kind, suffix string) (syntax.Value, bool) {
	if !v.OK || v.Decl.Module || !r.tsIdxKnown(v.Decl.Path) {
		return syntax.Value{}, false
	}
	return r.tsIdxFact(v, kind, suffix), true
}

// tsCallee is the signature a call or new expression of f calls (v, its
// tsCalleeValue): the overload its arguments fit, or the function type of
// a variable, field or parameter; nil when the syntax does not tell.
func (r *resolver) tsCallee(f *syntax.File, call *ts.Node, v syntax.Value) (*syntax.File, *ts.Node) {
	if !v.OK {
		return nil, nil
	}
	df, nm := r.tsDeclNode(v.Decl)
	if nm == nil {
		return nil, nil
	}
	decl := nm.Parent()
	if g := tsOverloads(df, nm); len(g) > 0 {
		if o := r.tsFitOverload(f, call, df, g); o != nil {
			return df, o.Parent()
		}
		return df, decl
	}
	switch df.Type(decl) {
	case "variable_declarator":
		if val := df.Field(decl, "value"); tsFunctionNode(df, val) {
			return df, val
		}
		fallthrough
	case "required_parameter", "optional_parameter", "public_field_definition", "property_signature":
		if ty := tsUnwrapType(df, df.Field(decl, "type")); df.Type(ty) == "function_type" {
			return df, ty
		}
	}
	return nil, nil
}

// tsFitOverload is the name node of the overload in g (the group of one
// function or method of df) that call's arguments fit, or nil.
func (r *resolver) tsFitOverload(f *syntax.File, call *ts.Node, df *syntax.File, g []*ts.Node) *ts.Node {
	if len(g) > 1 {
		if last := g[len(g)-1].Parent(); df.Field(last, "body") != nil {
			g = g[:len(g)-1]
		}
	}
	if len(g) == 1 {
		return g[0]
	}
	args := f.Field(call, "arguments")
	for _, o := range g {
		if r.tsArgsFit(f, args, df, o.Parent()) {
			return o
		}
	}
	return nil
}

// tsConstructor is the constructor of class node c, or nil.
func tsConstructor(f *syntax.File, c *ts.Node) *ts.Node {
	body := f.Field(c, "body")
	if body == nil {
		return nil
	}
	for i, k := 0, body.NamedChildCount(); i < k; i++ {
		m := body.NamedChild(i)
		if tsSignatureTypes[f.Type(m)] && f.Text(f.Field(m, "name")) == "constructor" {
			return m
		}
	}
	return nil
}

func tsFunctionNode(f *syntax.File, n *ts.Node) bool {
	switch f.Type(n) {
	case "arrow_function", "function_expression", "function":
		return true
	}
	return false
}

// tsReturnType is the declared return type of a signature, function
// expression or function type.
func tsReturnType(f *syntax.File, decl *ts.Node) *ts.Node {
	if rt := f.Field(decl, "return_type"); rt != nil {
		return rt
	}
	if f.Type(decl) == "function_type" && decl.NamedChildCount() > 0 {
		return decl.NamedChild(decl.NamedChildCount() - 1)
	}
	return nil
}

// tsUnwrapType strips a type annotation, parentheses and the null and
// undefined members of a union, down to one type node (the first
// remaining member of a union).
func tsUnwrapType(f *syntax.File, ty *ts.Node) *ts.Node {
	for ty != nil {
		switch f.Type(ty) {
		case "type_annotation", "parenthesized_type", "readonly_type":
			ty = ty.NamedChild(0)
			continue
		case "union_type":
			var first *ts.Node
			for i, k := 0, ty.NamedChildCount(); i < k; i++ {
				m := tsUnwrapType(f, ty.NamedChild(i))
				if m != nil && f.Type(m) != "literal_type" && !(f.Type(m) == "predefined_type" && f.Text(m) == "undefined") {
					first = m
					break
				}
			}
			return first
		}
		return ty
	}
	return nil
}

// tsContextualParam is the class of an untyped parameter of a function
// expression passed as an argument, from the type of the parameter it is
// passed for, or nil.
func (r *resolver) tsContextualParam(f *syntax.File, param *ts.Node) *syntax.Class {
	fn := param.Parent()
	if f.Type(fn) == "formal_parameters" {
		fn = fn.Parent()
	}
	if !tsFunctionNode(f, fn) {
		return nil
	}
	idx := 0
	if f.Type(param) != "identifier" { // `x => …` has one parameter
		idx = nodeIndex(tsParams(f, fn), param)
	}
	args := fn.Parent()
	if idx < 0 || f.Type(args) != "arguments" {
		return nil
	}
	argIdx := nodeIndex(namedChildren(f, args), fn)
	if argIdx < 0 {
		return nil
	}
	callee := r.tsCalleeValue(f, args.Parent())
	if v, ok := r.tsIdxCallee(callee, "c", "/"+strconv.Itoa(argIdx)+"/"+strconv.Itoa(idx)); ok {
		if v.Instance {
			return v.Class
		}
		return nil
	}
	df, decl := r.tsCallee(f, args.Parent(), callee)
	if decl == nil {
		return nil
	}
	params := tsParams(df, decl)
	if argIdx >= len(params) {
		return nil
	}
	ty := tsUnwrapType(df, df.Field(params[argIdx], "type"))
	if df.Type(ty) != "function_type" {
		return nil
	}
	cb := tsParams(df, ty)
	if idx >= len(cb) {
		return nil
	}
	return r.tsTypeClass(df, df.Field(cb[idx], "type"))
}

// nodeIndex is the index of n in list, or -1.
func nodeIndex(list []*ts.Node, n *ts.Node) int {
	for i, m := range list {
		if syntax.SameNode(m, n) {
			return i
		}
	}
	return -1
}

// namedChildren are n's named children but comments.
func namedChildren(f *syntax.File, n *ts.Node) []*ts.Node {
	var out []*ts.Node
	for i, k := 0, n.NamedChildCount(); i < k; i++ {
		if c := n.NamedChild(i); f.Type(c) != "comment" {
			out = append(out, c)
		}
	}
	return out
}
