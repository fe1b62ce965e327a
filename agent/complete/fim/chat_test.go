package fim_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/internal/fakellm"
)

// chatServer serves script on fakellm's chat endpoints and keeps the
// headers of the requests.
func chatServer(t *testing.T, script string) (url string, srv *fakellm.Server, headers func() []http.Header) {
	t.Helper()
	srv, err := fakellm.New([]byte(script), "")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var hs []http.Header
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hs = append(hs, r.Header.Clone())
		mu.Unlock()
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); s.Close() })
	return s.URL, srv, func() []http.Header {
		mu.Lock()
		defer mu.Unlock()
		return append([]http.Header(nil), hs...)
	}
}

func TestChat(t *testing.T) {
	for _, tc := range []struct {
		provider, path, model string
		header, value         string
		max, inBody           string // the output bound and the model as the body has them
	}{
		{fim.ProviderAnthropicChat, "", "claude-haiku-4-5", "X-Api-Key", key, `"max_tokens":128`, `"model":"claude-haiku-4-5"`},
		{fim.ProviderOpenAIChat, "/v1", "gpt-4.1-mini", "Authorization", "Bearer " + key, `"max_tokens":128`, `"model":"gpt-4.1-mini"`},
		// Gemini names the model in the URL, not the body.
		{fim.ProviderGeminiChat, "/v1beta", "gemini-2.5-flash", "X-Goog-Api-Key", key, `"maxOutputTokens":128`, `"systemInstruction"`},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			// The model fences its answer and repeats the line's start.
			url, srv, headers := chatServer(t, "key "+key+"\ntext ```go\\nreturn a + b\\n```\n")
			m, err := fim.New(fim.Config{Provider: tc.provider, URL: url + tc.path, Model: tc.model, APIKey: key})
			if err != nil {
				t.Fatal(err)
			}
			c, err := m.Complete(t.Context(), request)
			if err != nil {
				t.Fatal(err)
			}
			if c.Text != "a + b" {
				t.Errorf("Text = %q, want %q", c.Text, "a + b")
			}
			if h := headers(); len(h) != 1 || h[0].Get(tc.header) != tc.value {
				t.Errorf("headers %v, want %s", h, tc.header)
			}
			body := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(string(srv.Requests()[0]))
			for _, want := range []string{
				tc.max, `<FILL_HERE>`, `Add(a, b int) int {\n\treturn <FILL_HERE>\n}\n`,
				`<snippet path=\"calc/mul.go (lines 3-5, same package)\">`, "Complete the current line only",
				tc.inBody,
			} {
				if !strings.Contains(body, want) {
					t.Errorf("request body lacks %s:\n%s", want, body)
				}
			}
		})
	}
}

func TestChatErrors(t *testing.T) {
	url, srv, _ := chatServer(t, `status 429 {"type":"error","error":{"type":"rate_limit_error","message":"busy"}}`+"\n---\nwait\n")
	m, err := fim.New(fim.Config{Provider: fim.ProviderAnthropicChat, URL: url, Model: "claude", APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	// No retry: the first answer is the error.
	_, err = m.Complete(t.Context(), request)
	if err == nil || !strings.HasPrefix(err.Error(), "anthropic-chat: anthropic: HTTP 429") || !strings.Contains(err.Error(), "busy") {
		t.Fatalf("error %v", err)
	}
	// The next answer is held open: cancelling aborts it.
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() { _, err := m.Complete(ctx, request); errc <- err }()
	deadline := time.Now().Add(guard)
	for len(srv.Requests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "anthropic-chat: ") {
		t.Errorf("cancelled: %v", err)
	}
}

func TestCleanChat(t *testing.T) {
	r := fim.Request{Prefix: "func f() {\n\tx := foo(", Suffix: ")\n}\n", Multiline: true}
	for _, tc := range []struct{ answer, want string }{
		{"a, b", "a, b"},
		{"a, b)", "a, b"},
		{"```\na, b\n```", "a, b"},
		{"```go\na, b", "a, b"},
		{"\tx := foo(a, b)", "a, b"},
		{"x := foo(a, b", "a, b"},
		{"a<FILL_HERE>, b", "a, b"},
		{"", ""},
	} {
		if got := fim.CleanChat(r, tc.answer); got != tc.want {
			t.Errorf("cleanChat(%q) = %q, want %q", tc.answer, got, tc.want)
		}
	}
}
