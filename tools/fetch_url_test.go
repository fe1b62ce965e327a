package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
)

func fetchRun(t *testing.T, env *Env, u string) *Result {
	t.Helper()
	in, _ := json.Marshal(FetchURLParams{URL: u})
	res, err := runTool(context.Background(), fetchURLTool, env, in)
	if err != nil {
		t.Fatalf("fetch %s: %v", u, err)
	}
	return res
}

const fetchTestPage = `<!doctype html>
<html><head><title>  Guide &amp; Notes </title>
<style>body { color: red }</style><script>var secret = "script text";</script></head>
<body>
<nav><a href="/home">Home nav link</a></nav>
<h1>Getting   started</h1>
<p>First paragraph with a <a href="/docs/install">relative link</a> and
<code>inline code</code>.</p>
<p>Second <b>bold</b> paragraph.<br>After a break.</p>
<ul><li>one</li><li>two <ul><li>nested</li></ul></li></ul>
<ol><li>first</li><li>second</li></ol>
<pre>line 1
    indented line 2</pre>
<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
<noscript>enable javascript</noscript>
<div hidden>hidden text</div>
<a href="#top">anchor only</a> <a href="javascript:void(0)">js link</a>
<img src="x.png" alt="diagram">
</body></html>`

func TestFetchHTMLToText(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, fetchTestPage)
	}))
	defer srv.Close()
	res := fetchRun(t, &Env{HTTPClient: srv.Client()}, srv.URL+"/page")
	if res.IsError {
		t.Fatalf("result = %+v", res)
	}
	c := res.Content
	for _, want := range []string{
		"Title: Guide & Notes\n",
		"Content-Type: text/html\n",
		"# Getting started\n\nFirst paragraph with a [relative link](" + srv.URL + "/docs/install) and `inline code`.",
		"Second **bold** paragraph.  \nAfter a break.",
		"- one\n- two\n  \n  - nested",
		"1. first\n2. second",
		"```\nline 1\n    indented line 2\n```",
		"Name | Value\na | 1",
		"anchor only js link",
		"![diagram](" + srv.URL + "/x.png)",
	} {
		if !strings.Contains(c, want) {
			t.Errorf("missing %q in:\n%s", want, c)
		}
	}
	for _, gone := range []string{"script text", "color: red", "Home nav link", "enable javascript", "hidden text"} {
		if strings.Contains(c, gone) {
			t.Errorf("%q should be dropped:\n%s", gone, c)
		}
	}
}

func TestFetchMainOnly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><body><header>site header</header><main><p>the article</p></main><footer>footer</footer></body></html>`)
	}))
	defer srv.Close()
	res := fetchRun(t, &Env{HTTPClient: srv.Client()}, srv.URL)
	if !strings.HasSuffix(res.Content, "\n\nthe article") || strings.Contains(res.Content, "site header") {
		t.Errorf("content = %q", res.Content)
	}
}

func TestFetchTextTypesAsIs(t *testing.T) {
	bodies := map[string]struct{ ctype, body string }{
		"/plain": {"text/plain; charset=utf-8", "  line one\n\tline <b>two</b>\n"},
		"/json":  {"application/json", `{"a": [1, 2]}`},
		"/latin": {"text/plain; charset=iso-8859-1", "caf\xe9"},
		"/none":  {"", "just text, no type"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := bodies[r.URL.Path]
		w.Header()["Content-Type"] = []string{b.ctype}
		fmt.Fprint(w, b.body)
	}))
	defer srv.Close()
	env := &Env{HTTPClient: srv.Client()}
	for path, want := range map[string]string{
		"/plain": "\n\n  line one\n\tline <b>two</b>\n",
		"/json":  "\n\n{\"a\": [1, 2]}",
		"/latin": "\n\ncafé",
		"/none":  "\n\njust text, no type",
	} {
		res := fetchRun(t, env, srv.URL+path)
		if res.IsError || !strings.HasSuffix(res.Content, want) {
			t.Errorf("%s: %+v", path, res)
		}
	}
}

func TestFetchRefusesBinary(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/png":
			w.Header().Set("Content-Type", "image/png")
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
		}
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00binary"))
	}))
	defer srv.Close()
	for _, p := range []string{"/png", "/pdf", "/sniffed"} {
		res := fetchRun(t, &Env{HTTPClient: srv.Client()}, srv.URL+p)
		if !res.IsError || !strings.Contains(res.Content, "binary content") || strings.Contains(res.Content, "PNG") {
			t.Errorf("%s: %+v", p, res)
		}
	}
}

func TestFetchRefusesSchemes(t *testing.T) {
	for _, u := range []string{
		"file:///etc/passwd",
		"ftp://example.com/x",
		"data:text/plain,hello",
		"javascript:alert(1)",
		"gopher://example.com",
		"example.com/page",
		"/relative/path",
		"http://user:pass@example.com/",
		"https://token@example.com/",
		"http:///nohost",
	} {
		in, _ := json.Marshal(FetchURLParams{URL: u})
		_, err := accessOf(fetchURLTool, nil, in)
		var ie *jsonschema.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: Access err = %v", u, err)
		}
		res, err := runTool(context.Background(), fetchURLTool, &Env{}, in)
		if err != nil || !res.IsError {
			t.Errorf("%s: Run = %+v, %v", u, res, err)
		}
	}
	a, err := accessOf(fetchURLTool, nil, json.RawMessage(`{"url": "https://docs.example.com/a?b=c"}`))
	if err != nil || a.Kind != access.Network || a.URL != "https://docs.example.com/a?b=c" {
		t.Errorf("Access = %+v, %v", a, err)
	}
}

func TestFetchRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/hop/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/hop/"), "%d", &n)
		if n == 0 {
			fmt.Fprint(w, "arrived")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/tofile", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	env := &Env{HTTPClient: srv.Client()}

	res := fetchRun(t, env, srv.URL+"/hop/5")
	if res.IsError || !strings.HasSuffix(res.Content, "arrived") || !strings.Contains(res.Content, "URL: "+srv.URL+"/hop/0") {
		t.Errorf("5 redirects: %+v", res)
	}
	res = fetchRun(t, env, srv.URL+"/hop/6")
	if !res.IsError || !strings.Contains(res.Content, "redirects") {
		t.Errorf("6 redirects: %+v", res)
	}
	res = fetchRun(t, env, srv.URL+"/tofile")
	if !res.IsError || !strings.Contains(res.Content, "refused") || strings.Contains(res.Content, "root:") {
		t.Errorf("redirect to file: %+v", res)
	}
	if srv.Client().CheckRedirect != nil {
		t.Error("the caller's client was modified")
	}
}

func TestFetchSizeCapAndStatus(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.URL.Path == "/missing" {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, "<p>no such page</p>")
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		line := strings.Repeat("x", 99) + "\n"
		for range (3 << 20) / len(line) {
			if _, err := fmt.Fprint(w, line); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	env := &Env{HTTPClient: srv.Client()}
	res := fetchRun(t, env, srv.URL+"/big")
	if res.IsError || !strings.Contains(res.Content, "Truncated: yes") || len(res.Content) > fetchMaxText+1000 {
		t.Errorf("big: error %v, %d bytes, header %q", res.IsError, len(res.Content), res.Content[:200])
	}
	res = fetchRun(t, env, srv.URL+"/missing")
	if !res.IsError || !strings.Contains(res.Content, "404") || !strings.Contains(res.Content, "no such page") {
		t.Errorf("404: %+v", res)
	}
	if requests.Load() != 2 {
		t.Errorf("env.HTTPClient served %d requests, want 2", requests.Load())
	}
}

func TestFetchCancelled(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	in, _ := json.Marshal(FetchURLParams{URL: srv.URL})
	if _, err := runTool(ctx, fetchURLTool, &Env{HTTPClient: srv.Client()}, in); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}
