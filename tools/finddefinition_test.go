package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// A file path ranks the whole workspace from that file (index.SortDefinitions:
// the editor's go-to-definition order); a directory path restricts.
func TestFindDefinitionRanksFromFile(t *testing.T) {
	w := ftIndexed(t)
	for _, c := range []struct {
		path  string
		first []string // the output's lines, in order, by prefix
	}{
		{"", []string{"main.go:15: method Server.Serve", "util/util.go:9: function Serve"}},
		{"util/util.go", []string{"util/util.go:9: function Serve", "main.go:15: method Server.Serve"}},
		{"main.go", []string{"main.go:15: method Server.Serve", "util/util.go:9: function Serve"}},
		{"util", []string{"util/util.go:9: function Serve"}},
	} {
		t.Run(c.path, func(t *testing.T) {
			out := ftOK(t, findDefinitionTool, w.env, map[string]any{"name": "Serve", "path": c.path})
			var lines []string
			for l := range strings.Lines(out) {
				if !strings.HasPrefix(l, "    //") {
					lines = append(lines, l)
				}
			}
			if len(lines) != len(c.first) {
				t.Fatalf("path %q: got\n%s", c.path, out)
			}
			for i, want := range c.first {
				if !strings.HasPrefix(lines[i], want) {
					t.Errorf("path %q: line %d = %q, want prefix %q", c.path, i, lines[i], want)
				}
			}
		})
	}
	// The search was not narrowed to the file, so the message says so.
	out := ftOK(t, findDefinitionTool, w.env, map[string]any{"name": "Nope", "path": "util/util.go"})
	if !strings.Contains(out, "no symbol named Nope") || strings.Contains(out, "in util/util.go") {
		t.Errorf("not found: %q", out)
	}
}

// The approval line says what the search covers: a file orders the whole
// workspace, a directory restricts it.
func TestFindDefinitionAccessSummary(t *testing.T) {
	w := ftIndexed(t)
	for path, want := range map[string]string{
		"":             "find definition of Serve",
		"util/util.go": "find definition of Serve (ranked from util/util.go)",
		"util":         "find definition of Serve in util",
	} {
		in, _ := json.Marshal(map[string]any{"name": "Serve", "path": path})
		a, err := accessOf(findDefinitionTool, w.env, in)
		if err != nil || a.Summary != want {
			t.Errorf("path %q: summary %q (%v), want %q", path, a.Summary, err, want)
		}
	}
}
