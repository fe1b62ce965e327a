package mcpserve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent/permission"
)

// bearer adds an Authorization header to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPToken serves streamable HTTP with a token: a client with the
// token lists and calls tools, one without it or with another is refused.
func TestHTTPToken(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	hs := httptest.NewServer(s.HTTPHandler("s3cret"))
	defer hs.Close()
	ctx := context.Background()
	connect := func(token string) (*mcp.ClientSession, error) {
		tr := &mcp.StreamableClientTransport{Endpoint: hs.URL}
		if token != "" {
			tr.HTTPClient = &http.Client{Transport: bearer{token}}
		}
		return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, tr, nil)
	}
	for _, bad := range []string{"", "wrong"} {
		if cs, err := connect(bad); err == nil {
			cs.Close()
			t.Errorf("token %q: connected", bad)
		}
	}
	cs, err := connect("s3cret")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got, isErr := call(t, cs, "find_definition", map[string]any{"name": "Discount"}); isErr || !strings.Contains(got, "cart/fee.go:4") {
		t.Errorf("find_definition over HTTP: %v %s", isErr, got)
	}
}

// TestHTTPOpen: without a token (loopback) any local client connects.
func TestHTTPOpen(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	hs := httptest.NewServer(s.HTTPHandler(""))
	defer hs.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := toolNames(t, cs); len(got) != len(ReadTools) {
		t.Errorf("tools over HTTP: %v", got)
	}
}

func TestCheckListen(t *testing.T) {
	for _, tc := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8808", "", true},
		{"127.0.0.2:0", "", true},
		{"[::1]:8808", "", true},
		{"localhost:8808", "", true},
		{"0.0.0.0:8808", "", false},
		{":8808", "", false},
		{"[::]:8808", "", false},
		{"192.168.1.5:8808", "", false},
		{"example.com:8808", "", false},
		{"0.0.0.0:8808", "t", true},
		{"8808", "", false},
	} {
		if err := CheckListen(tc.addr, tc.token); (err == nil) != tc.ok {
			t.Errorf("CheckListen(%q, %q) = %v, want ok=%v", tc.addr, tc.token, err, tc.ok)
		}
	}
}

// TestHTTPBodyLimit: a request that declares a body over MaxFrame is
// answered 413 at once, without waiting for the body; one that sends
// more than MaxFrame without declaring it gets 413 too; the server goes
// on serving.
func TestHTTPBodyLimit(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	hs := httptest.NewServer(s.HTTPHandler(""))
	defer hs.Close()

	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 8000000000\r\n\r\n{", hs.Listener.Addr())
	conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // a failure bound
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a declared body of 8,000,000,000 bytes: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("declared body of 8,000,000,000 bytes: %s, want 413", resp.Status)
	}

	// No Content-Length: the body is sent chunked.
	body := io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`), strings.NewReader(strings.Repeat("a", MaxFrame)), strings.NewReader(`"}}`))
	req, err := http.NewRequest(http.MethodPost, hs.URL, io.NopCloser(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Errorf("chunked body over MaxFrame: %v", err)
	} else {
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked body over MaxFrame: %s, want 413", resp.Status)
		}
	}

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, nil)
	if err != nil {
		t.Fatalf("connecting after the refused bodies: %v", err)
	}
	defer cs.Close()
	if got := toolNames(t, cs); len(got) != len(ReadTools) {
		t.Errorf("tools after the refused bodies: %v", got)
	}
}
