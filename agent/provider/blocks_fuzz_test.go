package provider

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzToolInput converts streamed tool-call arguments (whatever the model
// or a compatible server sent) into Block.Input and back. Block.Input is
// always valid JSON, malformed arguments survive the trip to OpenAI's
// string form unchanged, and the Anthropic replay is always an object.
func FuzzToolInput(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `{"path": "a.go"}`, `{"pa`, `"a string"`, `"unterminated`, `[1,2]`, `null`,
		`1e999`, `{"a":1}{"b":2}`, `{"a":"\ud800"}`, "{\"a\":\"\xff\"}", " \t{\"x\":[true,false,null]}\n ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		in := toolInput(args)
		if !json.Valid(in) {
			t.Fatalf("toolInput(%q) = %s, not valid JSON", args, in)
		}
		trimmed := strings.TrimSpace(args)
		if trimmed != "" && !json.Valid([]byte(trimmed)) && utf8.ValidString(trimmed) {
			if back := toolArguments(in); back != trimmed {
				t.Fatalf("malformed arguments %q came back as %q", trimmed, back)
			}
		}
		for _, raw := range []json.RawMessage{in, json.RawMessage(args)} {
			out := anthropicInput(raw)
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(out, &obj); err != nil || obj == nil {
				t.Fatalf("anthropicInput(%q) = %s, not a JSON object", raw, out)
			}
		}
		_ = toolArguments(json.RawMessage(args))
	})
}
