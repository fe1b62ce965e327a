package tools

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/parleyhq/parley/agent/access"
)

// ftNamed is a minimal tool for registry tests.
type ftNamed struct {
	name   string
	schema string
}

func (n ftNamed) Name() string        { return n.name }
func (n ftNamed) Description() string { return "test tool " + n.name }
func (n ftNamed) Schema() json.RawMessage {
	if n.schema != "" {
		return json.RawMessage(n.schema)
	}
	return json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
}
func (ftNamed) ReadOnly() bool                              { return true }
func (ftNamed) Prepare(*Env, json.RawMessage) (Call, error) { return ftNamedCall{}, nil }

type ftNamedCall struct{}

func (ftNamedCall) Access() access.Access                { return access.Access{Kind: access.Read} }
func (ftNamedCall) Run(context.Context) (*Result, error) { return &Result{}, nil }

func TestRegistry(t *testing.T) {
	r, err := NewRegistry(ftNamed{name: "b"}, ftNamed{name: "a"}, ftNamed{name: "c"})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"b", "a", "c"}) {
		t.Errorf("order %v", got)
	}
	if tool, ok := r.Get("a"); !ok || tool.Name() != "a" {
		t.Errorf("Get(a) = %v, %v", tool, ok)
	}
	if _, ok := r.Get("zz"); ok {
		t.Error("Get(zz) found something")
	}
	specs := r.Specs()
	if len(specs) != 3 || specs[0].Name != "b" || specs[0].Description != "test tool b" || !json.Valid(specs[0].InputSchema) {
		t.Errorf("specs %+v", specs)
	}
	sub, err := r.Subset("c", "b", "c")
	if err != nil {
		t.Fatal(err)
	}
	if got := sub.Names(); !reflect.DeepEqual(got, []string{"b", "c"}) {
		t.Errorf("subset order %v", got)
	}
	if _, err := r.Subset("a", "nope", "nada"); err == nil || !strings.Contains(err.Error(), `"nope" "nada"`) {
		t.Errorf("subset with unknown names: %v", err)
	}
	tools := r.Tools()
	tools[0] = nil // a copy: the registry is unaffected
	if r.Tools()[0] == nil {
		t.Error("Tools returned the internal slice")
	}
}

func TestRegistryRejects(t *testing.T) {
	tests := []struct {
		name  string
		tools []Tool
		want  string
	}{
		{"duplicate", []Tool{ftNamed{name: "x"}, ftNamed{name: "x"}}, `duplicate tool name "x"`},
		{"nil", []Tool{nil}, "is nil"},
		{"bad name", []Tool{ftNamed{name: "has space"}}, "invalid tool name"},
		{"empty name", []Tool{ftNamed{name: ""}}, "invalid tool name"},
		{"bad schema", []Tool{ftNamed{name: "s", schema: `{"type":"string"}`}}, "not a JSON object schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegistry(tt.tools...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestFileToolsRegister(t *testing.T) {
	r, err := NewRegistry(FileTools()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"read_file", "write_file", "edit_file", "multi_edit", "file_delta", "delete_file", "move_file", "list_dir", "glob", "grep", "file_info",
		"outline", "get_symbol", "find_definition", "find_references", "get_dependencies", "get_dependents", "get_complexity", "get_todos", "todo_write"} {
		tool, ok := r.Get(name)
		if !ok {
			t.Errorf("missing %s", name)
			continue
		}
		edits := name == "write_file" || name == "edit_file" || name == "multi_edit" || name == "file_delta" ||
			name == "delete_file" || name == "move_file"
		if tool.ReadOnly() == edits {
			t.Errorf("%s: ReadOnly() = %v", name, tool.ReadOnly())
		}
	}
}
