package acp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/workspace"
)

// FuzzFrames feeds arbitrary lines to a server, then a valid initialize:
// whatever came before, the server must not panic or hang, and must still
// answer. The workspace has no model, so a prompt that gets through ends
// at once with an error.
func FuzzFrames(f *testing.F) {
	root, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	roots, err := workspace.NewRoots(root)
	if err != nil {
		f.Fatal(err)
	}
	cfg, err := config.Load(config.Options{UserFile: "-", Getenv: func(string) string { return "" }})
	if err != nil {
		f.Fatal(err)
	}
	ws := &acp.Workspace{Roots: roots, Config: cfg}
	rootJSON, _ := json.Marshal(root)
	for _, seed := range []string{
		`not json`,
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":` + string(rootJSON) + `,"mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":` + string(rootJSON) + `,"mcpServers":[{"name":"x","type":"http","url":"","headers":[]}]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"resource","resource":{"uri":"file:///a","text":"t"}}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"session/load","params":{"sessionId":"../../etc","cwd":"/","mcpServers":[]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"session/set_mode","params":{"sessionId":"x","modeId":"plan"}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":7}}`,
		`{"jsonrpc":"2.0","id":5,"method":"session/list","params":{"cwd":"relative"}}`,
		`{"jsonrpc":"2.0","id":null,"result":{}}`,
		"\x00\xff",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		srv := acp.New(acp.Options{Open: func(cwd string) (*acp.Workspace, error) {
			if _, _, _, err := roots.Resolve(cwd); err != nil {
				return nil, err
			}
			return ws, nil
		}})
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan struct{})
		go func() {
			srv.Serve(context.Background(), inR, outW)
			outW.Close()
			close(done)
		}()
		answered := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(outR)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if bytes.Contains(sc.Bytes(), []byte(`"id":999999`)) {
					answered <- true
					break
				}
			}
			io.Copy(io.Discard, outR)
			answered <- false
		}()
		go func() {
			inW.Write(append(bytes.ReplaceAll(line, []byte("\n"), []byte(" ")), '\n'))
			inW.Write([]byte(`{"jsonrpc":"2.0","id":999999,"method":"initialize","params":{"protocolVersion":1}}` + "\n"))
		}()
		select {
		case ok := <-answered:
			if !ok {
				t.Fatal("the connection ended without answering initialize")
			}
		case <-time.After(waitTimeout):
			t.Fatal("no answer to initialize")
		}
		inW.Close()
		select {
		case <-done:
		case <-time.After(waitTimeout):
			t.Fatal("Serve did not return after stdin closed")
		}
	})
}
