package extract

import (
	"context"
	"fmt"
	"time"

	ts "github.com/odvcencio/gotreesitter"
)

// Tree is a parsed syntax tree of one file, for query-time resolution
// (index/resolve_py.go) that needs more of a file than extraction records.
// Release it when done.
type Tree struct {
	*ts.Tree
	Lang *ts.Language
}

// Root is the tree's root node.
func (t *Tree) Root() *ts.Node { return t.RootNode() }

// Type is n's node type in the tree's grammar.
func (t *Tree) Type(n *ts.Node) string { return n.Type(t.Lang) }

// Field is n's child in field name, or nil.
func (t *Tree) Field(n *ts.Node, name string) *ts.Node { return n.ChildByFieldName(name, t.Lang) }

// ParseTree parses src with the tree-sitter grammar of a language that has
// a tree-sitter extractor (For(lang)), on the extractor's pooled parsers
// and under the same budget as extraction.
func ParseTree(ctx context.Context, lang string, src []byte, budget time.Duration) (*Tree, error) {
	e, ok := For(lang).(*tsExtractor)
	if !ok {
		return nil, fmt.Errorf("parse %s: no tree-sitter grammar", lang)
	}
	c, err := e.load()
	if err != nil {
		return nil, err
	}
	tree, _, err := e.parse(ctx, c, src, false, budget)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", lang, err)
	}
	return &Tree{Tree: tree, Lang: c.lang}, nil
}
