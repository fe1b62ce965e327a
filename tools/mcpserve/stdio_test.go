package mcpserve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/internal/syncbuf"
	"github.com/parleyhq/parley/internal/wire"
)

// TestStdioHostileFrames writes malformed frames between well-formed
// requests: each bad frame gets a JSON-RPC error and the session goes on
// to answer every request after it.
func TestStdioHostileFrames(t *testing.T) {
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), StdioTransport(inR, outW)) }()
	lines := bufio.NewReader(outR)
	send := func(frame string) {
		t.Helper()
		if _, err := io.WriteString(inW, frame+"\n"); err != nil {
			t.Fatalf("write %.60q: %v", frame, err)
		}
	}
	recv := func() map[string]any {
		t.Helper()
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := recv(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, tc := range []struct {
		frame string
		code  float64
	}{
		{`garbage{`, codeParseError},
		{`{"jsonrpc":"2.0","id":7,"method":`, codeParseError},
		{`[{"jsonrpc":"2.0","id":9,"method":"ping"}]`, codeInvalidRequest},
		{`{"foo":1}`, codeInvalidRequest},
		{`"just a string"`, codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":10,"method":"no/such/method"}`, -32601},
		{`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":"x"}`, -32602},
		{`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"nope"}}`, -32602},
		{strings.Repeat("a", MaxFrame+10), codeInvalidRequest},
	} {
		send(tc.frame)
		m := recv()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != tc.code {
			t.Errorf("frame %d %.40q: reply %v, want error code %v", i, tc.frame, m, tc.code)
		}
		send(`{"jsonrpc":"2.0","id":100,"method":"ping"}`)
		if m := recv(); m["id"] != float64(100) || m["result"] == nil {
			t.Fatalf("ping after frame %d: %v", i, m)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("Run after stdin closed: %v", err)
	}
}

// TestCheckFrame covers the filter's verdicts, including the id of the
// error reply.
func TestCheckFrame(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, ""},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, ""},
		{`nope`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the line is not JSON"}}`},
		{`[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batches are not supported"}}`},
		{`{"jsonrpc":"1.0","id":"a","method":"ping"}`, `"id":"a"`},
		{`{"jsonrpc":"1.0","id":{"x":1},"method":"ping"}`, `"id":null`},
		{`{"jsonrpc":"1.0","id":5,"method":"ping"}`, `"id":5`},
	} {
		got := string(checkFrame([]byte(tc.line), false))
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("checkFrame(%s) = %s, want %s", tc.line, got, tc.want)
		}
	}
}

// FuzzFilterFrames: whatever arrives, the filter passes on only lines
// that decode as JSON-RPC messages and answers everything else with one
// line of JSON.
func FuzzFilterFrames(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"))
	f.Add([]byte("garbage{\n[1,2]\n\n  \r\n{\"id\":{}}\n"))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1}\n{\"jsonrpc\":\"2.0\"")) // no final newline
	f.Fuzz(func(t *testing.T, data []byte) {
		pr, pw := io.Pipe()
		var replies bytes.Buffer
		go filterFrames(bytes.NewReader(data), pw, &replies)
		passed, err := io.ReadAll(pr)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(passed, []byte("\n")), []byte("\n")) {
			if len(passed) > 0 && checkFrame(line, false) != nil {
				t.Errorf("passed a bad frame %q", line)
			}
		}
		for _, line := range bytes.Split(bytes.TrimSuffix(replies.Bytes(), []byte("\n")), []byte("\n")) {
			if replies.Len() > 0 && !json.Valid(line) {
				t.Errorf("reply %q is not JSON", line)
			}
		}
	})
}

// endless is a client that writes one line for ever.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// TestStdioEndlessLine: a line still without its newline after maxSkip
// bytes ends the session with a *wire.Error, after a line over MaxFrame
// before it was answered and skipped.
func TestStdioEndlessLine(t *testing.T) {
	defer func(old int64) { maxSkip = old }(maxSkip)
	maxSkip = 2 * MaxFrame // a frame over MaxFrame is still skipped first
	opts, _ := testOptions(t, permission.ModeDefault, permission.Rules{})
	s := mustNew(t, opts)
	in := io.MultiReader(strings.NewReader(strings.Repeat("b", MaxFrame+10)+"\n"), endless{})
	var out syncbuf.Buffer
	done := make(chan error, 1)
	go func() { done <- s.Run(context.Background(), StdioTransport(in, nopCloser{&out})) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Run still reading an endless line after 20s")
	}
	var we *wire.Error
	if !errors.As(err, &we) || !strings.Contains(err.Error(), fmt.Sprintf("a line reached the %d-byte limit without a newline; the stream cannot be resynchronised", maxSkip)) {
		t.Errorf("Run returned %v, want the line's *wire.Error", err)
	}
	if !strings.Contains(out.String(), "message longer than") {
		t.Errorf("the long line before the endless one was not answered:\n%.500s", out.String())
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
