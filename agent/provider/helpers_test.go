package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// testKey is recognisable so tests can prove it never leaks.
const testKey = "sk-test-SECRET"

// fixedNow is the injected clock for Retry-After dates.
var fixedNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// seenRequest is what the fake API received.
type seenRequest struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// JSON decodes the request body.
func (r seenRequest) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.Body)
	}
	return m
}

// fakeAPI is an httptest server answering request i with handlers[i] (the
// last handler repeats) and recording every request.
type fakeAPI struct {
	srv      *httptest.Server
	mu       sync.Mutex
	seen     []seenRequest
	handlers []http.HandlerFunc
}

func newFakeAPI(t *testing.T, handlers ...http.HandlerFunc) *fakeAPI {
	t.Helper()
	f := &fakeAPI{handlers: handlers}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	n := len(f.seen)
	f.seen = append(f.seen, seenRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	h := f.handlers[min(n, len(f.handlers)-1)]
	f.mu.Unlock()
	h(w, r)
}

func (f *fakeAPI) requests() []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seenRequest(nil), f.seen...)
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sse replays a recorded stream byte for byte.
func sse(t *testing.T, fixture string) http.HandlerFunc {
	body := readFixture(t, fixture)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	}
}

// sseThenDrop sends a recorded prefix, then cuts the connection without
// finishing the chunked body, as a crashed server or proxy would.
func sseThenDrop(t *testing.T, fixture string) http.HandlerFunc {
	body := readFixture(t, fixture)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
}

// sseThenHang sends a prefix and then waits for the client to go away.
func sseThenHang(t *testing.T, fixture string, done <-chan struct{}) http.HandlerFunc {
	body := readFixture(t, fixture)
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}
}

// dropBeforeResponse closes the connection without any response.
func dropBeforeResponse(w http.ResponseWriter, r *http.Request) {
	panic(http.ErrAbortHandler)
}

// errorResponse answers with status, a JSON body and extra headers.
func errorResponse(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// fakeClock records requested sleeps and returns at once.
type fakeClock struct {
	mu     sync.Mutex
	sleeps []time.Duration
}

func (c *fakeClock) sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	return ctx.Err()
}

func (c *fakeClock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// newTestProvider builds a provider against f with a fake clock.
func newTestProvider(t *testing.T, name string, f *fakeAPI, edit ...func(*Config)) (Provider, *fakeClock) {
	t.Helper()
	clock := &fakeClock{}
	cfg := Config{
		Provider:       name,
		APIURL:         f.srv.URL,
		APIKey:         testKey,
		Model:          "test-model",
		HTTPClient:     f.srv.Client(),
		RetryBaseDelay: time.Millisecond,
		sleep:          clock.sleep,
		now:            func() time.Time { return fixedNow },
	}
	for _, e := range edit {
		e(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p, clock
}

// collect gathers deltas.
type collect struct{ deltas []Delta }

func (c *collect) add(d Delta) { c.deltas = append(c.deltas, d) }

// text concatenates the Text of deltas of one kind.
func (c *collect) text(kind DeltaKind) string {
	var b strings.Builder
	for _, d := range c.deltas {
		if d.Kind == kind {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

// at walks decoded JSON: string keys index objects, ints index arrays.
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %v: %T is not an object", path, v)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("at %v: cannot index %T with %d", path, v, k)
			}
			v = a[k]
		}
	}
	return v
}

func simpleRequest() *Request {
	return &Request{Messages: []Message{{Role: RoleUser, Blocks: []Block{{Kind: BlockText, Text: "hi"}}}}}
}
