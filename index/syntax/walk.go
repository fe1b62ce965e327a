package syntax

import (
	ts "github.com/odvcencio/gotreesitter"
)

// Walk calls fn on every node under n in source order; fn returns false
// to skip a node's children.
func Walk(n *ts.Node, fn func(*ts.Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for i, c := 0, n.ChildCount(); i < c; i++ {
		Walk(n.Child(i), fn)
	}
}
