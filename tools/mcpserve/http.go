package mcpserve

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPHandler serves the streamable HTTP transport. With a token, every
// request must carry "Authorization: Bearer TOKEN". Requests from browsers
// of other origins are refused (http.CrossOriginProtection) and the SDK
// refuses non-localhost Host headers on loopback connections (DNS
// rebinding). A body over MaxFrame is refused with 413 and the server
// goes on (each request is framed on its own).
func (s *Server) HTTPHandler(token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: MaxFrame})
	protected := limitBody(http.NewCrossOriginProtection().Handler(h))
	if token == "" {
		return protected
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="parley"`)
			http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
			return
		}
		protected.ServeHTTP(w, r)
	})
}

// CheckListen validates an HTTP listen address against the token rule: a
// loopback address (127.0.0.0/8, ::1, localhost) may go without a token;
// any other address, including all interfaces (":8080", "0.0.0.0:8080"),
// requires one.
func CheckListen(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %q: %w (want HOST:PORT, e.g. 127.0.0.1:8808)", addr, err)
	}
	if token != "" || IsLoopback(host) {
		return nil
	}
	if host == "" {
		host = "all interfaces"
	}
	return errors.New("--http on " + host + " is reachable from other machines: set PARLEY_MCP_TOKEN to the bearer token clients must send, or listen on 127.0.0.1")
}

// IsLoopback reports whether host names only the local machine.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// limitBody answers 413 at once to a request that declares a body over
// MaxFrame. The SDK enforces its limit only while reading, so it would
// first wait for bytes it is going to refuse: a client that declares
// 8,000,000,000 bytes and sends a few would hold the request open.
func limitBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > MaxFrame {
			// The body is left unread: the connection cannot be reused.
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("request body of %d bytes exceeds the %d-byte limit", r.ContentLength, MaxFrame), http.StatusRequestEntityTooLarge)
			return
		}
		h.ServeHTTP(w, r)
	})
}
