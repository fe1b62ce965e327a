package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/acp"
	"github.com/parleyhq/parley/internal/syncbuf"
	"github.com/parleyhq/parley/internal/wire"
)

// endlessLine starts `parley args...` on an empty workspace and writes
// one line without a newline to its stdin until it exits (or bound bytes
// are written), keeping stdin open. It returns the exit status and
// stderr.
func endlessLine(t *testing.T, bound int64, args ...string) (int, string) {
	t.Helper()
	parley := parleyPath(t)
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	stdin, toServer, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer toServer.Close()
	var stderr syncbuf.Buffer
	cmd := exec.Command(parley, append(args, "--root", ws, "--no-watch")...)
	cmd.Env = append(chatTestEnv(dir, "http://127.0.0.1:1"), "PARLEY_MCP_TOKEN=")
	cmd.Stdin, cmd.Stderr = stdin, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	go func() {
		chunk := bytes.Repeat([]byte("a"), 1<<20)
		for written := int64(0); written <= bound; written += int64(len(chunk)) {
			if _, err := toServer.Write(chunk); err != nil {
				return // the process is gone
			}
		}
	}()
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-time.After(60 * time.Second): // a failure bound
		cmd.Process.Kill()
		<-exited
		t.Fatalf("parley %s still running 60s into an endless line; stderr:\n%s", strings.Join(args, " "), stderr.String())
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		return ee.ExitCode(), stderr.String()
	}
	if waitErr != nil {
		t.Fatal(waitErr)
	}
	return 0, stderr.String()
}

// TestMCPStdioEndlessLine: `parley mcp` reading a line that reaches
// wire.MaxFrame bytes without a newline exits with wire.ExitBroken and
// says why on stderr, instead of skipping it for ever.
func TestMCPStdioEndlessLine(t *testing.T) {
	code, stderr := endlessLine(t, 2*wire.MaxFrame, "mcp")
	want := fmt.Sprintf("a line reached the %d-byte limit without a newline; the stream cannot be resynchronised; exiting with status %d", wire.MaxFrame, wire.ExitBroken)
	if code != wire.ExitBroken || !strings.Contains(stderr, want) {
		t.Errorf("exit status %d, stderr:\n%s\nwant status %d and %q", code, stderr, wire.ExitBroken, want)
	}
}

// TestACPEndlessLine: `parley acp` reading a line longer than the ACP
// SDK takes exits with wire.ExitBroken and says why on stderr (the SDK
// alone ends the connection silently, and the process with status 0).
func TestACPEndlessLine(t *testing.T) {
	code, stderr := endlessLine(t, 2*acp.MaxLine, "acp")
	want := fmt.Sprintf("a line reached the %d-byte limit without a newline; the stream cannot be resynchronised; exiting with status %d", acp.MaxLine, wire.ExitBroken)
	if code != wire.ExitBroken || !strings.Contains(stderr, want) {
		t.Errorf("exit status %d, stderr:\n%s\nwant status %d and %q", code, stderr, wire.ExitBroken, want)
	}
}
