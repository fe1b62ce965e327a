package provider

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// fuzzKey builds an API key of a realistic shape from fuzz input: "sk-"
// and at least nine characters of [A-Za-z0-9_-] without "s", so the only
// "s" in it is its first byte and "sk-" marks where a copy of it starts.
func fuzzKey(tail string) (string, bool) {
	var b strings.Builder
	b.WriteString("sk-")
	for _, r := range tail {
		switch {
		case r == 's':
			b.WriteByte('x')
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		}
	}
	return b.String(), b.Len() >= 12
}

// FuzzErrorBody classifies error responses (an HTTP error status with any
// body and headers) and error events inside a stream, with the API key
// echoed somewhere in the body. Classification never panics, an HTTP
// error always yields an *APIError, and no part of the key long enough to
// identify it (its first 8 bytes) appears in the error. A context overflow
// is never retried.
func FuzzErrorBody(f *testing.F) {
	seeds := []string{
		``, `not json at all`, `{}`, `null`, `[]`, `{"error":null}`, `{"error":""}`,
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded: "}}`,
		`{"error":{"message":"Incorrect API key provided: ","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
		`{"error":{"message":"m","code":""}}`,
		`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum "}}`,
		`{"error":{"message":"too long ","type":"invalid_request_error","code":"context_length_exceeded"}}`,
		`{"error":{"code":500,"message":"the request exceeds the available context size ","type":"exceed_context_size_error"}}`, `{"error":{"type":"","message":"m"}}`,
		`{"error":"model 'x' not found, key "}`, `{"message":"Unauthorized "}`,
		`<html><body><h1>502 Bad Gateway</h1> ` + strings.Repeat("padding ", 40) + `</body></html>`,
		strings.Repeat("x", 290),
	}
	for i, s := range seeds {
		// The key goes inside the message when there is one, else first.
		pos := 0
		if j := strings.Index(s, `"message":"`); j >= 0 {
			pos = j + len(`"message":"`)
		}
		f.Add(429+i, s, "test-SECRET-0123456789", uint16(pos), "5", "true")
		f.Add(0, s, "abcdefghijklmnop", uint16(pos), "", "")
	}
	now := fixedNow
	f.Fuzz(func(t *testing.T, status int, filler, tail string, pos uint16, after, shouldRetry string) {
		key, ok := fuzzKey(tail)
		if !ok || strings.Contains(filler, "sk-") || strings.ContainsRune(filler, '\\') {
			return
		}
		at := int(pos) % (len(filler) + 1)
		body := []byte(filler[:at] + key + filler[at:])
		h := http.Header{}
		h.Set("Retry-After", after)
		h.Set("X-Should-Retry", shouldRetry)

		var got failure
		if status == 0 {
			// An error event inside a 200 stream.
			streamErr := func(error) (*APIError, bool) { return streamAPIError(NameOpenAICompatible, body), true }
			got = classify(NameOpenAICompatible, key, now, errors.New("stream error"), &recorder{called: true, status: 200}, streamErr)
		} else {
			status = 400 + (status%200+200)%200
			rec := &recorder{called: true, status: status, header: h, body: body}
			noStreamErr := func(error) (*APIError, bool) { return nil, false }
			got = classify(NameAnthropic, key, now, errors.New("http error"), rec, noStreamErr)
			if ae, isAPI := errors.AsType[*APIError](got.err); !isAPI || ae.StatusCode != status {
				t.Fatalf("status %d: classified as %T %v", status, got.err, got.err)
			}
		}
		if got.err == nil {
			t.Fatal("no error")
		}
		if msg := got.err.Error(); strings.Contains(msg, key[:8]) {
			t.Fatalf("key %q leaks into the error for body %q:\n%s", key, body, msg)
		}
		if errors.Is(got.err, ErrContextOverflow) && got.retryable {
			t.Fatalf("context overflow classified as retryable: %v", got.err)
		}
		if got.hasAfter && got.retryAfter < 0 {
			t.Fatalf("negative Retry-After %v", got.retryAfter)
		}
	})
}
