package lsp

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/fixture"
	"github.com/parleyhq/parley/internal/syncbuf"
)

// blockingStdio is what `parley serve` reads and writes: the read end of a
// pipe in blocking mode, like an inherited stdin, whose Close does not
// interrupt a Read in progress (only the peer writing or closing does).
type blockingStdio struct{ in, out *os.File }

func (s blockingStdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s blockingStdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s blockingStdio) Close() error {
	s.in.Close()
	return s.out.Close()
}

// TestExitWithStdinOpen: exit ends Serve while the client keeps its end
// of the input pipe open (editors close it only after the process is
// gone), with code 0 after shutdown and 1 without, whether exit carries
// "params": null or no params.
func TestExitWithStdinOpen(t *testing.T) {
	root := fixture.Workspace(t, "shop")
	for _, tc := range []struct {
		name     string
		shutdown bool
		exit     string
		want     int
	}{
		{"shutdown, no params", true, `{"jsonrpc":"2.0","method":"exit"}`, 0},
		{"shutdown, params null", true, `{"jsonrpc":"2.0","method":"exit","params":null}`, 0},
		{"no shutdown, no params", false, `{"jsonrpc":"2.0","method":"exit"}`, 1},
		{"no shutdown, params null", false, `{"jsonrpc":"2.0","method":"exit","params":null}`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inR, inW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			outR, outW, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			inR.Fd() // blocking mode, as stdin is: Close no longer interrupts Read
			var out syncbuf.Buffer
			drained := make(chan struct{})
			go func() { io.Copy(&out, outR); close(drained) }()
			// The client's end stays open until the test is over.
			t.Cleanup(func() { inW.Close(); <-drained; outR.Close() })

			data := t.TempDir()
			srv := New(Options{
				StoreDir: func(string) (string, error) { return data, nil },
				LogFile:  testLog{t},
				NoWatch:  true,
			})
			code := make(chan int, 1)
			go func() {
				code <- srv.Serve(context.Background(), jsonrpc2.NewStream(blockingStdio{in: inR, out: outW}))
			}()

			msgs := []string{
				fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"workspaceFolders":[{"uri":%q,"name":"shop"}]}}`, uri.File(root)),
				`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
			}
			if tc.shutdown {
				msgs = append(msgs, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
			}
			msgs = append(msgs, tc.exit)
			for _, m := range msgs {
				if _, err := fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(m), m); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case got := <-code:
				if got != tc.want {
					t.Errorf("exit code %d, want %d", got, tc.want)
				}
			case <-time.After(waitTimeout):
				t.Fatalf("Serve did not return after exit while stdin stayed open; output:\n%s", out.String())
			}
			inW.Close()
			<-drained
			if tc.shutdown && !strings.Contains(out.String(), `"id":2,"result":null`) {
				t.Errorf("no answer to shutdown:\n%s", out.String())
			}
		})
	}
}
