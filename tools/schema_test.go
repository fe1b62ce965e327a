package tools

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestFileToolSchemas checks every tool in the set: the schema is derived
// (no panic), is an object with additionalProperties false, and its
// required list names exactly the params without omitempty.
func TestFileToolSchemas(t *testing.T) {
	want := map[string][]string{
		"read_file": {"path"}, "write_file": {"path", "content"}, "edit_file": {"path", "old_string", "new_string"},
		"multi_edit": {"path", "edits"}, "file_delta": {"path", "operations"},
		"delete_file": {"path"}, "move_file": {"from", "to"}, "list_dir": nil, "glob": {"pattern"},
		"grep": {"pattern"}, "file_info": {"path"}, "outline": {"path"}, "get_symbol": {"name"},
		"find_definition": nil, "find_references": nil, "get_dependencies": {"path"}, // a name, or path, line and column
		"get_dependents": nil, "get_complexity": nil, "get_todos": nil, "get_diagnostics": nil, "todo_write": {"todos"},
	}
	tools := FileTools()
	if len(tools) != len(want) {
		t.Fatalf("FileTools has %d tools, want %d", len(tools), len(want))
	}
	for _, tool := range tools {
		var s struct {
			Type                 string          `json:"type"`
			Required             []string        `json:"required"`
			AdditionalProperties *bool           `json:"additionalProperties"`
			Properties           map[string]any  `json:"properties"`
			Raw                  json.RawMessage `json:"-"`
		}
		if err := json.Unmarshal(tool.Schema(), &s); err != nil {
			t.Fatalf("%s: %v", tool.Name(), err)
		}
		if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: schema %s", tool.Name(), tool.Schema())
		}
		if !reflect.DeepEqual(s.Required, want[tool.Name()]) {
			t.Errorf("%s: required %v, want %v", tool.Name(), s.Required, want[tool.Name()])
		}
		if strings.TrimSpace(tool.Description()) == "" {
			t.Errorf("%s: empty description", tool.Name())
		}
		// Every tool rejects unknown fields with a result naming them.
		env := &Env{}
		res, err := runTool(t.Context(), tool, env, json.RawMessage(`{"bogus_field":1}`))
		if err != nil || !res.IsError || !strings.Contains(res.Content, "bogus_field") {
			t.Errorf("%s: unknown field: %+v %v", tool.Name(), res, err)
		}
		if _, err := accessOf(tool, env, json.RawMessage(`{"bogus_field":1}`)); err == nil {
			t.Errorf("%s: Access accepted an unknown field", tool.Name())
		}
	}
}
