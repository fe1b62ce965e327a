package acp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/internal/syncbuf"
)

// TestHostileFrames: malformed frames, unknown methods, bad params and a
// request before initialize get errors or are skipped; the connection
// keeps answering and nothing panics.
func TestHostileFrames(t *testing.T) {
	f := newFixture(t, "", nil)
	ws := f.workspace(t)
	t.Setenv("PARLEY_API_KEY", secret) // initialize names it, never shows it
	srv := acp.New(acp.Options{Open: func(string) (*acp.Workspace, error) { return ws, nil }})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), inR, outW) }()
	replies := make(chan map[string]any, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				replies <- m
			}
		}
		close(replies)
	}()
	reply := func(id float64) map[string]any {
		t.Helper()
		deadline := time.After(waitTimeout)
		for {
			select {
			case m, ok := <-replies:
				if !ok {
					t.Fatalf("the connection ended before reply %v", id)
				}
				if m["id"] == id {
					return m
				}
			case <-deadline:
				t.Fatalf("no reply %v", id)
			}
		}
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"hi"}]}}`)
	if e, _ := reply(1)["error"].(map[string]any); e == nil {
		t.Error("a prompt to no session did not fail")
	}
	for _, junk := range []string{
		`not json at all`,
		`{"jsonrpc":"2.0","id":`,
		`[1,2,3]`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":"nonsense"}`,
		"\x00\xff\xfe",
		`{"jsonrpc":"2.0","id":{"x":1},"method":"initialize","params":{}}`,
	} {
		send(junk)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"no/such/method","params":{}}`)
	if e, _ := reply(2)["error"].(map[string]any); e == nil || e["code"] != float64(-32601) {
		t.Errorf("unknown method: %v", e)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":42}}`)
	if e, _ := reply(3)["error"].(map[string]any); e == nil || e["code"] != float64(-32602) {
		t.Errorf("bad params: %v", e)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"` + f.root + `","mcpServers":[{"name":"bad","command":"","args":[],"env":[]}]}}`)
	if e, _ := reply(4)["error"].(map[string]any); e == nil {
		t.Error("an MCP server without a command was accepted")
	}
	send(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	r := reply(5)
	if res, _ := r["result"].(map[string]any); res == nil || res["protocolVersion"] != float64(1) {
		t.Errorf("initialize after junk: %v", r)
	}
	if caps, _ := r["result"].(map[string]any)["agentCapabilities"].(map[string]any); caps["loadSession"] != true {
		t.Errorf("capabilities %v", caps)
	}
	if strings.Contains(toJSON(r), secret) {
		t.Errorf("initialize shows a key: %v", r)
	}
	inW.Close()
	select {
	case <-done:
	case <-time.After(waitTimeout):
		t.Fatal("Serve did not return after stdin closed")
	}
	outR.Close()
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAnswersAfterEOF: a client that writes its requests and closes its
// end at once still gets every answer before Serve returns.
func TestAnswersAfterEOF(t *testing.T) {
	f := newFixture(t, "", nil)
	ws := f.workspace(t)
	srv := acp.New(acp.Options{Open: func(string) (*acp.Workspace, error) { return ws, nil }})
	var in strings.Builder
	for i := 1; i <= 20; i++ {
		in.WriteString(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"initialize","params":{"protocolVersion":1}}` + "\n")
		in.WriteString(`{"jsonrpc":"2.0","id":"u` + strconv.Itoa(i) + `","method":"no/such/method"}` + "\n")
	}
	in.WriteString(`{"jsonrpc":"2.0","id":"new","method":"session/new","params":{"cwd":"` + f.root + `","mcpServers":[]}}` + "\n")
	var out syncbuf.Buffer
	if err := srv.Serve(context.Background(), strings.NewReader(in.String()), &out); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out.String(), "\n"); n != 41 {
		t.Errorf("%d answers, want 41:\n%s", n, out.String())
	}
}
