package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
)

// printTree prints gotreesitter's tree of a file in -lang: node types,
// fields, 0-based row:column ranges and the text of leaves.
func printTree(path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	t, err := extract.ParseTree(context.Background(), lang, src, 10*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer t.Release()
	var pr func(n *ts.Node, field string, depth int)
	pr = func(n *ts.Node, field string, depth int) {
		s, e := n.StartPoint(), n.EndPoint()
		txt := ""
		if n.ChildCount() == 0 {
			txt = fmt.Sprintf(" %q", src[n.StartByte():n.EndByte()])
		}
		if field != "" {
			field += ": "
		}
		fmt.Printf("%s%s%s [%d:%d-%d:%d]%s\n", strings.Repeat("  ", depth), field, t.Type(n), s.Row, s.Column, e.Row, e.Column, txt)
		for i := 0; i < n.ChildCount(); i++ {
			pr(n.Child(i), n.FieldNameForChild(i, t.Lang), depth+1)
		}
	}
	pr(t.Root(), "", 0)
}
