package locals

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/syntax"
)

// The languages' tables for nav.LocalAt. Node types are the grammars' (what
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
	// prefix, when set, lists the tokens ("a|b") the declaring node must
	// begin with (Lua's `local function f`, not the global `function f`).
	prefix string
	// foreign: declares that the name is not a local here (PHP's
	// `global $x`): uses bound to it are left to the ranking.
	foreign bool
	// flow: the binding's scope follows the control flow around it
	// (localsLang.flow: Java's instanceof, Rust's if let).
	flow bool
}

// implicitRule is the rule of a binding the language makes without a
// name in the source (localsLang.implicit).
var implicitRule = bindRule{}

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
	// implicit, when set, returns for a node that binds name without
	// naming it (Kotlin's lambda without parameters binds `it`) the token
	// that stands for the binding; nil for any other node or name.
	implicit func(f *syntax.File, n *ts.Node, name []byte) *ts.Node
	// flow, when set, gives the binding name of a flow rule declared by
	// decl (under ancestors anc, decl among them) the regions it is
	// visible in; none keeps the default, the innermost scope from the
	// name on.
	flow func(f *syntax.File, name, decl *ts.Node, anc []*ts.Node) []localsSpan
	// captures, when set, reports whether the class body anc[i] (a
	// scopeClass node, its ancestors before it) sees the locals around it,
	// as anonymous and local classes do; its own members of the name
	// still shadow them.
	captures func(f *syntax.File, anc []*ts.Node, i int) bool
	// dotMembers: a name after `.` is a member even where the grammar
	// gives it no member field (Swift's `.some(x)`, `self.x`).
	dotMembers bool
	// arrowMembers: `->` is member access (C, C++, PHP), not a lambda's
	// arrow (Java, Kotlin) or a return type (Rust).
	arrowMembers bool
	// strict: the grammar mis-parses common forms of the language, so a
	// function whose tree has an error node answers nothing (Swift).
	strict bool
}

// localsLangs are the tables by the language name workspace.DetectLanguage
// gives.
var localsLangs = map[string]*localsLang{
	"java": javaLocals, "rust": rustLocals, "c": cLocals, "cpp": cppLocals, "csharp": csharpLocals,
	"kotlin": kotlinLocals, "ruby": rubyLocals, "lua": luaLocals, "php": phpLocals, "bash": bashLocals,
	"swift": swiftLocals,
}

// nameAt is the text of the name starting at byte start, or nil.
func (l *localsLang) nameAt(f *syntax.File, start int) []byte {
	n := f.Tree.Root().NamedDescendantForByteRange(uint32(start), uint32(start))
	if n == nil || int(n.StartByte()) != start || n.NamedChildCount() > 0 || !l.idents[f.Type(n)] || n.EndByte() > uint32(len(f.Src)) {
		return nil
	}
	return f.Src[n.StartByte():n.EndByte()]
}

// isName reports whether the identifier n, under ancestors anc, may name
// a local: not a member after `.`, `->` or `::`, a method's name, a
// label.
func (l *localsLang) isName(f *syntax.File, n *ts.Node, anc []*ts.Node) bool {
	i := len(anc) - 1
	if i < 0 {
		return false
	}
	if l.identParent != "" {
		if f.Type(anc[i]) != l.identParent {
			return false
		}
		if n, i = anc[i], i-1; i < 0 {
			return true
		}
	}
	if l.dotMembers && afterMemberOp(f.Src, int(n.StartByte()), l.arrowMembers) {
		return false
	}
	field, ok := l.members[f.Type(anc[i])]
	return !ok || (field != "" && fieldOf(f, anc[i], n) != field)
}

// bindingOf returns the rule binding the name n (under ancestors anc) and
// its declaring node, or nil when n is not a binding.
func (l *localsLang) bindingOf(f *syntax.File, n *ts.Node, anc []*ts.Node) (*bindRule, *ts.Node) {
	if l.notBinding != nil && l.notBinding(f.Text(n)) {
		return nil, nil
	}
	child, i := n, len(anc)-1
	if l.identParent != "" {
		child, i = anc[i], i-1
	}
	for ; i >= 0; child, i = anc[i], i-1 {
		p := anc[i]
		t := f.Type(p)
		field := fieldOf(f, p, child)
		for j, r := range l.binds[t] {
			if (r.field == "" || r.field == field) && (r.prefix == "" || p.ChildCount() > 0 && slices.Contains(strings.Split(r.prefix, "|"), f.Type(p.Child(0)))) {
				return &l.binds[t][j], p
			}
		}
		via, ok := l.patterns[t]
		if !ok {
			return nil, nil
		}
		if skip, neg := strings.CutPrefix(via, "!"); neg && field == skip || !neg && via != "" && field != via {
			return nil, nil
		}
	}
	return nil, nil
}

// scopeOf is the scope a binding under ancestors anc, declared by decl,
// binds in: the innermost scope around it, around decl for an outer rule.
func (l *localsLang) scopeOf(f *syntax.File, anc []*ts.Node, decl *ts.Node, outer bool) *ts.Node {
	for i := len(anc) - 1; i >= 0; i-- {
		if outer && syntax.SameNode(anc[i], decl) {
			continue
		}
		if _, ok := l.scopes[f.Type(anc[i])]; ok {
			return anc[i]
		}
	}
	return f.Tree.Root()
}

// walkRoot is the index in path (the root first, the name last) of the
// subtree that holds every binding the name can resolve to and every
// occurrence bound to it: the outermost function or block, since what
// is bound outside it is a member or a global; the outermost function
// that sees no locals around it in a language whose file-level bindings
// are locals; else the root. Walking it rather than the file keeps a
// query on a large buffer about one parse.
func (l *localsLang) walkRoot(f *syntax.File, path []*ts.Node) int {
	for i, n := range path[:len(path)-1] {
		switch kind, ok := l.scopes[f.Type(n)]; {
		case !ok, kind == scopeClass, kind == scopeRoot:
		case kind == scopeGate || !l.rootLocal:
			return i
		}
	}
	return 0
}

// fieldOf is the field name child has in p, "" for none.
func fieldOf(f *syntax.File, p, child *ts.Node) string {
	for i, c := 0, p.ChildCount(); i < c; i++ {
		if syntax.SameNode(p.Child(i), child) {
			return p.FieldNameForChild(i, f.Tree.Lang)
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
		"switch_block": scopeBlock,
	},
	binds: map[string][]bindRule{
		"variable_declarator": {{field: "name"}}, "formal_parameter": {{field: "name"}},
		"catch_formal_parameter": {{field: "name"}}, "enhanced_for_statement": {{field: "name"}},
		"resource": {{field: "name"}}, "inferred_parameters": {{}}, "lambda_expression": {{field: "parameters"}},
		"instanceof_expression": {{field: "name", flow: true}}, "record_pattern_component": {{flow: true}},
		"type_pattern": {{}},
	},
	members: map[string]string{
		"field_access": "field", "method_invocation": "name", "method_reference": "",
		"labeled_statement": "", "break_statement": "", "continue_statement": "",
	},
	flow:     javaFlow,
	captures: javaCaptures,
}

// javaCaptures: an anonymous class's body and a local class's (declared
// in a block) see the method's locals (effectively final ones, which the
// syntax cannot check). A field of the class shadows them; so would an
// inherited one, which the syntax cannot see.
func javaCaptures(f *syntax.File, anc []*ts.Node, i int) bool {
	switch {
	case i < 1 || f.Type(anc[i]) != "class_body":
		return false
	case f.Type(anc[i-1]) == "object_creation_expression":
		return true
	}
	return i >= 2 && f.Type(anc[i-1]) == "class_declaration" && f.Type(anc[i-2]) == "block"
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
		"closure_parameters": {{}}, "for_expression": {{field: "pattern"}},
		"let_condition": {{field: "pattern", flow: true}},
		"match_arm":     {{field: "pattern"}},
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
	flow:       rustFlow,
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
	idents: set("identifier"), scopes: cScopes, binds: cBinds, patterns: cPatterns, arrowMembers: true,
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
	members:      map[string]string{"qualified_identifier": "name"},
	arrowMembers: true,
}

var csharpLocals = &localsLang{
	idents: set("identifier", "implicit_parameter"),
	scopes: map[string]scopeKind{
		"compilation_unit": scopeRoot, "declaration_list": scopeClass, "enum_member_declaration_list": scopeClass,
		"method_declaration": scopeGate, "constructor_declaration": scopeGate, "destructor_declaration": scopeGate,
		"operator_declaration": scopeGate, "conversion_operator_declaration": scopeGate, "accessor_declaration": scopeGate,
		"local_function_statement": scopeFunc, "lambda_expression": scopeFunc, "anonymous_method_expression": scopeFunc,
		"block": scopeBlock, "for_statement": scopeBlock, "foreach_statement": scopeBlock, "catch_clause": scopeBlock,
		"using_statement": scopeBlock, "switch_section": scopeBlock, "while_statement": scopeBlock,
		"switch_expression_arm": scopeBlock,
	},
	// Out variables and pattern variables (declaration_expression, the
	// patterns) bind in the innermost of these scopes: as C# scopes them,
	// one declared in an if's condition or an expression statement is in
	// scope after it in the enclosing block (`if (!int.TryParse(s, out var
	// n)) return; Use(n);`), one in a while's condition, a case label or
	// a switch expression arm only there. tuple_pattern is a
	// deconstruction's `(a, b)`.
	binds: map[string][]bindRule{
		"variable_declarator": {{field: "name"}}, "parameter": {{field: "name"}}, "parameter_list": {{field: "name"}},
		"foreach_statement": {{field: "left"}}, "catch_declaration": {{field: "name"}},
		"declaration_pattern": {{field: "name"}}, "recursive_pattern": {{field: "name"}},
		"declaration_expression": {{field: "name"}}, "tuple_pattern": {{field: "name"}},
		"lambda_expression":        {{field: "parameters"}},
		"local_function_statement": {{field: "name", outer: true, hoist: true}},
	},
	members: map[string]string{
		"member_access_expression": "name", "member_binding_expression": "name", "qualified_name": "name",
		"name_colon": "", "labeled_statement": "", "goto_statement": "",
	},
}

// Kotlin's functions all see the locals around them (a local fun is a
// closure); a member's lookup stops at its class body anyway.
var kotlinLocals = &localsLang{
	idents: set("simple_identifier"),
	scopes: map[string]scopeKind{
		"source_file": scopeRoot, "class_body": scopeClass, "enum_class_body": scopeClass,
		"function_declaration": scopeFunc, "lambda_literal": scopeFunc, "anonymous_function": scopeFunc,
		"secondary_constructor": scopeGate, "anonymous_initializer": scopeGate,
		"control_structure_body": scopeBlock, "for_statement": scopeBlock, "catch_block": scopeBlock,
		"when_entry": scopeBlock,
	},
	binds: map[string][]bindRule{
		"variable_declaration": {{}}, "parameter": {{}}, "catch_block": {{}},
	},
	members:  map[string]string{"navigation_suffix": "", "user_type": ""},
	implicit: kotlinIt,
	captures: kotlinCaptures,
}

// kotlinCaptures: an object expression's body and a local class's see
// the locals around them; their own properties shadow them.
func kotlinCaptures(f *syntax.File, anc []*ts.Node, i int) bool {
	switch {
	case i < 1 || f.Type(anc[i]) != "class_body":
		return false
	case f.Type(anc[i-1]) == "object_literal":
		return true
	}
	return i >= 2 && f.Type(anc[i-1]) == "class_declaration" && f.Type(anc[i-2]) == "statements"
}

// kotlinIt: a lambda that declares no parameters has one named `it`
// (when it takes one: the syntax cannot tell, and a lambda of none that
// says `it` does not compile unless an outer `it` is meant, which the
// nearest lambda then wrongly claims). It stands at the lambda's opening
// brace, where the lambda that binds it begins, as a declaration does.
func kotlinIt(f *syntax.File, n *ts.Node, name []byte) *ts.Node {
	if string(name) != "it" || f.Type(n) != "lambda_literal" || n.ChildCount() == 0 {
		return nil
	}
	for i, c := 0, n.ChildCount(); i < c; i++ {
		if f.Type(n.Child(i)) == "lambda_parameters" {
			return nil
		}
	}
	return n.Child(0)
}

// Ruby: a def, class or module body sees no locals around it; blocks and
// lambdas do. Assigning a name not bound yet binds it, and a use before
// that is a method call.
var rubyLocals = &localsLang{
	idents: set("identifier"),
	scopes: map[string]scopeKind{
		"program": scopeRoot, "method": scopeGate, "singleton_method": scopeGate, "class": scopeGate,
		"module": scopeGate, "singleton_class": scopeGate,
		"block": scopeFunc, "do_block": scopeFunc, "lambda": scopeFunc,
	},
	binds: map[string][]bindRule{
		"method_parameters": {{}}, "lambda_parameters": {{}}, "block_parameters": {{}},
		"optional_parameter": {{field: "name"}}, "splat_parameter": {{field: "name"}},
		"hash_splat_parameter": {{field: "name"}}, "keyword_parameter": {{field: "name"}},
		"block_parameter": {{field: "name"}},
		"assignment":      {{field: "left", implicit: true}}, "for": {{field: "pattern", implicit: true}},
		"exception_variable": {{implicit: true}},
	},
	patterns:  map[string]string{"destructured_parameter": "", "left_assignment_list": "", "destructured_left_assignment": ""},
	members:   map[string]string{"call": "method", "scope_resolution": "name"},
	rootLocal: true,
}

// Lua: `local` binds from the end of its statement (`local x = x` reads
// the outer x); a plain assignment to an unbound name is a global.
var luaLocals = &localsLang{
	idents: set("identifier"),
	scopes: map[string]scopeKind{
		"chunk": scopeRoot, "function_declaration": scopeFunc, "function_definition": scopeFunc,
		"block": scopeBlock, "for_statement": scopeBlock,
	},
	binds: map[string][]bindRule{
		"variable_declaration": {{after: true}}, "function_declaration": {{field: "name", outer: true, prefix: "local"}},
		"parameters": {{field: "name"}}, "for_numeric_clause": {{field: "name"}}, "for_generic_clause": {{}},
	},
	patterns: map[string]string{"variable_list": "name", "assignment_statement": ""},
	members: map[string]string{
		"dot_index_expression": "field", "method_index_expression": "method", "field": "name",
		"label_statement": "", "goto_statement": "",
	},
	rootLocal: true,
}

// PHP: a variable belongs to its whole function (assigned anywhere, it is
// the same $x before and after); closures see only what `use` brings in,
// arrow functions see everything; `global $x` makes $x not a local.
var phpLocals = &localsLang{
	arrowMembers: true,
	idents:       set("name"),
	identParent:  "variable_name",
	scopes: map[string]scopeKind{
		"program": scopeRoot, "declaration_list": scopeClass, "function_definition": scopeGate,
		"method_declaration": scopeGate, "anonymous_function": scopeGate, "arrow_function": scopeFunc,
	},
	binds: map[string][]bindRule{
		"simple_parameter": {{field: "name"}}, "variadic_parameter": {{field: "name"}},
		"property_promotion_parameter": {{field: "name"}}, "anonymous_function_use_clause": {{}},
		"assignment_expression":           {{field: "left", implicit: true, hoist: true}},
		"reference_assignment_expression": {{field: "left", implicit: true, hoist: true}},
		"foreach_statement":               {{implicit: true, hoist: true}},
		"catch_clause":                    {{field: "name", implicit: true, hoist: true}},
		"static_variable_declaration":     {{field: "name", implicit: true, hoist: true}},
		"global_declaration":              {{foreign: true, hoist: true}},
	},
	patterns: map[string]string{"list_literal": "", "pair": "", "by_ref": "", "array_creation_expression": "", "array_element_initializer": ""},
	members:  map[string]string{"scoped_property_access_expression": "name"},
}

// Bash: only `local` (or declare) in a function binds a local; every other
// variable is global, and dynamically scoped besides, so it is left to
// the ranking.
var bashLocals = &localsLang{
	idents:   set("variable_name"),
	scopes:   map[string]scopeKind{"program": scopeRoot, "function_definition": scopeGate},
	binds:    map[string][]bindRule{"declaration_command": {{}}},
	patterns: map[string]string{"variable_assignment": "name"},
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
