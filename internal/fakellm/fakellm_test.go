package fakellm_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fakellm"
)

// guard bounds every wait in these tests; nothing sleeps.
const guard = 10 * time.Second

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		n            int    // responses, when err is ""
		err          string // substring of the error
	}{
		{name: "empty", script: "", n: 0},
		{name: "comments", script: "# hi\n\n# there\n", n: 0},
		{name: "blocks", script: "key K\ntext a\ntool t {}\n---\nstatus 429 {}\n---\nwait\n", n: 3},
		{name: "trailing separator", script: "text a\n---\n", n: 1},
		{name: "unknown", script: "text a\nbogus x", err: `line 2: unknown directive "bogus x"`},
		{name: "key not first", script: "text a\nkey K", err: `line 2: unknown directive "key K"`},
		{name: "tool not json", script: "tool read_file {path}", err: "line 1: tool input is not JSON"},
		{name: "tool no input", script: "tool read_file", err: "line 1: tool input is not JSON"},
		{name: "bad status", script: "status abc {}", err: `line 1: bad status "abc"`},
		{name: "wait with args", script: "wait 5", err: `line 1: unknown directive "wait 5"`},
		{name: "wait with status", script: "text a\n---\nwait\nstatus 500 {}\n---\n", err: "line 3: wait cannot be combined with status"},
		{name: "wait with status at end", script: "status 500 {}\nwait", err: "line 2: wait cannot be combined with status"},
		{name: "window and summarize", script: "key K\nwindow 8000\nsummarize MARK\ntext a\n", n: 1},
		{name: "bad window", script: "window lots", err: `line 1: bad window "lots"`},
		{name: "zero window", script: "window 0", err: `line 1: bad window "0"`},
		{name: "summarize without marker", script: "summarize", err: "line 1: summarize needs a marker"},
		{name: "window after a block", script: "text a\nwindow 10", err: `line 2: unknown directive "window 10"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := fakellm.Parse([]byte(tc.script))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse error = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Len() != tc.n {
				t.Errorf("Len = %d, want %d", s.Len(), tc.n)
			}
		})
	}
}

type event struct {
	name string         // "event:" line, "" if none
	raw  string         // data payload
	data map[string]any // raw decoded, nil for [DONE]
}

// readEvent reads one SSE event from r.
func readEvent(t *testing.T, r *bufio.Reader) (event, error) {
	t.Helper()
	var ev event
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if ev.raw != "[DONE]" {
				if err := json.Unmarshal([]byte(ev.raw), &ev.data); err != nil {
					t.Fatalf("event data %q: %v", ev.raw, err)
				}
			}
			return ev, nil
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.raw = strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("unexpected SSE line %q", line)
		}
	}
}

func readEvents(t *testing.T, body io.Reader) []event {
	t.Helper()
	r := bufio.NewReader(body)
	var evs []event
	for {
		ev, err := readEvent(t, r)
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, ev)
	}
}

func post(t *testing.T, ctx context.Context, url, key, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// body reads a response body whole.
func body(resp *http.Response) string {
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// get returns m[k1][k2]..., with ints indexing arrays.
func get(v any, path ...any) any {
	for _, p := range path {
		switch p := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[p]
		case int:
			a, _ := v.([]any)
			if p >= len(a) {
				return nil
			}
			v = a[p]
		}
	}
	return v
}

func TestOpenAIStream(t *testing.T) {
	logDir := filepath.Join(t.TempDir(), "log")
	f, err := fakellm.New([]byte("text Hello\ntool read_file {\"path\":\"a.go\"}\n"), logDir)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(f)
	defer hs.Close()

	resp := post(t, t.Context(), hs.URL+"/v1/chat/completions", "", `{"model":"m"}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	evs := readEvents(t, resp.Body)
	if n := len(evs); n < 3 || evs[n-1].raw != "[DONE]" {
		t.Fatalf("stream does not end in [DONE]: %v", evs)
	}
	chunks := evs[:len(evs)-1]
	var text, args, toolID, toolName, finish string
	for i, ev := range chunks {
		if ev.name != "" || get(ev.data, "object") != "chat.completion.chunk" || get(ev.data, "id") != "chatcmpl-1" {
			t.Fatalf("chunk %d: not a chat.completion.chunk of chatcmpl-1: event %q %s", i, ev.name, ev.raw)
		}
		if i == len(chunks)-1 { // usage chunk
			if len(get(ev.data, "choices").([]any)) != 0 || get(ev.data, "usage", "total_tokens") != 120.0 {
				t.Errorf("last chunk is not the usage chunk: %s", ev.raw)
			}
			continue
		}
		delta := get(ev.data, "choices", 0, "delta")
		if i == 0 && get(delta, "role") != "assistant" {
			t.Errorf("first chunk has no assistant role: %s", ev.raw)
		}
		if s, ok := get(delta, "content").(string); ok {
			text += s
		}
		if tc := get(delta, "tool_calls", 0); tc != nil {
			if get(tc, "index") != 0.0 {
				t.Errorf("tool call index: %s", ev.raw)
			}
			if id, ok := get(tc, "id").(string); ok {
				toolID, toolName = id, get(tc, "function", "name").(string)
				if get(tc, "type") != "function" {
					t.Errorf("tool call type: %s", ev.raw)
				}
			}
			args += get(tc, "function", "arguments").(string)
		}
		if fr, ok := get(ev.data, "choices", 0, "finish_reason").(string); ok {
			finish = fr
		}
	}
	if text != "Hello" || toolID != "call_1_0" || toolName != "read_file" || args != `{"path":"a.go"}` || finish != "tool_calls" {
		t.Errorf("got text %q, tool %q %q args %q, finish %q", text, toolID, toolName, args, finish)
	}

	logged, err := os.ReadFile(filepath.Join(logDir, "req-1.json"))
	if err != nil || string(logged) != `{"model":"m"}` {
		t.Errorf("req-1.json = %q, %v", logged, err)
	}
	if reqs := f.Requests(); len(reqs) != 1 || string(reqs[0]) != `{"model":"m"}` {
		t.Errorf("Requests() = %q", reqs)
	}
}

func TestAnthropicStream(t *testing.T) {
	url, f := fakellm.Start(t, "text Let me look.\ntool read_file {\"path\":\"a.go\"}\n")
	resp := post(t, t.Context(), url+"/v1/messages", "", `{}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	evs := readEvents(t, resp.Body)
	var names []string
	for _, ev := range evs {
		if get(ev.data, "type") != ev.name {
			t.Errorf("event %q carries type %v", ev.name, get(ev.data, "type"))
		}
		names = append(names, ev.name)
	}
	want := "message_start " +
		"content_block_start content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_stop " +
		"message_delta message_stop"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	checks := []struct {
		ev   int
		path []any
		want any
	}{
		{0, []any{"message", "id"}, "msg_1"},
		{0, []any{"message", "role"}, "assistant"},
		{1, []any{"content_block", "type"}, "text"},
		{2, []any{"delta", "type"}, "text_delta"},
		{2, []any{"delta", "text"}, "Let me look."},
		{3, []any{"index"}, 0.0},
		{4, []any{"index"}, 1.0},
		{4, []any{"content_block", "type"}, "tool_use"},
		{4, []any{"content_block", "id"}, "toolu_1_1"},
		{4, []any{"content_block", "name"}, "read_file"},
		{5, []any{"delta", "type"}, "input_json_delta"},
		{5, []any{"delta", "partial_json"}, `{"path":"a.go"}`},
		{7, []any{"delta", "stop_reason"}, "tool_use"},
		{7, []any{"usage", "output_tokens"}, 20.0},
	}
	for _, c := range checks {
		if got := get(evs[c.ev].data, c.path...); got != c.want {
			t.Errorf("event %d %v = %v, want %v", c.ev, c.path, got, c.want)
		}
	}
	if len(f.Requests()) != 1 {
		t.Errorf("Requests() = %q", f.Requests())
	}
}

func TestKeyAndStatus(t *testing.T) {
	url, f := fakellm.Start(t, "key K\ntext one\n---\ntext two\n---\nstatus 429 {\"error\":\"slow down\"}\n")

	// A rejected request uses up its block.
	resp := post(t, t.Context(), url+"/v1/chat/completions", "wrong", "1")
	if b := body(resp); resp.StatusCode != 401 || !strings.Contains(b, "authentication_error") {
		t.Errorf("wrong key: %d %s", resp.StatusCode, b)
	}
	resp = post(t, t.Context(), url+"/v1/chat/completions", "K", "2")
	if b := body(resp); resp.StatusCode != 200 || !strings.Contains(b, `"id":"chatcmpl-2"`) || !strings.Contains(b, `"content":"wo"`) {
		t.Errorf("bearer key: %d %s", resp.StatusCode, b)
	}
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url+"/v1/messages", strings.NewReader("3"))
	req.Header.Set("X-Api-Key", "K")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b := body(resp); resp.StatusCode != 429 || b != `{"error":"slow down"}` {
		t.Errorf("x-api-key, scripted status: %d %s", resp.StatusCode, b)
	}
	resp = post(t, t.Context(), url+"/v1/chat/completions", "K", "4")
	if b := body(resp); resp.StatusCode != 400 || !strings.Contains(b, "no response scripted for request 4") {
		t.Errorf("past the script: %d %s", resp.StatusCode, b)
	}
	if got := fmt.Sprintf("%s", f.Requests()); got != "[1 2 3 4]" {
		t.Errorf("Requests() = %s", got)
	}
}

// TestWaitCancel checks that a wait response sends the first text delta
// and returns once the client goes away.
func TestWaitCancel(t *testing.T) {
	f, err := fakellm.New([]byte("wait\ntext Hello\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	returned := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.ServeHTTP(w, r)
		close(returned)
	}))
	defer hs.Close()

	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	resp := post(t, ctx, hs.URL+"/v1/chat/completions", "", "{}")
	r := bufio.NewReader(resp.Body)
	var text string
	for text == "" {
		ev, err := readEvent(t, r)
		if err != nil {
			t.Fatalf("stream ended before the first text delta: %v", err)
		}
		if s, _ := get(ev.data, "choices", 0, "delta", "content").(string); s != "" {
			text = s
		}
	}
	if text != "He" {
		t.Errorf("first text delta %q, want %q", text, "He")
	}
	select {
	case <-returned:
		t.Fatal("handler returned before the client went away")
	default:
	}
	cancel()
	select {
	case <-returned:
	case <-time.After(guard):
		t.Fatal("handler still blocked after the client cancelled")
	}
}

// TestWaitClose checks that Close releases a wait response, which then
// ends without finishing the stream.
func TestWaitClose(t *testing.T) {
	url, f := fakellm.Start(t, "wait\ntext Hello\ntool t {}\n")
	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	resp := post(t, ctx, url+"/v1/messages", "", "{}")
	r := bufio.NewReader(resp.Body)
	var names []string
	for len(names) == 0 || names[len(names)-1] != "content_block_delta" {
		ev, err := readEvent(t, r)
		if err != nil {
			t.Fatalf("stream ended before the first text delta: %v", err)
		}
		names = append(names, ev.name)
	}
	f.Close()
	rest, err := io.ReadAll(r) // bounded by ctx
	if err != nil {
		t.Fatalf("reading after Close: %v", err)
	}
	if len(rest) != 0 {
		t.Errorf("stream went on after Close: %q", rest)
	}
	if got := strings.Join(names, " "); got != "message_start content_block_start content_block_delta" {
		t.Errorf("events before Close: %s", got)
	}
}

// TestConcurrent checks that concurrent requests each get their own block.
func TestConcurrent(t *testing.T) {
	const n = 20
	var script strings.Builder
	for i := range n {
		fmt.Fprintf(&script, "text r%d\n---\n", i+1)
	}
	url, f := fakellm.Start(t, script.String())
	var wg sync.WaitGroup
	ids := make([]string, n)
	for i := range n {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(t.Context(), "POST", url+"/v1/messages", strings.NewReader(fmt.Sprint(i)))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			evs := readEvents(t, resp.Body)
			ids[i] = fmt.Sprint(get(evs[0].data, "message", "id"), " ", get(evs[2].data, "delta", "text"))
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, id := range ids {
		var num, block int
		if _, err := fmt.Sscanf(id, "msg_%d r%d", &num, &block); err != nil || num != block || seen[id] {
			t.Errorf("bad or repeated response %q (want request N to get block rN)", id)
		}
		seen[id] = true
	}
	if len(f.Requests()) != n {
		t.Errorf("%d requests logged, want %d", len(f.Requests()), n)
	}
}

// TestWindow checks that prompts are counted and reported, that a prompt
// over the window is refused in each API's own format, and that a refused
// request leaves its block to the next one.
func TestWindow(t *testing.T) {
	url, f := fakellm.Start(t, "window 50\ntext first\n---\ntext second\n")
	small := `{"system":"be brief","messages":[{"role":"user","content":[{"type":"text","text":"hello world"}]}]}`
	// 4 for the message, "user" 1, the words 60.
	big := `{"messages":[{"role":"user","content":"` + strings.Repeat(" word", 60) + `"}]}`

	resp := post(t, t.Context(), url+"/v1/messages", "", big)
	if b := body(resp); resp.StatusCode != 400 || !strings.Contains(b, `"type":"invalid_request_error","message":"prompt is too long: 65 tokens > 50 maximum"`) {
		t.Errorf("anthropic overflow: %d %s", resp.StatusCode, b)
	}
	resp = post(t, t.Context(), url+"/v1/chat/completions", "", big)
	if b := body(resp); resp.StatusCode != 400 || !strings.Contains(b, `"code":"context_length_exceeded"`) ||
		!strings.Contains(b, "maximum context length is 50 tokens. However, you requested 65 tokens (65 in the messages, 0 in the completion)") {
		t.Errorf("openai overflow: %d %s", resp.StatusCode, b)
	}
	// The answer's cap counts too.
	capped := strings.Replace(small, `{"system"`, `{"max_tokens":41,"system"`, 1)
	resp = post(t, t.Context(), url+"/v1/messages", "", capped)
	if b := body(resp); resp.StatusCode != 400 || !strings.Contains(b, "input length and `max_tokens` exceed context limit: 10 + 41 > 50") {
		t.Errorf("anthropic overflow with max_tokens: %d %s", resp.StatusCode, b)
	}
	resp = post(t, t.Context(), url+"/v1/messages", "", small)
	evs := readEvents(t, resp.Body)
	// 4 for the message, "be brief" 2, "user" 1, "text" 1, "hello world" 2.
	if get(evs[0].data, "message", "usage", "input_tokens") != 10.0 || get(evs[2].data, "delta", "text") != "first" {
		t.Errorf("first answer: %s / %s", evs[0].raw, evs[2].raw)
	}
	if got := fmt.Sprint(f.PromptTokens()); got != "[65 65 10 10]" {
		t.Errorf("PromptTokens() = %s", got)
	}
	if got := fmt.Sprint(f.Refused()); got != "[1 2 3]" {
		t.Errorf("Refused() = %s", got)
	}
}

// TestSummarize checks that summary requests are answered with the
// tagged lines and use up no block.
func TestSummarize(t *testing.T) {
	url, f := fakellm.Start(t, "summarize SUMMARISE-ME\ntext next block\n")
	req := `{"model":"m","messages":[{"role":"system","content":"Please SUMMARISE-ME now"},` +
		`{"role":"user","content":"the task #keep\nnoise"},{"role":"assistant","content":"- decided X #keep\nthe task #keep"}]}`
	resp := post(t, t.Context(), url+"/v1/chat/completions", "", req)
	var text strings.Builder
	for _, ev := range readEvents(t, resp.Body) {
		if s, ok := get(ev.data, "choices", 0, "delta", "content").(string); ok {
			text.WriteString(s)
		}
	}
	if want := "Summary:\n- the task #keep\n- decided X #keep"; text.String() != want {
		t.Errorf("summary %q, want %q", text.String(), want)
	}
	resp = post(t, t.Context(), url+"/v1/messages", "", `{"messages":[]}`)
	if evs := readEvents(t, resp.Body); get(evs[2].data, "delta", "text") != "next block" {
		t.Errorf("the summary used up a block: %s", evs[2].raw)
	}
	if len(f.Requests()) != 2 {
		t.Errorf("%d requests", len(f.Requests()))
	}
}
