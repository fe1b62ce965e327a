package extract

import (
	"strings"

	ts "github.com/odvcencio/gotreesitter"
)

// C and C++ share one table. Extracted: functions (definitions and
// file-level prototypes), structs, unions, enums and enumerators, typedefs
// and using-aliases (as classes, or as the struct/enum they name), fields,
// file-level variables, #define macros, and for C++ classes, namespaces and
// methods, including out-of-class definitions (void Foo::bar() gets
// Container "Foo"). Exported: not static at file scope; class members
// follow public:/private: labels (class defaults to private).
func init() {
	registerTS(cSpec("c", "c"))
	registerTS(cSpec("cpp", "cpp"))
}

// cDeclarators are the node types a declaration's declarator field holds.
const cDeclarators = "function_declarator|pointer_declarator|init_declarator|array_declarator|reference_declarator|" +
	"parenthesized_declarator|identifier|field_identifier|qualified_identifier"

func cSpec(name, grammar string) *langSpec {
	return &langSpec{
		name:    name,
		grammar: grammar,
		defs: []defRule{
			{typ: "function_definition", kind: KindFunction, name: "declarator", scope: scopeFunc, custom: cFunction},
			{typ: cDeclarators, parent: "declaration|field_declaration", field: "declarator", kind: KindVariable,
				outer: 1, topOnly: true, custom: cDeclarator},
			{typ: "struct_specifier|union_specifier", kind: KindStruct, name: "name", scope: scopeType, custom: cHasBody},
			{typ: "class_specifier", kind: KindClass, name: "name", scope: scopeType,
				custom: func(w *tsWalker, d *defSite) bool { d.membersPrivate = true; return cHasBody(w, d) }},
			{typ: "enum_specifier", kind: KindEnum, name: "name", scope: scopeType, custom: cHasBody},
			{typ: "enumerator", kind: KindEnumMember, name: "name"},
			{typ: "type_definition", kind: KindClass, name: "declarator", scope: scopeType, custom: cTypedef},
			{typ: "alias_declaration", kind: KindClass, name: "name"},
			{typ: "namespace_definition", kind: KindNamespace, name: "name", scope: scopeNS},
			{typ: "preproc_def", kind: KindConstant, name: "name"},
			{typ: "preproc_function_def", kind: KindFunction, name: "name"},
		},
		idents: []identRule{{typ: "identifier|type_identifier|field_identifier|namespace_identifier"}},
		calls:  map[string]string{"call_expression": "function"},
		callees: map[string]string{"field_expression": "field", "qualified_identifier": "name",
			"template_function": "name"},
		imports: map[string]func(*tsWalker, *ts.Node){"preproc_include": cInclude},
		hooks:   map[string]func(*tsWalker, *ts.Node){"access_specifier": cppAccess},

		comments:     "comment",
		branches:     "if_statement|for_statement|for_range_loop|while_statement|do_statement|case_statement|catch_clause|conditional_expression",
		branchOps:    "&& ||",
		opParents:    "binary_expression",
		wrappers:     "template_declaration",
		ctorSameName: true,
		exported:     cExported,
		mask:         map[string]func([]byte) []byte{"c": cMask, "cpp": cppMask}[name],
		finish:       map[string]func(*tsWalker){"cpp": cppDropHoisted}[name],
	}
}

// cName follows a declarator chain (pointers, arrays, parentheses,
// initializers, function declarators) to the declared name and reports
// whether a function declarator was on the way.
func cName(w *tsWalker, n *ts.Node) (name *ts.Node, isFunc bool) {
	for i := 0; i < 16 && n != nil; i++ {
		switch {
		case w.c.typeIs(n, "identifier|field_identifier|type_identifier|destructor_name|operator_name|qualified_identifier|template_function|primitive_type"):
			return n, isFunc
		case w.c.typeIs(n, "function_declarator"):
			isFunc = true
			n = w.c.field(n, "declarator")
		default:
			next := w.c.field(n, "declarator")
			if next == nil {
				next = lastNamed(n) // parenthesized and reference declarators
			}
			n = next
		}
	}
	return nil, false
}

// cQualified splits a C++ qualified name (a::B::f) into the final name node
// and a dotted container ("a.B"), dropping template arguments.
func cQualified(w *tsWalker, d *defSite) {
	var scopes []string
	for i := 0; i < 8 && w.c.typeIs(d.nameNode, "qualified_identifier"); i++ {
		if sc := w.c.field(d.nameNode, "scope"); sc != nil {
			s := textOf(w.src, sc)
			if j := strings.IndexByte(s, '<'); j >= 0 {
				s = s[:j]
			}
			scopes = append(scopes, strings.ReplaceAll(squash(s), "::", "."))
		}
		d.nameNode = w.c.field(d.nameNode, "name")
	}
	if w.c.typeIs(d.nameNode, "template_function") {
		d.nameNode = w.c.field(d.nameNode, "name")
	}
	d.name = squash(textOf(w.src, d.nameNode))
	if len(scopes) > 0 {
		d.container = strings.Join(scopes, ".")
		if d.kind == KindFunction {
			d.kind = KindMethod
		}
	}
}

func cFunction(w *tsWalker, d *defSite) bool {
	d.nameNode, _ = cName(w, d.nameNode)
	cQualified(w, d)
	return d.nameNode != nil
}

// cDeclarator turns one declarator of a declaration into a prototype,
// field or variable. typedefs have their own node type.
func cDeclarator(w *tsWalker, d *defSite) bool {
	name, isFunc := cName(w, d.node)
	if name == nil || w.c.typeIs(name, "primitive_type") {
		return false
	}
	d.nameNode = name
	switch {
	case isFunc:
		d.kind = KindFunction
	case w.c.typeIs(d.decl, "field_declaration"):
		d.kind = KindField
	}
	cQualified(w, d)
	return true
}

// cHasBody keeps struct/enum/class specifiers that define a body;
// "struct P x;" only refers to P.
func cHasBody(w *tsWalker, d *defSite) bool {
	return w.c.field(d.node, "body") != nil
}

// cTypedef names a typedef after its declarator and takes the kind of the
// type it names when that is a struct, union or enum.
func cTypedef(w *tsWalker, d *defSite) bool {
	d.nameNode, _ = cName(w, d.nameNode)
	d.name = textOf(w.src, d.nameNode)
	switch t := w.c.field(d.node, "type"); {
	case w.c.typeIs(t, "struct_specifier|union_specifier"):
		d.kind = KindStruct
	case w.c.typeIs(t, "enum_specifier"):
		d.kind = KindEnum
	}
	return d.nameNode != nil
}

func cExported(w *tsWalker, d *defSite) bool {
	if sc := w.innerScope(); sc != nil && sc.Kind == scopeType {
		return sc.Access
	}
	return !w.modifierText(d.decl, "", "static")
}

// cppAccess applies public:/protected:/private: labels to the members that
// follow in the class body.
func cppAccess(w *tsWalker, n *ts.Node) {
	sc := w.innerScope()
	if sc == nil || sc.Kind != scopeType || !w.c.typeIs(w.ancestor(1), "field_declaration_list") {
		return
	}
	sc.Access = strings.TrimSpace(textOf(w.src, n)) != "private"
}

// cInclude records #include "x.h" as x.h and <stdio.h> as stdio.h.
func cInclude(w *tsWalker, n *ts.Node) {
	if p := w.c.field(n, "path"); w.c.typeIs(p, "string_literal|system_lib_string") {
		w.addImport(unquoteDelims(textOf(w.src, p)), n)
	}
}
