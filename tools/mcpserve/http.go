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
// rebinding).
func (s *Server) HTTPHandler(token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv }, nil)
	protected := http.NewCrossOriginProtection().Handler(h)
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
