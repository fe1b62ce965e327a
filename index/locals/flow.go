package locals

import (
	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// Flow-scoped bindings (localsLang.flow): a binding whose region follows
// the control flow around it rather than its block. Each function returns
// nil for a form it does not know, which keeps the default region (the
// innermost scope from the name on: wider than the language's, never
// narrower).

// rustFlow scopes an `if let` or `while let` pattern's bindings (decl is
// the let_condition) to the rest of the condition (a let chain's later
// conditions) and the body: not the else branch, not the value after
// `=` (`if let Some(x) = x` reads the outer x).
func rustFlow(f *syntax.File, _, decl *ts.Node, anc []*ts.Node) []localsSpan {
	i := indexOf(anc, decl)
	for i > 0 && f.Type(anc[i-1]) == "let_chain" {
		i--
	}
	if i < 1 {
		return nil
	}
	owner := anc[i-1]
	var body *ts.Node
	switch f.Type(owner) {
	case "if_expression":
		body = owner.ChildByFieldName("consequence", f.Tree.Lang)
	case "while_expression":
		body = owner.ChildByFieldName("body", f.Tree.Lang)
	}
	if body == nil {
		return nil
	}
	return []localsSpan{{scope: owner, from: decl.EndByte(), to: body.EndByte()}}
}

// javaFlow scopes an instanceof pattern's bindings (decl is the
// instanceof_expression or a record pattern's component) as Java's flow scoping does for the common
// forms: where the condition holding it is true (the rest of an `&&`
// chain, the then branch, a while's body, a conditional's first branch)
// or, under `!`, false (the rest of an `||` chain, the else branch, and
// after an if whose then branch cannot complete normally:
// `if (!(o instanceof T t)) return; use(t);`). A binding in any other
// expression is visible in the rest of its `&&`/`||` chain.
func javaFlow(f *syntax.File, _, decl *ts.Node, anc []*ts.Node) []localsSpan {
	// A record pattern's components are the instanceof's bindings too.
	i := indexOf(anc, decl)
	for ; i >= 0 && f.Type(anc[i]) != "instanceof_expression"; i-- {
		switch f.Type(anc[i]) {
		case "record_pattern_component", "record_pattern_body", "record_pattern", "type_pattern", "pattern":
		default:
			return nil // a switch label's pattern: its rule or group scopes it
		}
	}
	if i < 0 {
		return nil
	}
	decl = anc[i]
	whenTrue := true
	child := decl
chain:
	for ; i > 0; i-- {
		p := anc[i-1]
		switch f.Type(p) {
		case "parenthesized_expression":
		case "unary_expression":
			if f.Text(p.ChildByFieldName("operator", f.Tree.Lang)) != "!" {
				break chain
			}
			whenTrue = !whenTrue
		case "binary_expression":
			// a && b: b runs when a is true; a || b: when a is false.
			if op := f.Text(p.ChildByFieldName("operator", f.Tree.Lang)); op != "&&" && op != "||" || (op == "&&") != whenTrue {
				break chain
			}
		case "if_statement", "while_statement", "ternary_expression":
			if fieldOf(f, p, child) == "condition" {
				return javaCondFlow(f, decl, p, anc[:i-1], whenTrue)
			}
			break chain
		default:
			break chain
		}
		child = p
	}
	return []localsSpan{{scope: child, from: decl.EndByte()}}
}

// javaCondFlow is javaFlow's regions for a binding in the condition of
// stmt (an if, a while or a conditional expression, under ancestors
// anc), introduced when the condition is true (whenTrue) or false.
func javaCondFlow(f *syntax.File, decl, stmt *ts.Node, anc []*ts.Node, whenTrue bool) []localsSpan {
	field := func(name string) *ts.Node { return stmt.ChildByFieldName(name, f.Tree.Lang) }
	cond := field("condition")
	then, els := field("consequence"), field("alternative")
	if f.Type(stmt) == "while_statement" {
		then, els = field("body"), nil
	}
	if cond == nil || then == nil {
		return nil
	}
	if !whenTrue {
		then, els = els, then
	}
	// The rest of the condition, then the branch taken when the pattern
	// matched: cond and then are adjacent but for the parentheses.
	out := []localsSpan{{scope: stmt, from: decl.EndByte(), to: cond.EndByte()}}
	if then != nil {
		out = append(out, localsSpan{scope: stmt, from: then.StartByte(), to: then.EndByte()})
	}
	// After an if whose branch taken on a mismatch cannot complete
	// normally, the pattern matched: it is in scope to the end of the
	// enclosing block.
	if f.Type(stmt) == "if_statement" && len(anc) > 0 && els != nil && !javaCompletes(f, els) {
		out = append(out, localsSpan{scope: anc[len(anc)-1], from: stmt.EndByte()})
	}
	return out
}

// javaCompletes reports whether the statement s can complete normally,
// as far as its last statement says: a return, throw, break, continue or
// yield, or a block ending in one, cannot.
func javaCompletes(f *syntax.File, s *ts.Node) bool {
	for s != nil && f.Type(s) == "block" {
		var last *ts.Node
		for i := s.NamedChildCount() - 1; i >= 0; i-- {
			if c := s.NamedChild(i); f.Type(c) != "line_comment" && f.Type(c) != "block_comment" {
				last = c
				break
			}
		}
		s = last
	}
	if s == nil {
		return true
	}
	switch f.Type(s) {
	case "return_statement", "throw_statement", "break_statement", "continue_statement", "yield_statement":
		return false
	}
	return true
}

func indexOf(anc []*ts.Node, n *ts.Node) int {
	for i := len(anc) - 1; i >= 0; i-- {
		if syntax.SameNode(anc[i], n) {
			return i
		}
	}
	return -1
}
