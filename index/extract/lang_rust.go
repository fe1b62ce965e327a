package extract

import ts "github.com/odvcencio/gotreesitter"

// Rust: functions, methods (impl blocks are pseudo scopes named after their
// type, so methods get Container "Type"), structs, unions, enums and
// variants, fields, traits (as interfaces) and their items, modules,
// consts, statics, type aliases, macro_rules. Exported means pub; enum
// variants, trait items and trait-impl methods are public through their
// parent. use paths, extern crate and mod x; are imports.
func init() {
	registerTS(&langSpec{
		name:    "rust",
		grammar: "rust",
		defs: []defRule{
			{typ: "function_item", kind: KindFunction, name: "name", scope: scopeFunc},
			{typ: "function_signature_item", kind: KindFunction, name: "name"},
			{typ: "struct_item|union_item", kind: KindStruct, name: "name", scope: scopeType, custom: rustPrivateMembers},
			{typ: "enum_item", kind: KindEnum, name: "name", scope: scopeType},
			{typ: "enum_variant", kind: KindEnumMember, name: "name"},
			{typ: "field_declaration", kind: KindField, name: "name"},
			{typ: "trait_item", kind: KindInterface, name: "name", scope: scopeType},
			{typ: "impl_item", name: "type", scope: scopeType, custom: rustImpl},
			{typ: "mod_item", kind: KindModule, name: "name", scope: scopeNS, custom: rustPrivateMembers},
			{typ: "const_item", kind: KindConstant, name: "name"},
			{typ: "static_item", kind: KindVariable, name: "name"},
			{typ: "type_item", kind: KindClass, name: "name"},
			{typ: "macro_definition", kind: KindFunction, name: "name"},
		},
		idents: []identRule{{typ: "identifier|type_identifier|field_identifier|shorthand_field_identifier"}},
		calls:  map[string]string{"call_expression": "function", "macro_invocation": "macro"},
		callees: map[string]string{"field_expression": "field", "scoped_identifier": "name",
			"generic_function": "function"},
		imports: map[string]func(*tsWalker, *ts.Node){
			"use_declaration":          rustUse,
			"extern_crate_declaration": func(w *tsWalker, n *ts.Node) { w.addImport(textOf(w.src, w.c.field(n, "name")), n) },
			"mod_item":                 rustMod,
		},

		comments:  "line_comment|block_comment",
		branches:  "if_expression|for_expression|while_expression|match_arm",
		branchOps: "&& ||",
		opParents: "binary_expression",
		docSkip:   "attribute_item",
		exported: func(w *tsWalker, d *defSite) bool {
			if w.c.firstOf(d.node, "visibility_modifier") != nil {
				return true
			}
			sc := w.innerScope()
			return sc != nil && sc.Access
		},
	})
}

// rustPrivateMembers: struct fields and module items need their own pub.
func rustPrivateMembers(w *tsWalker, d *defSite) bool {
	d.membersPrivate = true
	return true
}

// rustImpl names the pseudo scope after the implemented type (impl<T>
// Foo<T> is "Foo"); methods of trait impls are public through the trait.
func rustImpl(w *tsWalker, d *defSite) bool {
	for i := 0; i < 4 && d.nameNode != nil; i++ {
		switch {
		case w.c.typeIs(d.nameNode, "generic_type"):
			d.nameNode = w.c.field(d.nameNode, "type")
		case w.c.typeIs(d.nameNode, "scoped_type_identifier"):
			d.nameNode = w.c.field(d.nameNode, "name")
		case w.c.typeIs(d.nameNode, "reference_type|pointer_type"):
			d.nameNode = w.c.field(d.nameNode, "type")
		}
	}
	d.name = textOf(w.src, d.nameNode)
	d.membersPrivate = w.c.field(d.node, "trait") == nil
	return true
}

// rustUse records the path of a use declaration: "use a::b::{c, d}" is
// a::b, "use a::b as c" is a::b, "use a::*" is a::*.
func rustUse(w *tsWalker, n *ts.Node) {
	arg := w.c.field(n, "argument")
	for i := 0; i < 4 && arg != nil; i++ {
		if !w.c.typeIs(arg, "scoped_use_list|use_as_clause") {
			break
		}
		p := w.c.field(arg, "path")
		if p == nil {
			break // use {a, b} has no path
		}
		arg = p
	}
	if w.c.typeIs(arg, "use_list|scoped_use_list") {
		return
	}
	w.addImport(squash(textOf(w.src, arg)), n)
}

// rustMod records "mod x;" (a file module) as an import of x.
func rustMod(w *tsWalker, n *ts.Node) {
	if w.c.field(n, "body") == nil {
		w.addImport(textOf(w.src, w.c.field(n, "name")), n)
	}
}
