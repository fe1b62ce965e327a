package locals

import (
	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// Swift's locals table. gotreesitter v0.24's Swift grammar reads the
// block after an `if let`/`while let` binding's value as a trailing
// closure of that value and turns the statement into an error node,
// swallowing the declarations after it:
//
//	if let cached = cache[id] {
//	    return cached
//	}
//	var result: User? = nil // lost: no binding left in the tree
//
// No offset-preserving rewrite fixes it (tried: parenthesising the value,
// `,` for `=`, a newline or `;` before the brace: all still error nodes),
// so the table is strict: a function whose tree has an error node
// answers nothing and is left to the ranking. The others (parameters,
// let/var, for, closure parameters, guard let, if let with a condition
// after the binding, catch) resolve as in the other languages.
var swiftLocals = &localsLang{
	idents: set("simple_identifier"),
	scopes: map[string]scopeKind{
		"source_file": scopeRoot, "class_body": scopeClass, "protocol_body": scopeClass, "enum_class_body": scopeClass,
		"function_declaration": scopeFunc, "init_declaration": scopeFunc, "deinit_declaration": scopeFunc,
		"lambda_literal": scopeFunc, "computed_property": scopeFunc,
		"statements": scopeBlock, "for_statement": scopeBlock, "if_statement": scopeBlock, "while_statement": scopeBlock,
		"switch_entry": scopeBlock, "catch_block": scopeBlock,
	},
	binds: map[string][]bindRule{
		"property_declaration": {{field: "name"}}, "parameter": {{field: "name"}},
		"lambda_parameter": {{field: "name"}}, "for_statement": {{field: "item"}},
		"if_statement":    {{field: "bound_identifier", flow: true}},
		"while_statement": {{field: "bound_identifier", flow: true}},
		"guard_statement": {{field: "bound_identifier", flow: true}},
		"catch_block":     {{field: "error"}},
		// A case pattern's names may be bindings (`case .a(let x)`) or
		// constants it compares with (`case limit:`): which, the syntax
		// says only through a `let` that may stand outside the name's
		// own pattern. Neither is claimed: uses in the case are left to
		// the ranking, and never taken for an outer local.
		"switch_pattern": {{foreign: true}},
	},
	patterns: map[string]string{"pattern": "", "tuple_pattern": ""},
	members: map[string]string{
		"value_argument_label": "", "navigation_suffix": "suffix", "parameter": "external_name",
	},
	flow:       swiftFlow,
	implicit:   swiftError,
	dotMembers: true,
	strict:     true,
}

// swiftFlow scopes an if, while or guard condition's binding: in the
// clauses after its own and in the body (an if's then branch), not in its
// value (`if let x = x` reads the outer x); a guard's also after the
// guard, to the end of its block, and not in its else branch.
func swiftFlow(f *syntax.File, name, decl *ts.Node, anc []*ts.Node) []localsSpan {
	from, body, elseAt := uint32(0), (*ts.Node)(nil), uint32(0)
	for i, c := 0, decl.ChildCount(); i < c; i++ {
		ch := decl.Child(i)
		if ch.StartByte() < name.EndByte() {
			continue
		}
		switch f.Type(ch) {
		case ",", "else":
			if from == 0 {
				from = ch.StartByte()
			}
			if f.Type(ch) == "else" && elseAt == 0 {
				elseAt = ch.StartByte()
			}
		case "statements":
			if from == 0 {
				from = ch.StartByte()
			}
			if body == nil {
				body = ch
			}
		}
	}
	if from == 0 {
		return nil
	}
	if f.Type(decl) != "guard_statement" {
		if body == nil {
			return nil
		}
		return []localsSpan{{scope: decl, from: from, to: body.EndByte()}}
	}
	i := indexOf(anc, decl)
	if i < 1 || elseAt == 0 {
		return nil
	}
	return []localsSpan{{scope: decl, from: from, to: elseAt}, {scope: anc[i-1], from: decl.EndByte()}}
}

// swiftError: a catch clause without a pattern binds `error`, at its
// `catch`.
func swiftError(f *syntax.File, n *ts.Node, name []byte) *ts.Node {
	if string(name) != "error" || f.Type(n) != "catch_block" || n.ChildCount() == 0 || n.ChildByFieldName("error", f.Tree.Lang) != nil {
		return nil
	}
	return n.Child(0)
}
