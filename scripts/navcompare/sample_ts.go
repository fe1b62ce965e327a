package main

import (
	"os"
	"path/filepath"
	"strings"

	ts "github.com/odvcencio/gotreesitter"
	"github.com/odvcencio/gotreesitter/grammars"
)

// siteRule picks, from one node of a tree-sitter tree, the identifier node
// that is a call's callee or an attribute's name, or nil.
type siteRule struct {
	grammar string
	pick    func(n *ts.Node, lang *ts.Language) *ts.Node
}

// pythonSites: the callee of f(...) and the name of every x.attr (calls
// x.f(...) included), except dunders (__init__, __name__), which a judge
// answers with its own stubs.
var pythonSites = siteRule{grammar: "python", pick: func(n *ts.Node, lang *ts.Language) *ts.Node {
	switch n.Type(lang) {
	case "call":
		if f := n.ChildByFieldName("function", lang); f != nil && f.Type(lang) == "identifier" {
			return f
		}
	case "attribute":
		if a := n.ChildByFieldName("attribute", lang); a != nil && a.Type(lang) == "identifier" {
			return a
		}
	}
	return nil
}}

// typescriptSites: the callee of f(...) and the property of every x.p.
var typescriptSites = siteRule{grammar: "typescript", pick: func(n *ts.Node, lang *ts.Language) *ts.Node {
	switch n.Type(lang) {
	case "call_expression", "new_expression":
		field := "function"
		if n.Type(lang) == "new_expression" {
			field = "constructor"
		}
		if f := n.ChildByFieldName(field, lang); f != nil && f.Type(lang) == "identifier" {
			return f
		}
	case "member_expression":
		if p := n.ChildByFieldName("property", lang); p != nil && p.Type(lang) == "property_identifier" {
			return p
		}
	}
	return nil
}}

// cVariableSites: identifiers used as values in a function body (not a
// call's callee, not a declarator's name): locals, parameters, globals.
var cVariableSites = siteRule{grammar: "c", pick: func(n *ts.Node, lang *ts.Language) *ts.Node {
	if n.Type(lang) != "identifier" {
		return nil
	}
	p := n.Parent()
	if p == nil {
		return nil
	}
	same := func(field string) bool {
		f := p.ChildByFieldName(field, lang)
		return f != nil && f.StartByte() == n.StartByte() && f.EndByte() == n.EndByte()
	}
	if same("function") || same("declarator") || strings.HasPrefix(p.Type(lang), "preproc") {
		return nil
	}
	for a := p; a != nil; a = a.Parent() {
		if a.Type(lang) == "function_definition" {
			return n
		}
	}
	return nil
}}

// treeSitterSites parses one file and lists the sites rule picks, skipping
// those with a non-ASCII byte before them on their line (byte and UTF-16
// columns then differ) and dunder names.
func treeSitterSites(abs string, rule siteRule) []site {
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil
	}
	grammar := rule.grammar
	if rule.grammar == "typescript" && filepath.Ext(abs) == ".tsx" {
		grammar = "tsx"
	}
	entry := grammars.DetectLanguageByName(grammar)
	if entry == nil || entry.Language == nil {
		return nil
	}
	lang := entry.Language()
	p := ts.NewParser(lang)
	var tree *ts.Tree
	if entry.TokenSourceFactory != nil {
		tree, err = p.ParseWithTokenSourceFactory(src, func(b []byte) (ts.TokenSource, error) {
			return entry.TokenSourceFactory(b, lang), nil
		})
	} else {
		tree, err = p.Parse(src)
	}
	if err != nil || tree == nil {
		return nil
	}
	defer tree.Release()
	var out []site
	var walk func(n *ts.Node)
	walk = func(n *ts.Node) {
		if id := rule.pick(n, lang); id != nil {
			if s, ok := siteOf(src, id); ok {
				out = append(out, s)
			}
		}
		for i, c := 0, n.ChildCount(); i < c; i++ {
			walk(n.Child(i))
		}
	}
	walk(tree.RootNode())
	return out
}

func siteOf(src []byte, id *ts.Node) (site, bool) {
	name := id.Text(src)
	if strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") {
		return site{}, false
	}
	off := int(id.StartByte())
	lineStart := off
	for lineStart > 0 && src[lineStart-1] != '\n' {
		lineStart--
	}
	for _, c := range src[lineStart:off] {
		if c >= 0x80 {
			return site{}, false
		}
	}
	pt := id.StartPoint()
	return site{Line: pt.Row, Col: pt.Column, Name: name}, true
}
