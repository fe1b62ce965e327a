package extract

import (
	"context"
	"testing"
	"time"
)

// TestParentLinks: a walk up from any node of a tree reaches its root,
// for the grammars gotreesitter would parse on its forest path (see
// forest.go), so the resolvers' scope lookups see every enclosing scope.
func TestParentLinks(t *testing.T) {
	for _, c := range []struct{ lang, src string }{
		{"javascript", "function f(a) { return a.b; }\nconst g = (x) => f(x);\nmodule.exports = { f, g };\n"},
		{"csharp", "class A { int M(int x) { return F(G(x)) + x; } }\n"},
		{"bash", "f() { local x=1; echo \"$(g \"$x\")\"; }\n"},
	} {
		tree, err := ParseTree(context.Background(), c.lang, []byte(c.src), 5*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		root := tree.RootNode()
		for off := range len(c.src) {
			n := root.DescendantForByteRange(uint32(off), uint32(off))
			for steps := 0; n != nil && n != root; steps++ {
				if steps > 100 {
					t.Fatalf("%s: no root above offset %d", c.lang, off)
				}
				p := n.Parent()
				if p == nil {
					t.Errorf("%s: %s at offset %d (%q) has no parent below the root", c.lang, n.Type(tree.Lang), off, c.src[n.StartByte():n.EndByte()])
					break
				}
				n = p
			}
		}
	}
}
