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
)

// Server is an http.Handler that answers model API requests from a
// script. It is safe for concurrent use; see the package doc.
type Server struct {
	script *Script
	logDir string // "" for no request log

	done      chan struct{} // closed by Close; releases wait responses
	closeOnce sync.Once

	mu   sync.Mutex
	reqs [][]byte // request bodies in order of arrival; guarded by mu
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
	return &Server{script: s, logDir: logDir, done: make(chan struct{})}, nil
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

// ServeHTTP answers r with the next scripted response.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, body)
	n := len(s.reqs)
	s.mu.Unlock()
	if s.logDir != "" {
		if err := os.WriteFile(filepath.Join(s.logDir, fmt.Sprintf("req-%d.json", n)), body, 0o644); err != nil {
			msg, _ := json.Marshal("fakellm: " + err.Error())
			writeError(w, 500, fmt.Sprintf(`{"error":{"type":"api_error","message":%s}}`, msg))
			return
		}
	}
	anthropic := strings.HasSuffix(r.URL.Path, "/v1/messages")
	key := s.script.key
	if key != "" && r.Header.Get("X-Api-Key") != key && r.Header.Get("Authorization") != "Bearer "+key {
		writeError(w, 401, `{"type":"error","error":{"type":"authentication_error","message":"invalid api key"}}`)
		return
	}
	if n > len(s.script.resps) {
		writeError(w, 400, fmt.Sprintf(`{"error":{"type":"invalid_request_error","message":"fakellm: no response scripted for request %d"}}`, n))
		return
	}
	resp := s.script.resps[n-1]
	if resp.status != 0 {
		writeError(w, resp.status, resp.body)
		return
	}
	var st *stream
	if anthropic {
		st = anthropicSSE(n, resp.blocks)
	} else {
		st = openaiSSE(n, resp.blocks)
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

func writeError(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}
