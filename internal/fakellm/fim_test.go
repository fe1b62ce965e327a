package fakellm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fakellm"
)

func TestParseFIM(t *testing.T) {
	for _, tc := range []struct{ name, script, err string }{
		{name: "rules", script: "key K\nfim => x\nfim a => b\nfim a =>\nfimstatus => 429 {}\nfimdelay 5\ntext hi\n---\nfim b => c\n"},
		{name: "no arrow", script: "fim abc", err: `line 1: fim needs "PREFIX_END => ANSWER"`},
		{name: "bad status", script: "fimstatus x => 200 {}", err: `line 1: bad fimstatus code "200"`},
		{name: "bad delay", script: "fimdelay soon", err: `line 1: bad fimdelay "soon"`},
		{name: "negative delay", script: "fimdelay -1", err: `line 1: bad fimdelay "-1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := fakellm.Parse([]byte(tc.script))
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("Parse error = %v, want %q", err, tc.err)
			}
		})
	}
}

// fimFormats are a request to each FIM format, with the prefix "P" and
// where each answer keeps its text.
var fimFormats = []struct {
	path, body string
	text       []any // get path to the completion text
}{
	{"/api/generate", `{"model":"m","prompt":"P","suffix":"S","stream":false,"options":{"num_predict":7,"stop":["\n"],"temperature":0.1}}`, []any{"response"}},
	{"/infill", `{"input_prefix":"P","input_suffix":"S","input_extra":[{"filename":"a.go","text":"x"}],"n_predict":7,"stop":["\n"]}`, []any{"content"}},
	{"/v1/fim/completions", `{"model":"m","prompt":"P","suffix":"S","max_tokens":7,"stop":["\n"],"temperature":0.1}`, []any{"choices", 0, "message", "content"}},
	{"/beta/completions", `{"model":"m","prompt":"P","suffix":"S","max_tokens":7,"stop":"\n"}`, []any{"choices", 0, "text"}},
	{"/v1/completions", `{"model":"m","prompt":"P","suffix":"S","max_tokens":7,"stop":["\n"]}`, []any{"choices", 0, "text"}},
}

func TestFIMFormats(t *testing.T) {
	logDir := filepath.Join(t.TempDir(), "log")
	f, err := fakellm.New([]byte("key K\nfim => default\nfim P => one\\ntwo\ntext chat\n"), logDir)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(f)
	defer hs.Close()
	for i, tc := range fimFormats {
		resp := post(t, t.Context(), hs.URL+tc.path, "K", tc.body)
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: status %d, %v", tc.path, resp.StatusCode, err)
		}
		// The rule's "one\ntwo" is cut at the stop sequence "\n".
		if got := get(out, tc.text...); got != "one" {
			t.Errorf("%s: text %v, want %q in %v", tc.path, got, "one", out)
		}
		if _, err := os.Stat(filepath.Join(logDir, "fim-"+string(rune('1'+i))+".json")); err != nil {
			t.Errorf("%s: not logged: %v", tc.path, err)
		}
	}
	reqs := f.FIMRequests()
	if len(reqs) != len(fimFormats) || len(f.Requests()) != 0 {
		t.Fatalf("%d FIM requests and %d chat requests, want %d and 0", len(reqs), len(f.Requests()), len(fimFormats))
	}
	for i, q := range reqs {
		if q.N != i+1 || q.Prefix != "P" || q.Suffix != "S" || q.MaxTokens != 7 || !reflect.DeepEqual(q.Stop, []string{"\n"}) || q.Header.Get("Authorization") != "Bearer K" {
			t.Errorf("request %d decoded as %+v", i+1, q)
		}
	}
	if want := []fakellm.FIMExtra{{Filename: "a.go", Text: "x"}}; !reflect.DeepEqual(reqs[1].Extra, want) || reqs[1].Format != fakellm.FIMLlamaCpp {
		t.Errorf("llama.cpp extra %+v", reqs[1].Extra)
	}
	if q := reqs[0]; q.Format != fakellm.FIMOllama || q.Model != "m" || q.Temperature == nil || *q.Temperature != 0.1 {
		t.Errorf("ollama request %+v", q)
	}
	// The chat script is untouched: its first block is still there.
	resp := post(t, t.Context(), hs.URL+"/v1/chat/completions", "K", `{"model":"m"}`)
	if evs := readEvents(t, resp.Body); len(evs) < 2 || !strings.Contains(evs[1].raw, "ch") {
		t.Errorf("chat answer after FIM requests: %v", evs)
	}
}

func TestFIMRules(t *testing.T) {
	url, srv := fakellm.Start(t, "fim => D\nfim {\\n => body\nfim x {\\n => longer\nfim 429 => wrong\nfimstatus busy => 429 {\"error\":\"slow down\"}\n")
	srv.AddFIMRule(fakellm.FIMRule{PrefixEnd: "x {\n", Text: "override"})
	for _, tc := range []struct {
		prefix, want string
		status       int
	}{
		{prefix: "nothing", want: "D"},
		{prefix: "a {\n", want: "body"},
		{prefix: "a {\n\t", want: "body"}, // trailing whitespace ignored
		{prefix: "x {\n", want: "override"},
		{prefix: "busy", status: 429, want: `{"error":"slow down"}`},
	} {
		b, _ := json.Marshal(map[string]any{"model": "m", "prompt": tc.prefix, "stream": false})
		resp := post(t, t.Context(), url+"/api/generate", "", string(b))
		got := body(resp)
		if tc.status != 0 {
			if resp.StatusCode != tc.status || got != tc.want {
				t.Errorf("%q: %d %s, want %d %s", tc.prefix, resp.StatusCode, got, tc.status, tc.want)
			}
			continue
		}
		var out map[string]any
		json.Unmarshal([]byte(got), &out)
		if out["response"] != tc.want || out["done"] != true {
			t.Errorf("%q: answer %s, want %q", tc.prefix, got, tc.want)
		}
	}
}

func TestFIMNoRule(t *testing.T) {
	url, _ := fakellm.Start(t, "")
	resp := post(t, t.Context(), url+"/v1/completions", "", `{"model":"m","prompt":"p"}`)
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	if get(out, "choices", 0, "text") != "" || out["object"] != "text_completion" {
		t.Errorf("answer without rules: %v", out)
	}
}

func TestFIMErrors(t *testing.T) {
	url, srv := fakellm.Start(t, "key K\nfim => x\n")
	for _, tc := range []struct {
		path, key, body string
		status          int
		want            string // substring of the body
	}{
		{"/api/generate", "bad", `{"model":"m","prompt":"p","stream":false}`, 401, `{"error":"invalid api key"}`},
		{"/infill", "bad", `{"input_prefix":"p"}`, 401, `"type":"authentication_error"`},
		{"/v1/fim/completions", "bad", `{"model":"m","prompt":"p"}`, 401, `"Unauthorized"`},
		{"/beta/completions", "", `{"model":"m","prompt":"p"}`, 401, `"invalid_api_key"`},
		{"/api/generate", "K", `{"model":"m","prompt":"p"}`, 400, "non-streaming only"},
		{"/v1/completions", "K", `{"model":"m","prompt":"p","stream":true}`, 400, "non-streaming only"},
		{"/v1/completions", "K", `{"prompt":"p"}`, 400, "model is required"},
		{"/v1/completions", "K", `{"model":"m","stop":3}`, 400, "stop is neither"},
		{"/infill", "K", `[1]`, 400, "not a JSON object"},
	} {
		resp := post(t, t.Context(), url+tc.path, tc.key, tc.body)
		if got := body(resp); resp.StatusCode != tc.status || !strings.Contains(got, tc.want) {
			t.Errorf("%s %s: %d %s, want %d with %q", tc.path, tc.body, resp.StatusCode, got, tc.status, tc.want)
		}
	}
	if n := len(srv.FIMRequests()); n != 9 {
		t.Errorf("%d FIM requests recorded, want 9", n)
	}
}

func TestFIMDelayCancel(t *testing.T) {
	url, srv := fakellm.Start(t, "fim => late\nfimdelay 60000\n")
	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, "POST", url+"/v1/fim/completions", strings.NewReader(`{"model":"m","prompt":"p"}`))
	errc := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	// Cancel once the server holds the request.
	deadline := time.Now().Add(guard)
	for len(srv.FIMRequests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("request error %v, want context.Canceled", err)
		}
	case <-time.After(guard):
		t.Fatal("cancelled request did not return")
	}
	wctx, wcancel := context.WithTimeout(t.Context(), guard)
	defer wcancel()
	if err := srv.WaitFIMCancelled(wctx, 1); err != nil {
		t.Fatal(err)
	}

	// A short delay is waited out and answered.
	srv.SetFIMDelay(time.Millisecond)
	resp := post(t, t.Context(), url+"/v1/fim/completions", "", `{"model":"m","prompt":"p"}`)
	if got := body(resp); resp.StatusCode != 200 || !strings.Contains(got, `"content":"late"`) {
		t.Errorf("delayed answer %d %s", resp.StatusCode, got)
	}
	if n := srv.FIMCancelled(); n != 1 {
		t.Errorf("FIMCancelled = %d, want 1", n)
	}
}
