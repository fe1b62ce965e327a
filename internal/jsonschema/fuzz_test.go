package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// checkDecodeRoundTrip decodes model-supplied input into P: the decoding
// either fails with an *InputError or yields a value that marshals to
// input Decode accepts again, decoding to the same value (compared
// through its JSON form, so a nil and an empty omitempty slice count as
// equal).
func checkDecodeRoundTrip[P any](t *testing.T, input []byte) {
	t.Helper()
	p, err := Decode[P](input)
	if err != nil {
		if _, ok := errors.AsType[*InputError](err); !ok {
			t.Fatalf("Decode[%T](%q): error %T is not an *InputError: %v", p, input, err, err)
		}
		return
	}
	first, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("Decode[%T](%q) = %+v, which does not marshal: %v", p, input, p, err)
	}
	again, err := Decode[P](first)
	if err != nil {
		t.Fatalf("Decode[%T](%q) = %+v, but its JSON %s is refused: %v", p, input, p, first, err)
	}
	second, err := json.Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Fatalf("Decode[%T](%q): round trip changed the value:\n first %s\nsecond %s", p, input, first, second)
	}
}

// FuzzDecodeInput feeds arbitrary tool-call arguments (the seeds are
// calls of the shell, edit, todo and grep tools) to Decode for the schema
// tests' struct that has every supported kind and for one shaped like
// file_delta's operations (an enum, a range and an optional string inside
// array items).
type schemaOps struct {
	Path       string     `json:"path"`
	Operations []schemaOp `json:"operations"`
}

type schemaOp struct {
	Op      string  `json:"op" jsonschema:"enum=insert|delete|replace"`
	Line    int     `json:"line" jsonschema:"minimum=1"`
	EndLine int     `json:"end_line,omitempty" jsonschema:"minimum=1"`
	Content *string `json:"content,omitempty"`
}

func FuzzDecodeInput(f *testing.F) {
	for _, s := range []string{
		``, `null`, `{}`, `[]`, `"x"`, `1`, `{"command":"ls -la"}`,
		`{"command":"go test ./...","timeout_seconds":30,"workdir":"sub"}`,
		`{"command":"x","timeout_seconds":1.5}`, `{"command":"x","timeout_seconds":1e2}`,
		`{"command":"x","timeout_seconds":99999999999999999999}`, `{"Command":"x"}`,
		`{"path":"a.go","old_string":"foo","new_string":"bar","replace_all":true}`,
		`{"path":"a.go","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"","replace_all":true}]}`,
		`{"path":"a.go","edits":[null]}`,
		`{"path":"a.go","operations":[{"op":"insert","line":1,"content":"x\n"},{"op":"delete","line":3,"end_line":4}]}`,
		`{"path":"a.go","operations":[{"op":"replace","line":2,"content":""}]}`,
		`{"path":"a.go","operations":[{"op":"bogus","line":0}]}`,
		`{"todos":[{"content":"Run the tests","status":"in_progress","active_form":"Running the tests"}]}`,
		`{"todos":[]}`,
		`{"pattern":"func \\w+","glob":"*.go","context":2,"max_results":10,"case_insensitive":true}`,
		`{"name":"n","count":3,"ratio":-0,"on":false,"mode":"fast","tags":[],"items":[{"a":"x","b":-1}],"ptr":{"a":""}}`,
		`{"name":"\ud800","on":true,"items":[],"ratio":1e308}`,
		`{"command":"a","command":"b"}`, `{"command":"\u0000"}`, "{\"command\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		checkDecodeRoundTrip[schemaAll](t, input)
		checkDecodeRoundTrip[schemaOps](t, input)
	})
}
