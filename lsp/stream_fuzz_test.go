package lsp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// fuzzWire is one end of a connection: reads come from the fuzz input,
// writes are collected. It fails writes beyond a budget, so a reader
// that answers without consuming input cannot loop for ever.
type fuzzWire struct {
	in     *bytes.Reader
	out    bytes.Buffer
	writes int
	budget int
}

var (
	errWriteBudget = errors.New("fuzz: write budget exhausted")
	errNoProgress  = errors.New("fuzz: message read without consuming its bytes")
)

func (w *fuzzWire) Read(p []byte) (int, error) { return w.in.Read(p) }

func (w *fuzzWire) Write(p []byte) (int, error) {
	w.writes++
	if w.writes > w.budget {
		return 0, errWriteBudget
	}
	return w.out.Write(p)
}

func (w *fuzzWire) Close() error { return nil }

// fuzzFrame frames body as the LSP base protocol does.
func fuzzFrame(body string) string {
	return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// longDigitRun reports a run of more than 7 digits: a Content-Length that
// large (under the bound) makes the framer allocate its buffer before
// reading the body, which only measures the machine's memory.
func longDigitRun(data []byte) bool {
	run := 0
	for _, c := range data {
		if c >= '0' && c <= '9' {
			run++
			if run > 7 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// fuzzMaxFrame is the frame bound of FuzzStreamRead.
const fuzzMaxFrame = 64 << 10

type fuzzRequest interface {
	Method() string
	Params() jsonrpc2.RawMessage
}

// FuzzStreamRead feeds arbitrary bytes as the client's side of the stream
// through the stack Serve reads from: tolerantStream over frameStream (with
// a bound of fuzzMaxFrame, so that any declared length can be fuzzed), with
// request params decoded by the server's codec. Reading ends with an error
// and never hangs, every message consumes input, and what tolerantStream
// writes back for a malformed body is one well-framed error response per
// body.
func FuzzStreamRead(f *testing.F) {
	for _, s := range []string{
		"",
		fuzzFrame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"processId":null,"rootUri":null}}`),
		fuzzFrame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`) +
			fuzzFrame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.go","languageId":"go","version":1,"text":"package a\n"}}}`),
		fuzzFrame(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///a.go","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":7}},"text":"x"}]}}`),
		fuzzFrame(`{"jsonrpc":"2.0","id":"s","method":"parley/indexStatus"}`),
		fuzzFrame(`{"jsonrpc":"2.0","id":2,"result":null}`) + fuzzFrame(`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}`),
		fuzzFrame(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}`),
		fuzzFrame(`not json`) + fuzzFrame(`{"jsonrpc":"2.0","method":"exit"}`),
		fuzzFrame(`[{"jsonrpc":"2.0","method":"initialized","params":{}}]`),
		fuzzFrame(`{"jsonrpc":"2.0","id":1,"method":"m","result":1}`),
		fuzzFrame(`{"jsonrpc":"1.0","id":1,"method":"m"}`) + fuzzFrame(`{"id":1.5,"method":"m"} x`),
		"content-length: 2\ncontent-type: application/vscode-jsonrpc; charset=utf-8\n\n{}",
		"Content-Length: 0\r\n\r\n", "Content-Length: -1\r\n\r\n", "Content-Length: 99\r\n\r\n{}",
		"Content-Length 2\r\n\r\n{}", "Content-Length: 2\r\n", "\r\n\r\n",
		"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{} ",
		"Content-Length: 8000000000\r\n\r\n{}", "Content-Length: 65537\r\n\r\n{}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		wire := &fuzzWire{in: bytes.NewReader(data), budget: len(data) + 1}
		s := newTolerantStream(newFrameStream(wire, fuzzMaxFrame), &logSink{})
		ctx := context.Background()
		done := make(chan error, 1)
		go func() {
			var consumed int64
			for {
				msg, n, err := s.Read(ctx)
				if err != nil {
					done <- err
					return
				}
				consumed += n
				if n <= 0 || consumed > int64(len(data)) {
					done <- errNoProgress
					return
				}
				if req, ok := msg.(fuzzRequest); ok {
					decodeParams(req.Method(), req.Params())
				}
			}
		}()
		select {
		case err := <-done:
			if errors.Is(err, errWriteBudget) || errors.Is(err, errNoProgress) {
				t.Fatalf("reading %q: %v", data, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("reading %q did not end", data)
		}

		// tolerantStream's answers are frames of error responses.
		answers := jsonrpc2.NewStream(&fuzzWire{in: bytes.NewReader(wire.out.Bytes())})
		for i := 0; ; i++ {
			msg, _, err := answers.Read(ctx)
			if errors.Is(err, io.EOF) {
				if i != wire.writes {
					t.Fatalf("%d writes but %d answers", wire.writes, i)
				}
				break
			}
			if err != nil {
				t.Fatalf("answer %d is malformed: %v\n%q", i, err, wire.out.Bytes())
			}
			if resp, ok := msg.(*jsonrpc2.Response); !ok || resp.Err() == nil {
				t.Fatalf("answer %d is %T, not an error response", i, msg)
			}
		}
	})
}

// decodeParams decodes params the way the server's handlers do, for the
// methods whose params the fuzz input is most likely to shape.
func decodeParams(method string, params jsonrpc2.RawMessage) {
	c := lspCodec{}
	var raw jsonrpc2.RawMessage
	_ = c.Unmarshal(params, &raw)
	switch method {
	case protocol.MethodInitialize:
		var p protocol.InitializeParams
		_ = c.Unmarshal(params, &p)
	case protocol.MethodTextDocumentDidOpen:
		var p protocol.DidOpenTextDocumentParams
		_ = c.Unmarshal(params, &p)
	case protocol.MethodTextDocumentDidChange:
		var p protocol.DidChangeTextDocumentParams
		_ = c.Unmarshal(params, &p)
	case protocol.MethodCancelRequest:
		var p protocol.CancelParams
		_ = c.Unmarshal(params, &p)
	default:
		var v any
		_ = c.Unmarshal(params, &v)
	}
}
