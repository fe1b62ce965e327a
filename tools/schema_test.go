package tools

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type schemaInner struct {
	A string `json:"a" jsonschema:"description=inner a"`
	B *int   `json:"b,omitempty"`
}

type schemaAll struct {
	Name    string        `json:"name" jsonschema:"description=The name, with a comma"`
	Count   int           `json:"count,omitempty" jsonschema:"minimum=1,maximum=10,description=How many"`
	Ratio   float64       `json:"ratio,omitzero"`
	On      bool          `json:"on"`
	Mode    string        `json:"mode,omitempty" jsonschema:"enum=fast|slow"`
	Tags    []string      `json:"tags,omitempty"`
	Items   []schemaInner `json:"items"`
	Ptr     *schemaInner  `json:"ptr,omitempty"`
	Skipped string        `json:"-"`
	//lint:ignore U1000 present to check that unexported fields are skipped
	private string
}

type schemaEmpty struct{}

type schemaBadTag struct {
	X string `json:"x" jsonschema:"bogus=1"`
}

type schemaBadType struct {
	M map[string]int `json:"m"`
}

func TestSchemaDerivation(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"empty", reflect.TypeFor[schemaEmpty](), `{"type":"object","properties":{},"additionalProperties":false}`},
		{"inner", reflect.TypeFor[schemaInner](),
			`{"type":"object","properties":{"a":{"type":"string","description":"inner a"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}`},
		{"all", reflect.TypeFor[schemaAll](), `{"type":"object","properties":{` +
			`"name":{"type":"string","description":"The name, with a comma"},` +
			`"count":{"type":"integer","description":"How many","minimum":1,"maximum":10},` +
			`"ratio":{"type":"number"},` +
			`"on":{"type":"boolean"},` +
			`"mode":{"type":"string","enum":["fast","slow"]},` +
			`"tags":{"type":"array","items":{"type":"string"}},` +
			`"items":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string","description":"inner a"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}},` +
			`"ptr":{"type":"object","properties":{"a":{"type":"string","description":"inner a"},"b":{"type":"integer"}},"required":["a"],"additionalProperties":false}` +
			`},"required":["name","on","items"],"additionalProperties":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SchemaOf(tt.typ)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("schema:\n got %s\nwant %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Error("schema is not valid JSON")
			}
		})
	}
	for _, bad := range []reflect.Type{reflect.TypeFor[schemaBadTag](), reflect.TypeFor[schemaBadType](), reflect.TypeFor[int]()} {
		if _, err := SchemaOf(bad); err == nil {
			t.Errorf("SchemaOf(%s): want error", bad)
		}
	}
}

func TestDecodeInput(t *testing.T) {
	tests := []struct {
		name, input, wantErr string
	}{
		{"ok", `{"name":"x","on":true,"items":[{"a":"1","b":2}],"count":3,"mode":"fast","ratio":1.5}`, ""},
		{"empty input is {}", ``, `missing required field "name"`},
		{"top-level null is {}", ` null `, `missing required field "name"`},
		{"not an object", `[1]`, `the arguments must be an object, got an array`},
		{"invalid JSON", `{"name":`, `not valid JSON`},
		{"unknown field", `{"name":"x","on":true,"items":[],"nmae":1}`, `unknown field "nmae" (allowed: name, count, ratio, on, mode, tags, items, ptr)`},
		{"unknown nested field", `{"name":"x","on":true,"items":[{"a":"1","c":1}]}`, `unknown field "items[0].c"`},
		{"missing required", `{"name":"x","items":[]}`, `missing required field "on"`},
		{"missing nested required", `{"name":"x","on":true,"items":[{}]}`, `missing required field "items[0].a"`},
		{"null required", `{"name":null,"on":true,"items":[]}`, `missing required field "name"`},
		{"null optional ok", `{"name":"x","on":true,"items":[],"count":null,"ptr":null}`, ""},
		{"wrong type", `{"name":5,"on":true,"items":[]}`, `field "name" must be a string, got an integer`},
		{"wrong bool", `{"name":"x","on":"yes","items":[]}`, `field "on" must be a boolean, got a string`},
		{"fraction for int", `{"name":"x","on":true,"items":[],"count":2.5}`, `field "count" must be an integer, got a number`},
		{"int ok for float", `{"name":"x","on":true,"items":[],"ratio":2}`, ""},
		{"below minimum", `{"name":"x","on":true,"items":[],"count":0}`, `field "count" must be at least 1, got 0`},
		{"above maximum", `{"name":"x","on":true,"items":[],"count":11}`, `field "count" must be at most 10, got 11`},
		{"enum", `{"name":"x","on":true,"items":[],"mode":"medium"}`, `field "mode" must be one of fast, slow, got "medium"`},
		{"array item type", `{"name":"x","on":true,"items":[],"tags":["a",1]}`, `field "tags[1]" must be a string, got an integer`},
		{"null array item", `{"name":"x","on":true,"items":[null]}`, `items[0] must not be null`},
		{"huge int", `{"name":"x","on":true,"items":[],"count":99999999999999999999}`, `must be an integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeInput[schemaAll](json.RawMessage(tt.input))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("want *InputError containing %q, got %v", tt.wantErr, err)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %q does not contain %q", err, tt.wantErr)
			}
		})
	}
	p, err := DecodeInput[schemaAll](json.RawMessage(`{"name":"n","on":true,"items":[{"a":"z"}],"tags":["t"]}`))
	if err != nil || p.Name != "n" || !p.On || len(p.Items) != 1 || p.Items[0].A != "z" || p.Tags[0] != "t" {
		t.Fatalf("decoded %+v, %v", p, err)
	}
}

// TestFileToolSchemas checks every tool in the set: the schema is derived
// (no panic), is an object with additionalProperties false, and its
// required list names exactly the params without omitempty.
func TestFileToolSchemas(t *testing.T) {
	want := map[string][]string{
		"read_file": {"path"}, "write_file": {"path", "content"}, "edit_file": {"path", "old_string", "new_string"},
		"multi_edit": {"path", "edits"}, "file_delta": {"path", "operations"},
		"delete_file": {"path"}, "move_file": {"from", "to"}, "list_dir": nil, "glob": {"pattern"},
		"grep": {"pattern"}, "file_info": {"path"}, "outline": {"path"}, "get_symbol": {"name"},
		"find_definition": {"name"}, "find_references": {"name"}, "get_dependencies": {"path"},
		"get_dependents": nil, "get_complexity": nil, "get_todos": nil, "todo_write": {"todos"},
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
		res, err := tool.Run(t.Context(), env, json.RawMessage(`{"bogus_field":1}`))
		if err != nil || !res.IsError || !strings.Contains(res.Content, "bogus_field") {
			t.Errorf("%s: unknown field: %+v %v", tool.Name(), res, err)
		}
		if _, err := tool.Access(env, json.RawMessage(`{"bogus_field":1}`)); err == nil {
			t.Errorf("%s: Access accepted an unknown field", tool.Name())
		}
	}
}
