package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	ts "github.com/odvcencio/gotreesitter"
)

// The languages' tables for LocalAt. Node types are the grammars' (what
// extract.ParseTree builds); a type a grammar version lacks just never
// matches.

// scopeKind is what a scope node means for a lookup walking outward.
type scopeKind uint8

const (
	// scopeBlock binds for the rest of the block; the lookup goes on out.
	scopeBlock scopeKind = iota
	// scopeFunc is a closure or lambda: it sees the locals around it.
	scopeFunc
	// scopeGate is a function that does not see the locals around it
	// (Java and C methods, Rust fn items, Ruby def, PHP functions): the
	// lookup stops after its own bindings.
	scopeGate
	// scopeClass is a class or namespace body: what is bound there is a
	// member, not a local, and the lookup stops.
	scopeClass
	// scopeRoot is the file: its bindings are locals only where the
	// language says so (localsLang.rootLocal).
	scopeRoot
)

// bindRule says that a declaring node binds the names in one of its
// fields.
type bindRule struct {
	// field holds the name or pattern; "" is any child.
	field string
	// after: visible after the whole declaring node (Rust's and Lua's
	// `let x = x` see the outer x), not after the name.
	after bool
	// implicit: an assignment, which binds only a name not bound yet
	// (Ruby, PHP).
	implicit bool
	// outer: binds in the scope around the declaring node, itself a scope
	// (Lua's `local function f`).
	outer bool
	// hoist: visible in all its scope, also before it (PHP).
	hoist bool
}

// localsLang is one language's table.
type localsLang struct {
	// idents are the node types of names.
	idents map[string]bool
	// identParent, when set, is the only parent type a name counts under
	// (PHP's variable_name around the name of $x).
	identParent string
	scopes      map[string]scopeKind
	// binds are the declaring node types and the fields their names are
	// in.
	binds map[string][]bindRule
	// patterns are the node types a bound name nests in (declarators,
	// destructuring patterns), each with the field the name is in: "" any
	// child, "!f" any child but field f (a pattern's type).
	patterns map[string]string
	// members are the parent types whose child in the field (any child
	// for "") is a member or label name, never a local.
	members map[string]string
	// notBinding rejects names a pattern cannot bind (Rust's capitalised
	// identifiers are constants and enum variants).
	notBinding func(name string) bool
	// rootLocal: the file's top-level bindings are the file's locals.
	rootLocal bool
}

// localsLangs are the tables by the language name workspace.DetectLanguage
// gives.
var localsLangs = map[string]*localsLang{
	"java": javaLocals, "rust": rustLocals, "c": cLocals, "cpp": cppLocals,
}

// identAt is the name node starting at byte start, or nil.
func (l *localsLang) identAt(f *pyFile, start int) *ts.Node {
	n := f.tree.Root().NamedDescendantForByteRange(uint32(start), uint32(start))
	for n != nil && int(n.StartByte()) == start && !l.idents[f.typ(n)] {
		n = n.Parent()
	}
	if n == nil || int(n.StartByte()) != start || n.NamedChildCount() > 0 || !l.isName(f, n) {
		return nil
	}
	return n
}

// isName reports whether the identifier n may name a local: not a member
// after `.`, `->` or `::`, a method's name, a label.
func (l *localsLang) isName(f *pyFile, n *ts.Node) bool {
	p := n.Parent()
	if p == nil {
		return false
	}
	if l.identParent != "" {
		if f.typ(p) != l.identParent {
			return false
		}
		n, p = p, p.Parent()
		if p == nil {
			return true
		}
	}
	field, ok := l.members[f.typ(p)]
	return !ok || (field != "" && fieldOf(f, p, n) != field)
}

// bindingOf returns the rule binding the name n and its declaring node,
// or nil when n is not a binding.
func (l *localsLang) bindingOf(f *pyFile, n *ts.Node) (*bindRule, *ts.Node) {
	if l.notBinding != nil && l.notBinding(f.text(n)) {
		return nil, nil
	}
	child := n
	if l.identParent != "" {
		child = n.Parent()
	}
	for p := child.Parent(); p != nil; child, p = p, p.Parent() {
		t := f.typ(p)
		if rules, ok := l.binds[t]; ok {
			field := fieldOf(f, p, child)
			for i := range rules {
				if rules[i].field == "" || rules[i].field == field {
					return &rules[i], p
				}
			}
		}
		via, ok := l.patterns[t]
		if !ok {
			return nil, nil
		}
		field := fieldOf(f, p, child)
		if skip, neg := strings.CutPrefix(via, "!"); neg && field == skip || !neg && via != "" && field != via {
			return nil, nil
		}
	}
	return nil, nil
}

// scopeOf is the scope a binding of n (declared by decl) binds in: the
// innermost scope around it, around decl for an outer rule.
func (l *localsLang) scopeOf(f *pyFile, n, decl *ts.Node, outer bool) *ts.Node {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if outer && sameNode(p, decl) {
			continue
		}
		if _, ok := l.scopes[f.typ(p)]; ok {
			return p
		}
	}
	return f.tree.Root()
}

// fieldOf is the field name child has in p, "" for none.
func fieldOf(f *pyFile, p, child *ts.Node) string {
	for i, c := 0, p.ChildCount(); i < c; i++ {
		if sameNode(p.Child(i), child) {
			return p.FieldNameForChild(i, f.tree.Lang)
		}
	}
	return ""
}

func capitalised(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

func set(types ...string) map[string]bool {
	m := make(map[string]bool, len(types))
	for _, t := range types {
		m[t] = true
	}
	return m
}

var javaLocals = &localsLang{
	idents: set("identifier"),
	scopes: map[string]scopeKind{
		"program": scopeRoot, "class_body": scopeClass, "interface_body": scopeClass, "enum_body": scopeClass,
		"annotation_type_body": scopeClass, "record_declaration": scopeClass,
		"method_declaration": scopeGate, "constructor_declaration": scopeGate, "compact_constructor_declaration": scopeGate,
		"lambda_expression": scopeFunc,
		"block":             scopeBlock, "constructor_body": scopeBlock, "for_statement": scopeBlock, "enhanced_for_statement": scopeBlock,
		"catch_clause": scopeBlock, "try_with_resources_statement": scopeBlock, "switch_rule": scopeBlock,
		"switch_block_statement_group": scopeBlock,
	},
	binds: map[string][]bindRule{
		"variable_declarator": {{field: "name"}}, "formal_parameter": {{field: "name"}},
		"catch_formal_parameter": {{field: "name"}}, "enhanced_for_statement": {{field: "name"}},
		"resource": {{field: "name"}}, "inferred_parameters": {{}}, "lambda_expression": {{field: "parameters"}},
		"instanceof_expression": {{field: "name"}}, "record_pattern_component": {{}}, "type_pattern": {{}},
	},
	members: map[string]string{
		"field_access": "field", "method_invocation": "name", "method_reference": "",
		"labeled_statement": "", "break_statement": "", "continue_statement": "",
	},
}

var rustLocals = &localsLang{
	idents: set("identifier", "shorthand_field_identifier"),
	scopes: map[string]scopeKind{
		"source_file": scopeRoot, "impl_item": scopeClass, "trait_item": scopeClass, "mod_item": scopeClass,
		"function_item": scopeGate, "closure_expression": scopeFunc,
		"block": scopeBlock, "for_expression": scopeBlock, "match_arm": scopeBlock, "if_expression": scopeBlock,
		"while_expression": scopeBlock,
	},
	binds: map[string][]bindRule{
		"let_declaration": {{field: "pattern", after: true}}, "parameter": {{field: "pattern"}},
		"closure_parameters": {{}}, "for_expression": {{field: "pattern"}}, "let_condition": {{field: "pattern"}},
		"match_arm": {{field: "pattern"}},
	},
	patterns: map[string]string{
		"tuple_pattern": "", "mut_pattern": "", "ref_pattern": "", "reference_pattern": "", "slice_pattern": "",
		"or_pattern": "", "captured_pattern": "", "field_pattern": "", "struct_pattern": "!type",
		"tuple_struct_pattern": "!type", "match_pattern": "!condition",
	},
	members: map[string]string{
		"scoped_identifier": "name", "macro_invocation": "macro", "field_initializer": "field",
	},
	notBinding: capitalised,
}

// cScopes and cBinds are C's; C++ adds to them.
var (
	cScopes = map[string]scopeKind{
		"translation_unit": scopeRoot, "field_declaration_list": scopeClass,
		"function_definition": scopeGate,
		"compound_statement":  scopeBlock, "for_statement": scopeBlock, "if_statement": scopeBlock,
		"while_statement": scopeBlock, "switch_statement": scopeBlock,
	}
	cBinds = map[string][]bindRule{
		"declaration": {{field: "declarator"}}, "parameter_declaration": {{field: "declarator"}},
	}
	cPatterns = map[string]string{
		"init_declarator": "declarator", "pointer_declarator": "declarator", "array_declarator": "declarator",
		"parenthesized_declarator": "", "function_declarator": "declarator", "attributed_declarator": "",
	}
)

var cLocals = &localsLang{
	idents: set("identifier"), scopes: cScopes, binds: cBinds, patterns: cPatterns,
}

var cppLocals = &localsLang{
	idents: set("identifier"),
	scopes: merge(cScopes, map[string]scopeKind{
		"declaration_list": scopeClass, "lambda_expression": scopeFunc, "for_range_loop": scopeBlock,
		"catch_clause": scopeBlock,
	}),
	binds: merge(cBinds, map[string][]bindRule{
		"for_range_loop": {{field: "declarator"}}, "lambda_capture_initializer": {{field: "left"}},
		"optional_parameter_declaration": {{field: "declarator"}},
	}),
	patterns: merge(cPatterns, map[string]string{
		"reference_declarator": "", "structured_binding_declarator": "",
	}),
	members: map[string]string{"qualified_identifier": "name"},
}

func merge[V any](a, b map[string]V) map[string]V {
	out := make(map[string]V, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
