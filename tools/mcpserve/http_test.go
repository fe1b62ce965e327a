package mcpserve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
