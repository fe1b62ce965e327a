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
	"github.com/parleyhq/parley/internal/wire"
)

// TestServeRefusesHugeFrame runs `parley serve` as an editor does and
// declares a frame of 8,000,000,000 bytes, sending no body and keeping
// stdin open: the process ends with wire.ExitBroken and its log file
// says why.
func TestServeRefusesHugeFrame(t *testing.T) {
	parley := parleyPath(t)
	dir := t.TempDir()
	logFile := filepath.Join(dir, "serve.log")
	stdin, toServer, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer toServer.Close() // open until the test is over
	var stdout syncbuf.Buffer
	cmd := exec.Command(parley, "serve", "--log-file", logFile, "--no-watch")
	cmd.Stdin, cmd.Stdout = stdin, &stdout
	cmd.Env = append(os.Environ(), "PARLEY_DATA_DIR="+filepath.Join(dir, "data"),
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if _, err := fmt.Fprint(toServer, "Content-Length: 8000000000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	select {
	case waitErr = <-exited:
	case <-time.After(exitWait):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("parley serve still running %v after a frame of 8,000,000,000 bytes was declared", exitWait)
	}
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) || ee.ExitCode() != wire.ExitBroken {
		t.Errorf("parley serve ended with %v, want exit status %d", waitErr, wire.ExitBroken)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("frame of 8000000000 bytes exceeds the %d-byte limit; the stream cannot be resynchronised; exiting with status %d", wire.MaxFrame, wire.ExitBroken)
	if !strings.Contains(string(log), want) {
		t.Errorf("the log lacks %q:\n%s", want, log)
	}
}
