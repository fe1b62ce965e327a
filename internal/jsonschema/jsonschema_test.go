package jsonschema

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
			got, err := Of(tt.typ)
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
		if _, err := Of(bad); err == nil {
			t.Errorf("Of(%s): want error", bad)
		}
	}
}

func TestDecode(t *testing.T) {
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
			_, err := Decode[schemaAll](json.RawMessage(tt.input))
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
	p, err := Decode[schemaAll](json.RawMessage(`{"name":"n","on":true,"items":[{"a":"z"}],"tags":["t"]}`))
	if err != nil || p.Name != "n" || !p.On || len(p.Items) != 1 || p.Items[0].A != "z" || p.Tags[0] != "t" {
		t.Fatalf("decoded %+v, %v", p, err)
	}
}
