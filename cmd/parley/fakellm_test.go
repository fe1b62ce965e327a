package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/parleyhq/parley/agent"
)

// fakeLLM starts a model API in the test process for `parley chat` to
// talk to, speaking OpenAI chat-completions SSE on .../chat/completions
// and Anthropic Messages SSE on .../v1/messages. It sets $FAKELLM_URL,
// writes every request body to fakellm/req-N.json (N from 1) in the
// current directory, and stops when the script ends.
//
// The script file holds one block per request, in order, separated by
// lines "---":
//
//	text STRING        a text block ("\n" in STRING is a newline)
//	tool NAME JSON     a tool call
//	status CODE JSON   answer with this HTTP error instead
//
// A first line "key KEY" makes requests that do not carry KEY (x-api-key
// or Bearer) fail with 401. Lines starting with # are comments.
func fakeLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fakellm SCRIPT")
	}
	f, err := parseFakeScript(ts.ReadFile(args[0]))
	ts.Check(err)
	f.logDir = ts.MkAbs("fakellm")
	ts.Check(os.MkdirAll(f.logDir, 0o755))
	srv := httptest.NewServer(f)
	ts.Setenv("FAKELLM_URL", srv.URL)
	ts.Defer(srv.Close)
}

type fakeBlock struct {
	kind, text, name, input string // kind: text or tool
}

type fakeResponse struct {
	status int
	body   string
	blocks []fakeBlock
}

type fakeServer struct {
	key    string
	resps  []fakeResponse
	logDir string
	mu     sync.Mutex
	n      int
}

func parseFakeScript(script string) (*fakeServer, error) {
	f := &fakeServer{}
	cur := fakeResponse{}
	flush := func() {
		if cur.status != 0 || len(cur.blocks) > 0 {
			f.resps = append(f.resps, cur)
		}
		cur = fakeResponse{}
	}
	for i, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		verb, rest, _ := strings.Cut(line, " ")
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case line == "---":
			flush()
		case verb == "key" && i == 0:
			f.key = rest
		case verb == "text":
			cur.blocks = append(cur.blocks, fakeBlock{kind: "text", text: strings.ReplaceAll(rest, `\n`, "\n")})
		case verb == "tool":
			name, input, _ := strings.Cut(rest, " ")
			if !json.Valid([]byte(input)) {
				return nil, fmt.Errorf("fakellm line %d: tool input is not JSON", i+1)
			}
			cur.blocks = append(cur.blocks, fakeBlock{kind: "tool", name: name, input: input})
		case verb == "status":
			code, body, _ := strings.Cut(rest, " ")
			n, err := strconv.Atoi(code)
			if err != nil {
				return nil, fmt.Errorf("fakellm line %d: bad status %q", i+1, code)
			}
			cur.status, cur.body = n, body
		default:
			return nil, fmt.Errorf("fakellm line %d: unknown directive %q", i+1, line)
		}
	}
	flush()
	return f, nil
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.n++
	n := f.n
	f.mu.Unlock()
	os.WriteFile(filepath.Join(f.logDir, fmt.Sprintf("req-%d.json", n)), body, 0o644)
	anthropic := strings.HasSuffix(r.URL.Path, "/v1/messages")
	if f.key != "" && r.Header.Get("X-Api-Key") != f.key && r.Header.Get("Authorization") != "Bearer "+f.key {
		writeFakeError(w, 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid api key"}}`)
		return
	}
	if n > len(f.resps) {
		writeFakeError(w, 400, fmt.Sprintf(`{"error":{"type":"invalid_request_error","message":"fakellm: no response scripted for request %d"}}`, n))
		return
	}
	resp := f.resps[n-1]
	if resp.status != 0 {
		writeFakeError(w, resp.status, resp.body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	var sse bytes.Buffer
	if anthropic {
		anthropicSSE(&sse, n, resp.blocks)
	} else {
		openaiSSE(&sse, n, resp.blocks)
	}
	w.Write(sse.Bytes())
}

func writeFakeError(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func sseData(b *bytes.Buffer, event string, v any) {
	data, _ := json.Marshal(v)
	if event != "" {
		fmt.Fprintf(b, "event: %s\n", event)
	}
	fmt.Fprintf(b, "data: %s\n\n", data)
}

// openaiSSE writes a chat.completion.chunk stream: text in two deltas,
// each tool call as a header chunk plus an arguments chunk, then the
// finish reason, the usage chunk and [DONE].
func openaiSSE(b *bytes.Buffer, n int, blocks []fakeBlock) {
	chunk := func(delta map[string]any, finish any) {
		sseData(b, "", map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion.chunk", "created": 1727000000,
			"model": "fake-model", "choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil)
	calls, finish := 0, "stop"
	for _, bl := range blocks {
		if bl.kind == "text" {
			half := len(bl.text) / 2
			chunk(map[string]any{"content": bl.text[:half]}, nil)
			chunk(map[string]any{"content": bl.text[half:]}, nil)
			continue
		}
		id := fmt.Sprintf("call_%d_%d", n, calls)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": calls, "id": id, "type": "function",
			"function": map[string]any{"name": bl.name, "arguments": ""}}}}, nil)
		chunk(map[string]any{"tool_calls": []any{map[string]any{"index": calls, "function": map[string]any{"arguments": bl.input}}}}, nil)
		calls++
		finish = "tool_calls"
	}
	chunk(map[string]any{}, finish)
	sseData(b, "", map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion.chunk", "created": 1727000000,
		"model": "fake-model", "choices": []any{}, "usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})
	b.WriteString("data: [DONE]\n\n")
}

// anthropicSSE writes a Messages stream with one content block per
// scripted block.
func anthropicSSE(b *bytes.Buffer, n int, blocks []fakeBlock) {
	sseData(b, "message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "content": []any{}, "model": "fake-model",
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 100, "output_tokens": 1}}})
	stop := "end_turn"
	for i, bl := range blocks {
		if bl.kind == "text" {
			sseData(b, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			sseData(b, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": bl.text}})
		} else {
			sseData(b, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{
				"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", n, i), "name": bl.name, "input": map[string]any{}}})
			sseData(b, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": bl.input}})
			stop = "tool_use"
		}
		sseData(b, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	sseData(b, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 20}})
	sseData(b, "message_stop", map[string]any{"type": "message_stop"})
}

// lastSession sets $SESSION to the most recent chat session of the
// workspace root args[0].
func lastSession(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: lastsession ROOT")
	}
	g := &globals{dataDir: ts.Getenv("PARLEY_DATA_DIR"), root: ts.MkAbs(args[0])}
	root, err := g.workspaceRoot()
	ts.Check(err)
	dir, err := g.storeDir(root)
	ts.Check(err)
	st, err := agent.OpenSessions(filepath.Join(filepath.Dir(dir), "sessions"))
	ts.Check(err)
	defer st.Close()
	list, err := st.List()
	ts.Check(err)
	if len(list) == 0 {
		ts.Fatalf("no sessions")
	}
	ts.Setenv("SESSION", list[0].ID)
}

// noFileContains fails if any file under args[0] contains args[1].
func noFileContains(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: nofilecontains DIR STRING")
	}
	err := filepath.WalkDir(ts.MkAbs(args[0]), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && bytes.Contains(data, []byte(args[1])) {
			ts.Fatalf("%s contains %q", p, args[1])
		}
		return nil
	})
	ts.Check(err)
}
