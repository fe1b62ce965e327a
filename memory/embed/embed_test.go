package embed

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// wireServer answers with OpenAI's documented embeddings format: vectors
// [len(input), index+1, 0] (so each is distinct and checkable), after
// failing the first len(fail) requests with the given statuses.
type wireServer struct {
	mu     sync.Mutex
	fail   []int
	bodies []map[string]any
	auth   []string
	answer func(inputs []string) string // optional override of the body
}

func (ws *wireServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req map[string]any
	json.Unmarshal(body, &req)
	ws.mu.Lock()
	n := len(ws.bodies)
	ws.bodies = append(ws.bodies, req)
	ws.auth = append(ws.auth, r.Header.Get("Authorization"))
	ws.mu.Unlock()
	if r.URL.Path != "/v1/embeddings" {
		http.Error(w, "wrong path "+r.URL.Path, 404)
		return
	}
	if n < len(ws.fail) {
		w.Header().Set("Retry-After-Ms", "1")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ws.fail[n])
		fmt.Fprintf(w, `{"error":{"message":"failure %d","type":"server_error"}}`, n+1)
		return
	}
	var inputs []string
	for _, x := range req["input"].([]any) {
		inputs = append(inputs, x.(string))
	}
	w.Header().Set("Content-Type", "application/json")
	if ws.answer != nil {
		io.WriteString(w, ws.answer(inputs))
		return
	}
	var data []string
	for i, in := range inputs {
		data = append(data, fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[%d,%d,0]}`, i, len(in), i+1))
	}
	fmt.Fprintf(w, `{"object":"list","data":[%s],"model":%q,"usage":{"prompt_tokens":3,"total_tokens":3}}`, strings.Join(data, ","), req["model"])
}

type memCache struct {
	mu sync.Mutex
	m  map[[32]byte][]float32
}

func (c *memCache) GetEmbedding(k [32]byte) ([]float32, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok, nil
}

func (c *memCache) PutEmbeddings(ks [][32]byte, vs [][]float32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range ks {
		c.m[k] = vs[i]
	}
	return nil
}

func start(t *testing.T, ws *wireServer, cfg Config) *Client {
	t.Helper()
	hs := httptest.NewServer(ws)
	t.Cleanup(hs.Close)
	cfg.URL = hs.URL + "/v1/embeddings"
	if cfg.Model == "" {
		cfg.Model = "m1"
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEmbedWireFormatAndBatching(t *testing.T) {
	ws := &wireServer{}
	c := start(t, ws, Config{Key: "sk-secret", BatchSize: 2})
	texts := []string{"aa", "bbb", "aa", "c", "dddd"}
	got, err := c.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	// Distinct texts aa, bbb, c, dddd in batches of two: two requests.
	if len(ws.bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(ws.bodies))
	}
	for i, b := range ws.bodies {
		if b["model"] != "m1" || b["encoding_format"] != "float" || len(b["input"].([]any)) != 2 {
			t.Errorf("request %d body %v", i+1, b)
		}
		if ws.auth[i] != "Bearer sk-secret" {
			t.Errorf("request %d Authorization %q", i+1, ws.auth[i])
		}
	}
	for i, v := range got {
		// [len, index+1, 0] normalised.
		if len(v) != 3 || v[0] <= 0 || v[2] != 0 {
			t.Errorf("vector %d = %v", i, v)
		}
		var sum float32
		for _, x := range v {
			sum += x * x
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("vector %d not unit length: %v", i, sum)
		}
	}
	if fmt.Sprint(got[0]) != fmt.Sprint(got[2]) {
		t.Errorf("duplicate input got different vectors %v %v", got[0], got[2])
	}
}

func TestEmbedRetries(t *testing.T) {
	ws := &wireServer{fail: []int{429, 503, 500}}
	c := start(t, ws, Config{})
	if _, err := c.Embed(context.Background(), []string{"x"}); err != nil {
		t.Fatalf("after three retryable failures: %v", err)
	}
	if len(ws.bodies) != 4 {
		t.Errorf("%d attempts, want 4", len(ws.bodies))
	}
}

func TestEmbedErrors(t *testing.T) {
	tests := []struct {
		name  string
		ws    *wireServer
		cfg   Config
		texts []string
		want  string
		reqs  int
	}{
		{"400 not retried", &wireServer{fail: []int{400}}, Config{Key: "sk-secret"}, []string{"x"}, "HTTP 400: failure 1", 1},
		{"401", &wireServer{fail: []int{401}}, Config{Key: "sk-secret"}, []string{"x"}, "HTTP 401", 1},
		{"retries exhausted", &wireServer{fail: []int{500, 500, 500}}, Config{MaxRetries: 2}, []string{"x"}, "HTTP 500: failure 3", 3},
		{"no retries", &wireServer{fail: []int{429}}, Config{MaxRetries: -1}, []string{"x"}, "HTTP 429", 1},
		{"empty input", &wireServer{}, Config{}, []string{"x", " "}, "input 2 is empty", 0},
		{"too few vectors", &wireServer{answer: func([]string) string {
			return `{"object":"list","data":[],"model":"m1","usage":{"prompt_tokens":0,"total_tokens":0}}`
		}}, Config{}, []string{"x"}, "0 vectors for 1 inputs", 1},
		{"bad index", &wireServer{answer: func([]string) string {
			return `{"object":"list","data":[{"object":"embedding","index":5,"embedding":[1]}],"model":"m1","usage":{"prompt_tokens":0,"total_tokens":0}}`
		}}, Config{}, []string{"x"}, "bad or repeated index 5", 1},
		{"zero vector", &wireServer{answer: func([]string) string {
			return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0,0]}],"model":"m1","usage":{"prompt_tokens":0,"total_tokens":0}}`
		}}, Config{}, []string{"x"}, "zero or not finite", 1},
		{"mixed dimensions", &wireServer{answer: func(in []string) string {
			return `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[1]},{"object":"embedding","index":1,"embedding":[1,2]}],"model":"m1","usage":{"prompt_tokens":0,"total_tokens":0}}`
		}}, Config{}, []string{"x", "y"}, "vectors of 1 and 2 dimensions", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t, tt.ws, tt.cfg)
			_, err := c.Embed(context.Background(), tt.texts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error leaks the key: %v", err)
			}
			if len(tt.ws.bodies) != tt.reqs {
				t.Errorf("%d requests, want %d", len(tt.ws.bodies), tt.reqs)
			}
		})
	}
}

func TestEmbedCache(t *testing.T) {
	ws := &wireServer{}
	cache := &memCache{m: map[[32]byte][]float32{}}
	c := start(t, ws, Config{Cache: cache})
	first, err := c.Embed(context.Background(), []string{"alpha", "beta"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Embed(context.Background(), []string{"beta", "alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.bodies) != 1 {
		t.Fatalf("%d requests, want 1 (the second call is cached)", len(ws.bodies))
	}
	if fmt.Sprint(first[0]) != fmt.Sprint(again[1]) {
		t.Errorf("cached vector differs")
	}
	// Only the new text is sent.
	if _, err := c.Embed(context.Background(), []string{"alpha", "gamma"}); err != nil {
		t.Fatal(err)
	}
	if in := ws.bodies[1]["input"].([]any); len(ws.bodies) != 2 || len(in) != 1 || in[0] != "gamma" {
		t.Errorf("second request %v", ws.bodies[1:])
	}
	// Another model does not share the cache.
	other := start(t, ws, Config{Cache: cache, Model: "m2"})
	if _, err := other.Embed(context.Background(), []string{"alpha"}); err != nil {
		t.Fatal(err)
	}
	if len(ws.bodies) != 3 {
		t.Errorf("another model's request was answered from the cache")
	}
}

func TestBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.openai.com/v1/embeddings": "https://api.openai.com/v1/",
		"http://localhost:11434/v1":            "http://localhost:11434/v1/",
		"http://localhost:1234/v1/":            "http://localhost:1234/v1/",
	} {
		if got, err := BaseURL(in); err != nil || got != want {
			t.Errorf("BaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "localhost:1234", "ftp://x/v1", "https://"} {
		if _, err := BaseURL(bad); err == nil {
			t.Errorf("BaseURL(%q) accepted", bad)
		}
	}
	if _, err := New(Config{URL: "http://x/v1"}); err == nil {
		t.Error("New without a model accepted")
	}
}
