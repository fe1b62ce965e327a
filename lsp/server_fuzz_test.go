package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/provider"
)

// fuzzWait bounds every wait of FuzzServerFrames; an input that needs it
// has hung the server.
const fuzzWait = 10 * time.Second

// stopsServer reports whether body may ask the server to stop (shutdown or
// exit), after which it rightly stops answering. It looks at every string
// of the body when it is JSON (escapes decoded) and at the raw bytes.
func stopsServer(body []byte) bool {
	hit := func(s string) bool { return strings.Contains(s, "exit") || strings.Contains(s, "shutdown") }
	if hit(string(body)) {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && hit(s) {
			return true
		}
	}
}

// FuzzServerFrames runs an in-process Server over a pipe with no index
// stores and no model, initializes it, sends one arbitrary message body
// (framed correctly, or raw bytes when raw is set), and then asks for
// parley/indexStatus. A framed non-empty body never stops the server from
// answering (unless it is a shutdown or exit); in every case the server
// stops once the client closes the connection.
func FuzzServerFrames(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///tmp/a.go","languageId":"go","version":1,"text":"package a\nfunc F() {}\n"}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///tmp/a.go","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":99}},"text":"x"}]}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///tmp/a.go"}}}`,
		`{"jsonrpc":"2.0","id":7,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///tmp/a.go"}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///tmp/a.go"},"position":{"line":1,"character":-5}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"textDocument/definition","params":{"textDocument":{"uri":"not a uri"},"position":{"line":0,"character":0}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"workspace/symbol","params":{"query":"F"}}`,
		`{"jsonrpc":"2.0","id":11,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///tmp/a.go"},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}}`,
		`{"jsonrpc":"2.0","id":12,"method":"workspace/executeCommand","params":{"command":"parley.explain","arguments":[{}]}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeWorkspaceFolders","params":{"event":{"added":[{"uri":"file:///","name":"root"}],"removed":[]}}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeConfiguration","params":{"settings":{"parley":{"agent":{"model":"m"}}}}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"file:///tmp/a.go","type":2}]}}`,
		`{"jsonrpc":"2.0","id":13,"method":"parley/chat","params":{"prompt":"hi"}}`,
		`{"jsonrpc":"2.0","id":14,"method":"parley/sessions","params":null}`,
		`{"jsonrpc":"2.0","id":15,"method":"parley/serverStats","params":{"reset":true}}`,
		`{"jsonrpc":"2.0","id":16,"method":"parley/reindex"}`,
		`{"jsonrpc":"2.0","id":17,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"x"}}`,
		`{"jsonrpc":"2.0","method":"$/setTrace","params":{"value":"verbose"}}`,
		`{"jsonrpc":"2.0","id":18,"result":{}}`,
		`{"jsonrpc":"2.0","id":19,"method":"no/such/method","params":[1,2]}`,
		`not json`, `[]`, `{}`, `{"jsonrpc":"2.0","id":{},"method":"m"}`,
	} {
		f.Add([]byte(s), false)
	}
	f.Add([]byte("Content-Length: 5\r\n\r\n{"), true)
	root := f.TempDir()

	f.Fuzz(func(t *testing.T, body []byte, raw bool) {
		if raw && longDigitRun(body) {
			return
		}
		if len(body) == 0 {
			// "Content-Length: 0" is broken framing to frameStream, which
			// then ends the connection.
			raw = true
		}
		srvSide, edSide := net.Pipe()
		srv := New(Options{
			StoreDir:    func(string) (string, error) { return "", errors.New("fuzz: no index stores") },
			DefaultRoot: root,
			NoWatch:     true,
			Agent: AgentOptions{
				Config: config.Options{UserFile: "-", Getenv: func(string) string { return "" }},
				NewProvider: func(*config.Config) (provider.Provider, error) {
					return nil, errors.New("fuzz: no model")
				},
			},
		})
		exited := make(chan int, 1)
		go func() { exited <- srv.Serve(context.Background(), NewStream(srvSide)) }()
		conn := jsonrpc2.NewConn(jsonrpc2.NewStream(edSide), jsonrpc2.WithCodec(lspCodec{}))
		conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
			return nil, nil // the editor agrees to whatever the server asks
		})
		defer func() {
			conn.Close()
			select {
			case <-exited:
			case <-time.After(fuzzWait):
				t.Fatalf("server did not stop after %q", body)
			}
		}()

		ctx, cancel := context.WithTimeout(context.Background(), fuzzWait)
		defer cancel()
		init := &protocol.InitializeParams{}
		init.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "root"}})
		if _, err := conn.Call(ctx, protocol.MethodInitialize, init, nil); err != nil {
			t.Fatalf("initialize: %v", err)
		}
		if err := conn.Notify(ctx, protocol.MethodInitialized, &protocol.InitializedParams{}); err != nil {
			t.Fatalf("initialized: %v", err)
		}

		frame := body
		if !raw {
			frame = fmt.Appendf(nil, "Content-Length: %d\r\n\r\n%s", len(body), body)
		}
		_ = edSide.SetWriteDeadline(time.Now().Add(fuzzWait))
		if _, err := edSide.Write(frame); err != nil {
			if raw || stopsServer(body) {
				return
			}
			t.Fatalf("writing %q: %v", frame, err)
		}
		_ = edSide.SetWriteDeadline(time.Time{})

		var st IndexStatus
		_, err := conn.Call(ctx, methodIndexStatus, nil, &st)
		switch {
		case err == nil:
		case raw || stopsServer(body):
		case errors.Is(err, io.ErrClosedPipe), errors.Is(err, context.DeadlineExceeded):
			t.Fatalf("after %q the server stopped answering: %v", body, err)
		default:
			t.Fatalf("after %q parley/indexStatus failed: %v", body, err)
		}
	})
}
