package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/syncbuf"
)

// exitWait bounds the wait for `parley serve` to end after exit. It is a
// failure bound, not a measurement: a server that exits does so at once.
const exitWait = 10 * time.Second

// TestServeExitsWithStdinOpen runs `parley serve` as editors do, with
// stdin a pipe the client keeps open, and checks that exit ends the
// process: status 0 after shutdown, 1 without, with "params": null or no
// params.
func TestServeExitsWithStdinOpen(t *testing.T) {
	parley := parleyPath(t)
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
			dir := t.TempDir()
			ws := filepath.Join(dir, "ws")
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, "a.go"), []byte("package ws\n\nfunc Alpha() {}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			stdin, toServer, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			// The client's end stays open until the test is over.
			defer toServer.Close()
			var stdout syncbuf.Buffer
			cmd := exec.Command(parley, "serve", "--log-file", filepath.Join(dir, "serve.log"), "--no-watch")
			cmd.Stdin, cmd.Stdout = stdin, &stdout
			cmd.Env = append(os.Environ(), "PARLEY_DATA_DIR="+filepath.Join(dir, "data"),
				"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stdin.Close() // the child has its own copy
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()

			msgs := []string{
				fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{},"workspaceFolders":[{"uri":"file://%s","name":"ws"}]}}`, ws),
				`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
			}
			if tc.shutdown {
				msgs = append(msgs, `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`)
			}
			for _, m := range append(msgs, tc.exit) {
				if _, err := fmt.Fprintf(toServer, "Content-Length: %d\r\n\r\n%s", len(m), m); err != nil {
					t.Fatal(err)
				}
			}

			var waitErr error
			select {
			case waitErr = <-exited:
			case <-time.After(exitWait):
				cmd.Process.Kill()
				<-exited
				log, _ := os.ReadFile(filepath.Join(dir, "serve.log"))
				t.Fatalf("parley serve still running %v after exit with stdin open\nstdout:\n%s\nlog:\n%s", exitWait, stdout.String(), log)
			}
			code := 0
			var ee *exec.ExitError
			if errors.As(waitErr, &ee) {
				code = ee.ExitCode()
			} else if waitErr != nil {
				t.Fatal(waitErr)
			}
			if code != tc.want {
				t.Errorf("exit status %d, want %d", code, tc.want)
			}
			if !strings.Contains(stdout.String(), `"id":1,"result":{"capabilities"`) {
				t.Errorf("no answer to initialize:\n%s", stdout.String())
			}
			if tc.shutdown && !strings.Contains(stdout.String(), `"id":2,"result":null`) {
				t.Errorf("no answer to shutdown:\n%s", stdout.String())
			}
		})
	}
}

// parleyPath is the path of the parley test command that
// testscript.Main installs on $PATH, for tests that run it as a process.
func parleyPath(t *testing.T) string {
	t.Helper()
	parley, err := exec.LookPath("parley")
	if err != nil {
		t.Fatalf("the parley test command is not on $PATH: %v", err)
	}
	return parley
}
