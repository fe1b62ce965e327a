package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/internal/syncbuf"
	"github.com/parleyhq/parley/internal/wire"
)

// rawClient is an editor's end of a connection to a served Server,
// writing bytes by hand and collecting what the server writes.
type rawClient struct {
	conn   net.Conn
	out    syncbuf.Buffer // everything the server wrote
	code   chan int       // Serve's result
	log    syncbuf.Buffer // the server's log file
	cancel context.CancelFunc
}

// serveRaw serves one client on stream's other end, made by mkStream from
// the server's end of a pipe.
func serveRaw(t *testing.T, mkStream func(io.ReadWriteCloser) jsonrpc2.Stream) *rawClient {
	t.Helper()
	srvSide, edSide := net.Pipe()
	c := &rawClient{conn: edSide, code: make(chan int, 1)}
	data := t.TempDir()
	srv := New(Options{StoreDir: func(string) (string, error) { return data, nil }, LogFile: &c.log, NoWatch: true})
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() { c.code <- srv.Serve(ctx, mkStream(srvSide)) }()
	go io.Copy(&c.out, edSide)
	t.Cleanup(func() {
		cancel()
		edSide.Close()
	})
	return c
}

// wait returns Serve's exit code; the client keeps its end open.
func (c *rawClient) wait(t *testing.T) int {
	t.Helper()
	select {
	case code := <-c.code:
		return code
	case <-time.After(waitTimeout):
		c.cancel()
		t.Fatalf("Serve still running after %v; log:\n%s", waitTimeout, c.log.String())
		return 0
	}
}

// TestServeRefusesHugeFrame: a header that declares more than
// wire.MaxFrame ends Serve with wire.ExitBroken before anything is
// allocated for the body (the client keeps its end open and sends no
// body), with the reason in the log file and in window/logMessage.
// 1,000,000,000 is under jsonrpc2's own cap, which would allocate it and
// wait for the body.
func TestServeRefusesHugeFrame(t *testing.T) {
	for _, declared := range []string{"8000000000", "1000000000", fmt.Sprint(wire.MaxFrame + 1), "99999999999999999999999"} {
		t.Run(declared, func(t *testing.T) {
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			c := serveRaw(t, NewStream)
			if _, err := fmt.Fprintf(c.conn, "Content-Length: %s\r\n\r\n{", declared); err != nil {
				t.Fatal(err)
			}
			if code := c.wait(t); code != wire.ExitBroken {
				t.Errorf("exit code %d, want %d; log:\n%s", code, wire.ExitBroken, c.log.String())
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > wire.MaxFrame/4 {
				t.Errorf("Serve allocated %d bytes for a frame it refused", grew)
			}
			want := fmt.Sprintf("frame of %s bytes exceeds the %d-byte limit; the stream cannot be resynchronised; exiting with status %d", declared, wire.MaxFrame, wire.ExitBroken)
			if !strings.Contains(c.log.String(), want) {
				t.Errorf("log lacks %q:\n%s", want, c.log.String())
			}
			if !strings.Contains(c.out.String(), `"method":"window/logMessage"`) || !strings.Contains(c.out.String(), "cannot be resynchronised") {
				t.Errorf("the client was not told:\n%s", c.out.String())
			}
		})
	}
}

// TestServeFrameAtBound: with a bound of the initialize request's size,
// that request is read and answered (with an error: it names no folder) and a frame one byte larger ends Serve with
// wire.ExitBroken.
func TestServeFrameAtBound(t *testing.T) {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"processId":null,"rootUri":null}}`
	c := serveRaw(t, func(rwc io.ReadWriteCloser) jsonrpc2.Stream {
		return newFrameStream(rwc, int64(len(init)))
	})
	fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(init), init)
	deadline := time.Now().Add(waitTimeout)
	for !strings.Contains(c.out.String(), `"id":1,`) {
		if time.Now().After(deadline) {
			t.Fatalf("no answer to an initialize of the bound's size:\n%s\nlog:\n%s", c.out.String(), c.log.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n", len(init)+1)
	if code := c.wait(t); code != wire.ExitBroken {
		t.Errorf("exit code %d, want %d", code, wire.ExitBroken)
	}
	if want := fmt.Sprintf("frame of %d bytes exceeds the %d-byte limit", len(init)+1, len(init)); !strings.Contains(c.log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, c.log.String())
	}
}

// TestFrameStreamHeaders: what the framing accepts, and how it refuses
// the rest: broken framing is a *wire.Error, the end of the input is
// io.EOF between frames and io.ErrUnexpectedEOF inside one.
func TestFrameStreamHeaders(t *testing.T) {
	const body = `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	ok := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	for _, tc := range []struct {
		name, in string
		want     error // nil: a message; errBroken: a *wire.Error
	}{
		{"plain", ok, nil},
		{"lower case, bare newlines, content type", fmt.Sprintf("content-length:%d\ncontent-type: application/vscode-jsonrpc; charset=utf-8\n\n%s", len(body), body), nil},
		{"last length counts", fmt.Sprintf("Content-Length: 1\r\nContent-Length: %d\r\n\r\n%s", len(body), body), nil},
		{"empty", "", io.EOF},
		{"header cut", "Content-Length: 2\r\n", io.ErrUnexpectedEOF},
		{"body cut", "Content-Length: 60\r\n\r\n{}", io.ErrUnexpectedEOF},
		{"no length", "Content-Type: x\r\n\r\n{}", errBroken},
		{"zero", "Content-Length: 0\r\n\r\n", errBroken},
		{"negative", "Content-Length: -1\r\n\r\n", errBroken},
		{"not a number", "Content-Length: 1e3\r\n\r\n", errBroken},
		{"no colon", "Content-Length 2\r\n\r\n{}", errBroken},
		{"over the bound", "Content-Length: 65\r\n\r\n", errBroken},
		{"endless header line", "X-Pad: " + strings.Repeat("a", 70<<10), errBroken},
		{"endless header block", strings.Repeat("X-Pad: a\r\n", 1000), errBroken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFrameStream(&fuzzWire{in: bytes.NewReader([]byte(tc.in))}, 64)
			_, _, err := s.Read(context.Background())
			var we *wire.Error
			switch {
			case tc.want == errBroken && !errors.As(err, &we):
				t.Errorf("got %v, want a *wire.Error", err)
			case tc.want != errBroken && !errors.Is(err, tc.want) && err != tc.want:
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}
}

var errBroken = errors.New("a *wire.Error")
