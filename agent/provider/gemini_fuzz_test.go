package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzGeminiStream serves arbitrary bytes as the answer to a Gemini
// streaming call, through the SSE reader and the accumulator. As for
// FuzzStream: Stream never panics; on success every tool call has an id
// and valid JSON input, and the text and thinking deltas add up to the
// assembled message's; the key (echoed by some seeds) never reaches the
// error nor the debug log.
func FuzzGeminiStream(f *testing.F) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", "gemini_*.sse"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range fixtures {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(0), data)
	}
	f.Add(uint8(0), []byte("data: {\"error\":{\"code\":500,\"message\":\"bad "+testKey+"\",\"status\":\"INTERNAL\"}}\r\n\r\n"))
	f.Add(uint8(1), []byte(googleErrorBody(429, "RESOURCE_EXHAUSTED", "slow "+testKey, `{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1e99s"}`)))
	f.Add(uint8(3), []byte(`[{"error":{"code":400,"message":"API key not valid `+testKey+`","status":"INVALID_ARGUMENT"}}]`))
	f.Add(uint8(2), []byte("<html>502 Bad Gateway</html>"))
	f.Add(uint8(0), []byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"x\",\"args\":null}},{\"text\":\"\",\"thoughtSignature\":\"s\"}]},\"finishReason\":\"STOP\"}]}\n\n"))
	f.Add(uint8(0), []byte("data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"a\"}]}}]}\ndata: {\"x\":1}\n\n"))
	f.Add(uint8(0), []byte(""))

	statuses := []int{200, 429, 500, 400}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		streamFuzzCase(t, NameGemini, "http://127.0.0.1:9", statuses[int(kind)%len(statuses)], body, true)
	})
}

// FuzzGeminiParameters converts arbitrary tool schemas: it never panics,
// and what it sends is an object schema with properties whose every node
// holds only fields of the API's Schema, each of the kind it takes, and
// required names of its own properties.
func FuzzGeminiParameters(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`,
		`{"$schema":"x","type":["object","null"],"properties":{"a":{"const":"k"},"b":{"oneOf":[{"type":"integer"},{}]},"c":{"items":[{"type":"string"}]}},"required":"a"}`,
		`{"properties":{"a":{"type":"array","items":{"properties":{"x":{"enum":[1,"a"]}},"required":["x","y"]}}}}`,
		`{"properties":{"a":"string","b":null,"c":{"description":5,"nullable":"yes","anyOf":"no"}}}`,
		`[]`, `null`, `{}`, `"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out := geminiParameters(raw)
		if out == nil {
			return
		}
		var s map[string]any
		if err := json.Unmarshal(out, &s); err != nil {
			t.Fatalf("%s: output %s is not an object: %v", raw, out, err)
		}
		if props, _ := s["properties"].(map[string]any); s["type"] != "object" || len(props) == 0 {
			t.Fatalf("%s: top level %s is not an object with properties", raw, out)
		}
		checkGeminiSchema(t, s, string(raw))
	})
}

func checkGeminiSchema(t *testing.T, s map[string]any, in string) {
	t.Helper()
	for k, v := range s {
		kind, ok := geminiSchemaKeys[k]
		if !ok || !kind.fits(v) {
			t.Fatalf("%s: field %q = %#v is not the API's", in, k, v)
		}
	}
	if typ, ok := s["type"].(string); ok && !geminiTypes[typ] {
		t.Fatalf("%s: type %q", in, typ)
	}
	props, _ := s["properties"].(map[string]any)
	if v, ok := s["properties"]; (ok || s["type"] == "object") && len(props) == 0 {
		t.Fatalf("%s: properties %#v of type %v", in, v, s["type"])
	}
	for _, p := range props {
		m, ok := p.(map[string]any)
		if !ok {
			t.Fatalf("%s: property %#v is not a schema", in, p)
		}
		checkGeminiSchema(t, m, in)
	}
	req, _ := s["required"].([]any)
	for _, r := range req {
		if props[r.(string)] == nil {
			t.Fatalf("%s: required %q is no property", in, r)
		}
	}
	if v, ok := s["items"]; ok {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: items %#v", in, v)
		}
		checkGeminiSchema(t, m, in)
	}
	if v, ok := s["anyOf"]; ok {
		alts, ok := v.([]any)
		if !ok || len(alts) == 0 {
			t.Fatalf("%s: anyOf %#v", in, v)
		}
		for _, a := range alts {
			m, ok := a.(map[string]any)
			if !ok {
				t.Fatalf("%s: anyOf member %#v", in, a)
			}
			checkGeminiSchema(t, m, in)
		}
	}
}
