package lsp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/parleyhq/parley/agent/config"
)

func TestLuaObjects(t *testing.T) {
	type inner struct {
		List []string          `json:"list"`
		Map  map[string]string `json:"map"`
	}
	type outer struct {
		Name   string            `json:"name"`
		Inner  inner             `json:"inner"`
		Ptr    *inner            `json:"ptr"`
		Items  []inner           `json:"items"`
		ByKey  map[string]*inner `json:"byKey"`
		Raw    json.RawMessage   `json:"raw"`
		Any    any               `json:"any"`
		Untagd inner
		Skip   inner `json:"-"`
	}
	for _, tc := range []struct {
		name, in, want string
	}{
		{"top level", `[]`, `{}`},
		{"top level with blanks", " [ \n ] ", " {} "},
		{"empty object stays", `{}`, `{}`},
		{"null stays", `null`, `null`},
		{"nested struct", `{"inner":[]}`, `{"inner":{}}`},
		{"pointer to struct", `{"ptr": [ ]}`, `{"ptr": {}}`},
		{"map", `{"inner":{"map":[]}}`, `{"inner":{"map":{}}}`},
		{"list stays a list", `{"inner":{"list":[]}}`, `{"inner":{"list":[]}}`},
		{"elements of a list", `{"items":[[],{"map":[]}]}`, `{"items":[{},{"map":{}}]}`},
		{"map values", `{"byKey":{"a":[],"b":{"list":[]}}}`, `{"byKey":{"a":{},"b":{"list":[]}}}`},
		{"raw message is opaque", `{"raw":[]}`, `{"raw":[]}`},
		{"interface is opaque", `{"any":[]}`, `{"any":[]}`},
		{"unknown member", `{"other":[]}`, `{"other":[]}`},
		{"field name without tag", `{"Untagd":[]}`, `{"Untagd":{}}`},
		{"case-insensitive member", `{"INNER":[]}`, `{"INNER":{}}`},
		{"ignored field", `{"Skip":[]}`, `{"Skip":[]}`},
		{"string holding brackets", `{"name":"[]","inner":[]}`, `{"name":"[]","inner":{}}`},
		{"array where a string goes", `{"name":[]}`, `{"name":[]}`},
		{"invalid JSON unchanged", `{"inner":[]`, `{"inner":[]`},
		{"two values unchanged", `[] []`, `[] []`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(luaObjectsFor[outer]([]byte(tc.in))); got != tc.want {
				t.Errorf("luaObjects(%s) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

// The agent settings a Lua client sends: `permissions = {}` is an empty
// rule set, `allow = {}` an empty list.
func TestLuaObjectsAgentLayer(t *testing.T) {
	l, err := parseAgentLayer(json.RawMessage(`{"model":"m","permissions":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if l.Permissions == nil || l.Model == nil || *l.Model != "m" {
		t.Errorf("layer %+v", l)
	}
	for _, raw := range []string{`[]`, `{}`, `null`, ``} {
		if l, err := parseAgentLayer(json.RawMessage(raw)); err != nil || !reflect.DeepEqual(l, config.Layer{}) {
			t.Errorf("agent %q: %+v, %v; want an empty layer", raw, l, err)
		}
	}
	if _, err := parseAgentLayer(json.RawMessage(`{"permissions":{"allow":[]}}`)); err != nil {
		t.Errorf("empty allow list: %v", err)
	}
}

// FuzzLuaObjects: the rewrite never breaks valid JSON, only touches input
// the decoder would refuse, and is idempotent.
func FuzzLuaObjects(f *testing.F) {
	for _, s := range []string{`[]`, `{}`, `{"index":[]}`, `{"agent":[],"index":{"exclude":[]}}`,
		`{"logLevel":"[ ]","index":[ ]}`, `[[[]]]`, `{"index":{"exclude":[[]]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := luaObjectsFor[initOptions](in)
		if json.Valid(in) != json.Valid(out) {
			t.Fatalf("validity changed: %q -> %q", in, out)
		}
		var o initOptions
		if json.Unmarshal(in, &o) == nil && !bytes.Equal(in, out) {
			t.Fatalf("decodable input rewritten: %q -> %q", in, out)
		}
		if again := luaObjectsFor[initOptions](out); !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}
