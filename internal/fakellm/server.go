package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Server is an http.Handler that answers model API requests from a
// script. It is safe for concurrent use; see the package doc.
type Server struct {
	script *Script
	logDir string // "" for no request log

	done      chan struct{} // closed by Close; releases wait responses
	closeOnce sync.Once

	mu      sync.Mutex
	reqs    [][]byte // request bodies in order of arrival; guarded by mu
	prompts []int    // their prompt sizes when the script has a window; guarded by mu
	refused []int    // numbers of the requests refused as over the window; guarded by mu
	next    int      // the next block to answer with; guarded by mu
	// embedReqs counts /embeddings requests; guarded by mu.
	embedReqs int

	// Fill-in-the-middle state (fim.go); guarded by mu.
	fimRules     []FIMRule
	fimDelay     time.Duration
	fimReqs      []FIMRequest
	fimCancelled int
	fimChanged   chan struct{} // closed and replaced when fimCancelled grows
}

// New parses script and returns a Server for it. If logDir is not empty,
// it is created if needed and every request body is written to
// logDir/req-N.json (N from 1). Bodies only are logged, never headers, so
// API keys do not reach the disk.
func New(script []byte, logDir string) (*Server, error) {
	s, err := Parse(script)
	if err != nil {
		return nil, err
	}
	if logDir != "" {
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			return nil, fmt.Errorf("fakellm: %w", err)
		}
	}
	return &Server{script: s, logDir: logDir, done: make(chan struct{}),
		fimRules: append([]FIMRule(nil), s.fim...), fimDelay: s.fimDelay, fimChanged: make(chan struct{})}, nil
}

// TB is the part of testing.TB that Start needs.
type TB interface {
	Helper()
	Cleanup(func())
	Fatalf(format string, args ...any)
}

// Start serves script (without a request log) on a local HTTP server that
// is shut down when the test ends, and returns its base URL (no trailing
// slash) and the Server. Point an OpenAI-style client at url+"/v1" and an
// Anthropic client at url.
func Start(t TB, script string) (url string, srv *Server) {
	t.Helper()
	srv, err := New([]byte(script), "")
	if err != nil {
		t.Fatalf("fakellm: %v", err)
	}
	hs := httptest.NewServer(srv)
	// Release wait responses first: hs.Close waits for every handler.
	t.Cleanup(func() { srv.Close(); hs.Close() })
	return hs.URL, srv
}

// Close releases every response held by wait, now and later. It does not
// stop the http.Server serving s; that server's Close waits for handlers,
// so call this first. Close may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.done) })
}

// Requests returns the bodies of the requests received so far, in order
// of arrival (Requests()[N-1] is request N). The caller must not modify
// the bodies.
func (s *Server) Requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.reqs...)
}

// PromptTokens returns the prompt size of each request received so far,
// in order of arrival, as counted for the script's window (nil without a
// window).
func (s *Server) PromptTokens() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.prompts...)
}

// Refused returns the numbers (from 1) of the requests refused because
// they did not fit the script's window.
func (s *Server) Refused() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.refused...)
}

// defaultPromptTokens is the input usage reported without a window.
const defaultPromptTokens = 100

// ServeHTTP answers r with the next scripted response.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	format := chatFormat(r.URL.Path)
	var p prompt
	switch {
	case s.script.window == 0 && s.script.summarize == "":
	case format == formatGemini:
		p = readGeminiPrompt(body)
	default:
		p = readPrompt(body)
	}
	key := s.script.key
	keyOK := key == "" || r.Header.Get("X-Api-Key") == key || r.Header.Get("Authorization") == "Bearer "+key ||
		r.Header.Get("X-Goog-Api-Key") == key
	if s.serveBesideChat(w, r, body, keyOK) {
		return
	}
	// Gemini refuses a prompt over the window whatever the output cap.
	overflow := s.script.window > 0 && p.tokens+p.maxTokens > s.script.window
	if format == formatGemini {
		overflow = s.script.window > 0 && p.tokens > s.script.window
	}
	summary := s.script.summarize != "" && strings.Contains(p.system, s.script.summarize)
	var invalid string
	if format == formatGemini && keyOK {
		invalid = geminiRequestError(body)
	}

	// Numbering and the choice of block happen together, so concurrent
	// requests get blocks in order of arrival.
	s.mu.Lock()
	s.reqs = append(s.reqs, body)
	n, next := len(s.reqs), -1
	if s.script.window > 0 {
		s.prompts = append(s.prompts, p.tokens)
	}
	if overflow && keyOK {
		s.refused = append(s.refused, n)
	}
	if !keyOK || (!overflow && !summary && invalid == "") {
		next = s.next
		s.next++
	}
	s.mu.Unlock()

	if !s.logRequest(w, n, body) {
		return
	}
	switch {
	case !keyOK:
		writeKeyError(w, format)
		return
	case invalid != "":
		writeGeminiError(w, 400, "INVALID_ARGUMENT", invalid)
		return
	case overflow:
		writeOverflow(w, format, p, s.script.window)
		return
	}
	usage := defaultPromptTokens
	if s.script.window > 0 {
		usage = p.tokens
	}
	var resp response
	switch {
	case summary:
		resp = response{blocks: []block{{kind: "text", text: p.summary()}}}
	case next >= len(s.script.resps):
		writeError(w, 400, fmt.Sprintf(`{"error":{"type":"invalid_request_error","message":"fakellm: no response scripted for request %d"}}`, n))
		return
	default:
		resp = s.script.resps[next]
	}
	if resp.status != 0 {
		writeError(w, resp.status, resp.body)
		return
	}
	s.answer(w, r, format, n, resp, usage)
}

// answer sends resp, request n's scripted answer, in format.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, format string, n int, resp response, usage int) {
	if format == formatGemini && strings.HasSuffix(r.URL.Path, ":generateContent") {
		s.serveWhole(w, r, geminiJSON(n, resp.blocks, usage), resp.wait)
		return
	}
	var st *stream
	switch format {
	case formatAnthropic:
		st = anthropicSSE(n, resp.blocks, usage)
	case formatGemini:
		st = geminiSSE(n, resp.blocks, usage)
	default:
		st = openaiSSE(n, resp.blocks, usage)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	if !resp.wait {
		w.Write(bytes.Join(st.events, nil))
		return
	}
	w.Write(bytes.Join(st.waitPrefix(), nil))
	http.NewResponseController(w).Flush()
	select {
	case <-r.Context().Done():
	case <-s.done:
	}
}

// serveBesideChat answers the requests that use up no block: fill in the
// middle and embeddings. It reports whether r was one.
func (s *Server) serveBesideChat(w http.ResponseWriter, r *http.Request, body []byte, keyOK bool) bool {
	if format := fimFormat(r.URL.Path); format != "" {
		s.serveFIM(w, r, format, body, keyOK)
		return true
	}
	if strings.HasSuffix(r.URL.Path, "/embeddings") {
		s.serveEmbeddings(w, body, keyOK)
		return true
	}
	return false
}

// logRequest writes chat request n's body to the log directory, if any.
// On failure it answers 500 and returns false.
func (s *Server) logRequest(w http.ResponseWriter, n int, body []byte) bool {
	if s.logDir == "" {
		return true
	}
	if err := os.WriteFile(filepath.Join(s.logDir, fmt.Sprintf("req-%d.json", n)), body, 0o644); err != nil {
		msg, _ := json.Marshal("fakellm: " + err.Error())
		writeError(w, 500, fmt.Sprintf(`{"error":{"type":"api_error","message":%s}}`, msg))
		return false
	}
	return true
}

// writeKeyError refuses a request without the script's key.
func writeKeyError(w http.ResponseWriter, format string) {
	if format == formatGemini {
		writeGeminiKeyError(w)
		return
	}
	writeError(w, 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid api key"}}`)
}

func writeError(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// serveWhole answers a non-streaming request with body, or, for a wait
// block, with nothing until the client goes away or s is closed.
func (s *Server) serveWhole(w http.ResponseWriter, r *http.Request, body []byte, wait bool) {
	if wait {
		select {
		case <-r.Context().Done():
		case <-s.done:
		}
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// writeOverflow refuses a request over the window as each API does.
func writeOverflow(w http.ResponseWriter, format string, p prompt, window int) {
	anthropic := format == formatAnthropic
	switch {
	case format == formatGemini:
		writeGeminiError(w, 400, "INVALID_ARGUMENT",
			fmt.Sprintf("The input token count (%d) exceeds the maximum number of tokens allowed (%d).", p.tokens, window))
	case anthropic && p.tokens > window:
		writeError(w, 400, fmt.Sprintf(`{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: %d tokens > %d maximum"}}`, p.tokens, window))
	case anthropic:
		writeError(w, 400, fmt.Sprintf("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"input length and `max_tokens` exceed context limit: %d + %d > %d, decrease input length or `max_tokens` and try again\"}}", p.tokens, p.maxTokens, window))
	default:
		writeError(w, 400, fmt.Sprintf(`{"error":{"message":"This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
			window, p.tokens+p.maxTokens, p.tokens, p.maxTokens))
	}
}
