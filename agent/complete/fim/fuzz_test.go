package fim

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds response bodies, which come from a server the user
// configured and may be anything, to every parser: none may panic, an
// error excerpt is bounded, valid UTF-8 and free of the key.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","response":"x","done":true}`,
		`{"content":"x","stop":true}`,
		`{"choices":[{"message":{"content":"x"}}]}`,
		`{"choices":[{"message":{"content":[{"type":"text","text":"x"}]}}]}`,
		`{"choices":[{"text":"x"}]}`,
		`{"error":{"message":"bad key sk-1"}}`,
		`{"error":"sk-1"}`, `{"detail":[1]}`, "```go\nx\n```", "\xff\xfe", `null`, `[]`,
	} {
		f.Add([]byte(s))
	}
	const key = "sk-1"
	f.Fuzz(func(t *testing.T, body []byte) {
		parseOllama(body)
		parseLlamaCpp(body)
		parseCodestral(body)
		parseCompletions(body)
		e := excerpt(body, key)
		if len(e) > maxExcerpt+3 || !utf8.ValidString(e) || strings.Contains(e, key) {
			t.Errorf("excerpt %q", e)
		}
		r := Request{Prefix: string(body), Suffix: string(body)}
		if c := finish(r, cleanChat(r, string(body))); strings.ContainsAny(c, "\n") {
			t.Errorf("single-line completion %q has a line break", c)
		}
	})
}
