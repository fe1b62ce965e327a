package fim_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/internal/fakellm"
)

// guard bounds every wait in these tests.
const guard = 10 * time.Second

const key = "sk-test-0123456789"

// request is the request every format test sends: Go, single-line, one
// snippet of context.
var request = fim.Request{
	Path:     "calc/add.go",
	Language: "go",
	Prefix:   "package calc\n\nfunc Add(a, b int) int {\n\treturn ",
	Suffix:   "\n}\n",
	Context: []fim.Snippet{{Path: "calc/mul.go", StartLine: 3, EndLine: 5, Why: "same package",
		Text: "func Mul(a, b int) int {\n\treturn a * b\n}\n"}},
}

// commented is request's prompt for the formats without a context field.
const commented = "// Path: calc/mul.go (lines 3-5, same package)\n" +
	"// func Mul(a, b int) int {\n" +
	"// \treturn a * b\n" +
	"// }\n" +
	"\n" +
	"// Path: calc/add.go\n" +
	"package calc\n\nfunc Add(a, b int) int {\n\treturn "

// script answers request with "a + b" and a second line the single-line
// stop sequence must cut.
const script = "key " + key + "\nfim => wrong\nfim \\treturn => a + b\\n}\n"

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		provider, path, model string
		want                  string // the exact JSON body sent
	}{
		{fim.ProviderOllama, "/api/generate", "qwen2.5-coder:1.5b",
			`{"model":"qwen2.5-coder:1.5b","prompt":` + q(commented) + `,"suffix":"\n}\n","stream":false,` +
				`"options":{"num_predict":128,"stop":["\n"],"temperature":0.2}}`},
		{fim.ProviderLlamaCpp, "/infill", "",
			`{"input_prefix":` + q(request.Prefix) + `,"input_suffix":"\n}\n",` +
				`"input_extra":[{"filename":"calc/mul.go","text":"func Mul(a, b int) int {\n\treturn a * b\n}\n"}],` +
				`"n_predict":128,"stop":["\n"],"temperature":0.2,"stream":false,"cache_prompt":true}`},
		{fim.ProviderCodestral, "/v1/fim/completions", "codestral-latest",
			`{"model":"codestral-latest","prompt":` + q(commented) + `,"suffix":"\n}\n","max_tokens":128,"stop":["\n"],"temperature":0.2,"stream":false}`},
		{fim.ProviderDeepSeek, "/beta/completions", "deepseek-chat",
			`{"model":"deepseek-chat","prompt":` + q(commented) + `,"suffix":"\n}\n","max_tokens":128,"stop":["\n"],"temperature":0.2,"stream":false}`},
		{fim.ProviderOpenAICompletions, "/v1/completions", "Qwen/Qwen2.5-Coder-7B",
			`{"model":"Qwen/Qwen2.5-Coder-7B","prompt":` + q(commented) + `,"suffix":"\n}\n","max_tokens":128,"stop":["\n"],"temperature":0.2,"stream":false}`},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			url, srv := fakellm.Start(t, script)
			m, err := fim.New(fim.Config{Provider: tc.provider, URL: url + tc.path, Model: tc.model, APIKey: key})
			if err != nil {
				t.Fatal(err)
			}
			if m.Name() != tc.provider {
				t.Errorf("Name = %q", m.Name())
			}
			c, err := m.Complete(t.Context(), request)
			if err != nil {
				t.Fatal(err)
			}
			if c.Text != "a + b" {
				t.Errorf("Text = %q, want %q", c.Text, "a + b")
			}
			reqs := srv.FIMRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests", len(reqs))
			}
			got := reqs[0]
			assertJSON(t, got.Body, tc.want)
			if h := got.Header.Get("Authorization"); h != "Bearer "+key {
				t.Errorf("Authorization %q", h)
			}
			if wantModel := tc.model; c.Model != wantModel && !(tc.provider == fim.ProviderLlamaCpp && c.Model == "fakellm-infill") {
				t.Errorf("Model = %q", c.Model)
			}
		})
	}
}

// q is s as a JSON string.
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// assertJSON fails unless got and want are the same JSON value.
func assertJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("body %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("body sent:\n%s\nwant:\n%s", got, want)
	}
}

func TestMultilineAndStops(t *testing.T) {
	url, srv := fakellm.Start(t, "fim => one\\ntwo<|endoftext|>junk\n")
	m, err := fim.New(fim.Config{Provider: fim.ProviderOllama, URL: url, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	r := fim.Request{Prefix: "x", Multiline: true, MaxTokens: 64, Stop: []string{"\n\n", "", "\n\n"}}
	c, err := m.Complete(t.Context(), r)
	if err != nil {
		t.Fatal(err)
	}
	if c.Text != "one\ntwo" {
		t.Errorf("Text = %q, want the two lines without the end-of-text token", c.Text)
	}
	got := srv.FIMRequests()[0]
	if !reflect.DeepEqual(got.Stop, []string{"\n\n"}) || got.MaxTokens != 64 || got.Header.Get("Authorization") != "" {
		t.Errorf("stop %q, max %d, auth %q", got.Stop, got.MaxTokens, got.Header.Get("Authorization"))
	}
	if got.Path != "/api/generate" {
		t.Errorf("base URL completed to %q", got.Path)
	}
}

func TestHTTPErrors(t *testing.T) {
	const body = `{"error":{"message":"slow down, key ` + key + ` is over its quota","type":"rate_limit"}}`
	for _, tc := range []struct {
		name, script, key string
		status            int
		want              string
	}{
		{"401", "key right\n", key, 401, "deepseek: HTTP 401 Unauthorized: invalid api key"},
		{"429", "fimstatus => 429 " + body + "\n", key, 429, "deepseek: HTTP 429 Too Many Requests: slow down, key [REDACTED] is over its quota"},
		{"500 text", "fimstatus => 500 upstream " + key + " " + strings.Repeat("x", 400) + "\n", key, 500, "deepseek: HTTP 500 Internal Server Error: upstream [REDACTED] xxx"},
		{"404 detail", `fimstatus => 404 {"detail":"Not Found"}` + "\n", key, 404, "deepseek: HTTP 404 Not Found: Not Found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, _ := fakellm.Start(t, tc.script)
			m, err := fim.New(fim.Config{Provider: fim.ProviderDeepSeek, URL: url + "/beta", APIKey: tc.key})
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.Complete(t.Context(), request)
			var he *fim.HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status {
				t.Fatalf("error %v, want an HTTPError %d", err, tc.status)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, key) || len(he.Excerpt) > 210 {
				t.Errorf("error %q, want it to start %q, without the key, excerpt bounded", msg, tc.want)
			}
		})
	}
}

func TestMalformed(t *testing.T) {
	url, _ := fakellm.Start(t, "fim => x\n")
	// llama.cpp's answer has no "response" field: Ollama's parser refuses it.
	m, err := fim.New(fim.Config{Provider: fim.ProviderOllama, URL: url + "/infill", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Complete(t.Context(), request); err == nil || !strings.Contains(err.Error(), "ollama: malformed response") {
		t.Errorf("error %v", err)
	}
}

func TestCancel(t *testing.T) {
	url, srv := fakellm.Start(t, "fim => late\nfimdelay 60000\n")
	m, err := fim.New(fim.Config{Provider: fim.ProviderCodestral, URL: url, APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	errc := make(chan error, 1)
	go func() {
		_, err := m.Complete(ctx, request)
		errc <- err
	}()
	deadline := time.Now().Add(guard)
	for len(srv.FIMRequests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "codestral: ") {
			t.Fatalf("error %v, want codestral: context canceled", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("returned %v after the cancellation", d)
		}
	case <-time.After(guard):
		t.Fatal("Complete did not return after the cancellation")
	}
	wctx, wcancel := context.WithTimeout(t.Context(), guard)
	defer wcancel()
	if err := srv.WaitFIMCancelled(wctx, 1); err != nil {
		t.Fatal(err)
	}
}

func TestTimeout(t *testing.T) {
	url, _ := fakellm.Start(t, "fim => late\nfimdelay 60000\n")
	m, err := fim.New(fim.Config{Provider: fim.ProviderLlamaCpp, URL: url, Timeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Complete(t.Context(), request)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "llamacpp: no answer within 20ms") {
		t.Errorf("error %v", err)
	}
}
