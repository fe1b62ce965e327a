package tools

import (
	"strings"
	"testing"
)

// TestFindAtLocals: find_definition and find_references at a position on
// a Java local answer as the language server does (nav.LocalAt):
// the local's declaration, not the field named like it, and its uses in
// its method, not the other method's parameter x.
func TestFindAtLocals(t *testing.T) {
	w := ftIndex(t, ftNew(t, map[string]string{
		"demo/Shapes.java": "class Shapes {\n    int x;\n    int area(int w) {\n        int x = w;\n        return x + this.x;\n    }\n    void other(String x) { use(x); }\n}\n",
	}))
	out := ftOK(t, findDefinitionTool, w.env, map[string]any{"path": "demo/Shapes.java", "line": 5, "column": 16})
	if !strings.HasPrefix(out, "demo/Shapes.java:4: variable x") || strings.Contains(out, "Shapes.java:2:") {
		t.Errorf("definition of the local x:\n%s", out)
	}
	out = ftOK(t, findReferencesTool, w.env, map[string]any{"path": "demo/Shapes.java", "line": 5, "column": 16})
	if g, want := refLocations(out), "demo/Shapes.java:4:13 demo/Shapes.java:5:16"; g != want {
		t.Errorf("references of the local x:\n got %s\nwant %s\n%s", g, want, out)
	}
}
