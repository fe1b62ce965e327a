package fakellm_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/fakellm"
)

const geminiPath = "/v1beta/models/fake-model:streamGenerateContent?alt=sse"

func postGemini(t *testing.T, url, key, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-Goog-Api-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// geminiBody is a request whose last turn is the user's text.
func geminiBody(extra string) string {
	return `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]` + extra + `}`
}

func TestGeminiStream(t *testing.T) {
	url, f := fakellm.Start(t, "key K\ntext Hello\ntool read_file {\"path\":\"a.go\"}\ntool grep {\"pattern\":\"x\"}\n")
	resp := postGemini(t, url+geminiPath, "K", geminiBody(""))
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, Content-Type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body(resp))
	}
	raw := body(resp)
	if strings.Count(raw, "\r\n\r\n") != 5 {
		t.Fatalf("want 5 CRLF-terminated events:\n%q", raw)
	}
	var chunks []any
	sc := bufio.NewScanner(strings.NewReader(raw))
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var v any
			if err := json.Unmarshal([]byte(d), &v); err != nil {
				t.Fatalf("event %q: %v", d, err)
			}
			chunks = append(chunks, v)
		}
	}
	sig := base64.StdEncoding.EncodeToString([]byte("fakellm-thought-1"))
	checks := []struct {
		chunk int
		path  []any
		want  any
	}{
		{0, []any{"candidates", 0, "content", "role"}, "model"},
		{0, []any{"candidates", 0, "content", "parts", 0, "text"}, "He"},
		{1, []any{"candidates", 0, "content", "parts", 0, "text"}, "llo"},
		{2, []any{"candidates", 0, "content", "parts", 0, "functionCall", "name"}, "read_file"},
		{2, []any{"candidates", 0, "content", "parts", 0, "functionCall", "args", "path"}, "a.go"},
		{2, []any{"candidates", 0, "content", "parts", 0, "functionCall", "id"}, nil},
		{2, []any{"candidates", 0, "content", "parts", 0, "thoughtSignature"}, sig},
		{3, []any{"candidates", 0, "content", "parts", 0, "functionCall", "name"}, "grep"},
		{3, []any{"candidates", 0, "content", "parts", 0, "thoughtSignature"}, nil},
		{3, []any{"candidates", 0, "finishReason"}, nil},
		{4, []any{"candidates", 0, "finishReason"}, "STOP"},
		{4, []any{"usageMetadata", "promptTokenCount"}, 100.0},
		{4, []any{"usageMetadata", "candidatesTokenCount"}, 20.0},
		{4, []any{"modelVersion"}, "fake-model"},
	}
	for _, c := range checks {
		if got := get(chunks[c.chunk], c.path...); got != c.want {
			t.Errorf("chunk %d %v = %v, want %v", c.chunk, c.path, got, c.want)
		}
	}
	if len(f.Requests()) != 1 {
		t.Errorf("Requests() = %q", f.Requests())
	}
}

func TestGeminiGenerateContent(t *testing.T) {
	url, _ := fakellm.Start(t, "text Hello\n")
	resp := postGemini(t, url+"/v1beta/models/fake-model:generateContent", "", geminiBody(""))
	var v any
	if err := json.Unmarshal([]byte(body(resp)), &v); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d: %v", resp.StatusCode, err)
	}
	if get(v, "candidates", 0, "content", "parts", 0, "text") != "Hello" || get(v, "candidates", 0, "finishReason") != "STOP" {
		t.Errorf("answer %v", v)
	}
}

// A wrong key gets the API's answer, 400 API_KEY_INVALID, and uses up
// its block; a mistake in the request is refused with the API's message
// and uses up none.
func TestGeminiKeyAndChecks(t *testing.T) {
	url, f := fakellm.Start(t, "key K\ntext one\n---\ntext two\n")
	resp := postGemini(t, url+geminiPath, "wrong", geminiBody(""))
	if b := body(resp); resp.StatusCode != 400 || !strings.Contains(b, "API_KEY_INVALID") {
		t.Errorf("wrong key: %d %s", resp.StatusCode, b)
	}
	sig := base64.StdEncoding.EncodeToString([]byte("fakellm-thought-3"))
	call := `{"role":"model","parts":[{"functionCall":{"name":"read_file","args":{}}%s}]}`
	answer := `{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"x"}}}]}`
	refused := []struct{ name, body, want string }{
		{"schema field", geminiBody(`,"tools":[{"functionDeclarations":[{"name":"t","parameters":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}}]}]`),
			`Unknown name \"additionalProperties\" at 'tools[0].function_declarations[0].parameters'`},
		{"empty object", geminiBody(`,"tools":[{"functionDeclarations":[{"name":"t","parameters":{"type":"object","properties":{}}}]}]`),
			"should be non-empty for OBJECT type"},
		{"role", `{"contents":[{"role":"assistant","parts":[{"text":"x"}]}]}`, "valid role"},
		{"empty part", `{"contents":[{"role":"user","parts":[{}]}]}`, "required oneof field 'data'"},
		{"unanswered call", `{"contents":[{"role":"user","parts":[{"text":"hi"}]},` + fmt.Sprintf(call, `,"thoughtSignature":"`+sig+`"`) + `,{"role":"user","parts":[{"text":"more"}]}]}`,
			"number of function response parts"},
		{"no signature", `{"contents":[{"role":"user","parts":[{"text":"hi"}]},` + fmt.Sprintf(call, "") + `,` + answer + `]}`,
			"missing a thought_signature"},
		{"changed signature", `{"contents":[{"role":"user","parts":[{"text":"hi"}]},` + fmt.Sprintf(call, `,"thoughtSignature":"AAAA"`) + `,` + answer + `]}`,
			"Corrupted thought signature"},
	}
	for _, r := range refused {
		resp := postGemini(t, url+geminiPath, "K", r.body)
		if b := body(resp); resp.StatusCode != 400 || !strings.Contains(b, "INVALID_ARGUMENT") || !strings.Contains(b, r.want) {
			t.Errorf("%s: %d %s", r.name, resp.StatusCode, b)
		}
	}
	// An earlier turn's calls need no signature; the current one's has it.
	ok := `{"contents":[{"role":"user","parts":[{"text":"hi"}]},` + fmt.Sprintf(call, "") + `,` + answer +
		`,{"role":"user","parts":[{"text":"next"}]},` + fmt.Sprintf(call, `,"thoughtSignature":"`+sig+`"`) + `,` + answer + `]}`
	resp = postGemini(t, url+geminiPath, "K", ok)
	if b := body(resp); resp.StatusCode != 200 || !strings.Contains(b, `"text":"t"`) {
		t.Errorf("valid request: %d %s", resp.StatusCode, b)
	}
	if n := len(f.Requests()); n != 2+len(refused) {
		t.Errorf("%d requests", n)
	}
}

func TestGeminiWindow(t *testing.T) {
	url, f := fakellm.Start(t, "window 50\ntext fits\n")
	long := strings.Repeat("word ", 100)
	resp := postGemini(t, url+geminiPath, "", `{"contents":[{"role":"user","parts":[{"text":"`+long+`"}]}]}`)
	if b := body(resp); resp.StatusCode != 400 || !strings.Contains(b, "The input token count (") ||
		!strings.Contains(b, "exceeds the maximum number of tokens allowed (50).") {
		t.Errorf("over the window: %d %s", resp.StatusCode, b)
	}
	// The output cap does not count, as the API counts.
	resp = postGemini(t, url+geminiPath, "", geminiBody(`,"generationConfig":{"maxOutputTokens":1000}`))
	if b := body(resp); resp.StatusCode != 200 || !strings.Contains(b, `"promptTokenCount":`) {
		t.Errorf("within the window: %d %s", resp.StatusCode, b)
	}
	if r := f.Refused(); len(r) != 1 || r[0] != 1 {
		t.Errorf("Refused() = %v", r)
	}
}
