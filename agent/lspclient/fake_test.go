package lspclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/internal/wire"
	"github.com/parleyhq/parley/tools"
)

// The test binary doubles as a fake language server when FAKE_LS names a
// mode: it publishes one error per line holding "BAD", with the
// document's version ("versioned"), without it ("unversioned"), exits
// on the first change ("crash") or never publishes ("mute").
func TestMain(m *testing.M) {
	if mode := os.Getenv("FAKE_LS"); mode != "" {
		os.Exit(fakeServer(mode))
	}
	os.Exit(m.Run())
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

func fakeServer(mode string) int {
	conn := jsonrpc2.NewConn(wire.NewFrameStream(stdio{}, wire.MaxFrame))
	exit := make(chan int, 1)
	conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		switch req.Method() {
		case "initialize":
			return map[string]any{"capabilities": map[string]any{"textDocumentSync": 1}}, nil
		case "shutdown":
			return nil, nil
		case "exit":
			exit <- 0
		case "textDocument/didOpen", "textDocument/didChange":
			var p struct {
				TextDocument   textDocumentItem `json:"textDocument"`
				ContentChanges []contentChange  `json:"contentChanges"`
			}
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				return nil, err
			}
			text := p.TextDocument.Text
			if len(p.ContentChanges) > 0 {
				text = p.ContentChanges[0].Text
				if mode == "crash" {
					exit <- 3
					return nil, nil
				}
			}
			if mode == "mute" {
				return nil, nil
			}
			pub := publishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []wireDiagnostic{}}
			if mode == "env" {
				// What the server sees of parley's credentials.
				pub.Diagnostics = append(pub.Diagnostics, wireDiagnostic{Message: "key=" + os.Getenv("ANTHROPIC_API_KEY")})
			}
			if mode == "versioned" {
				v := p.TextDocument.Version
				pub.Version = &v
			}
			for i, line := range strings.Split(text, "\n") {
				if strings.Contains(line, "BAD") {
					pub.Diagnostics = append(pub.Diagnostics, wireDiagnostic{
						Range: lspRange{Start: position{Line: uint32(i)}}, Severity: 1, Source: "fake",
						Code: json.RawMessage(`42`), Message: "bad line",
					})
				}
			}
			// Answer from another goroutine, as real servers do.
			go conn.Notify(context.Background(), "textDocument/publishDiagnostics", pub)
		}
		return nil, nil
	})
	select {
	case code := <-exit:
		return code
	case <-conn.Done():
		return 0
	}
}

func fakeManager(t *testing.T, mode string, timeout time.Duration) (*Manager, *[]error) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("FAKE_LS", mode)
	var warnings []error
	m := New(Options{
		Servers: []config.LSPEntry{{Name: "fake", Command: []string{exe}, Languages: []string{"python"}, Path: exe}},
		Timeout: timeout, Warn: func(err error) { warnings = append(warnings, err) },
	})
	t.Cleanup(func() { m.Close() })
	return m, &warnings
}

func diagnoseOne(m *Manager, root, text string) tools.FileDiagnostics {
	return m.Diagnose(context.Background(), []tools.DiagnosticFile{{Path: root + "/a.py", Root: root, Content: []byte(text)}})[0]
}

func TestFakeVersionedAndUnversioned(t *testing.T) {
	for _, mode := range []string{"versioned", "unversioned"} {
		t.Run(mode, func(t *testing.T) {
			m, warnings := fakeManager(t, mode, 10*time.Second)
			root := t.TempDir()
			fd := diagnoseOne(m, root, "ok\nBAD\n")
			if !fd.Settled || len(fd.Diags) != 1 || fd.Diags[0].Line != 2 || fd.Diags[0].Code != "42" || fd.Diags[0].Source != "fake" {
				t.Fatalf("first: %+v", fd)
			}
			fd = diagnoseOne(m, root, "ok\nfine\n")
			if !fd.Settled || len(fd.Diags) != 0 {
				t.Fatalf("fixed: %+v", fd)
			}
			if len(*warnings) != 0 {
				t.Errorf("warnings %v", *warnings)
			}
		})
	}
}

// A language server does not inherit parley's credentials.
func TestServerEnvironmentHasNoKeys(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-SECRET")
	m, _ := fakeManager(t, "env", 10*time.Second)
	fd := diagnoseOne(m, t.TempDir(), "x\n")
	if len(fd.Diags) != 1 || fd.Diags[0].Message != "key=" {
		t.Errorf("the server saw %+v", fd.Diags)
	}
}

// A server that exits is reported and started again on the next use.
func TestFakeCrashRestarts(t *testing.T) {
	m, warnings := fakeManager(t, "crash", 5*time.Second)
	root := t.TempDir()
	if fd := diagnoseOne(m, root, "BAD\n"); !fd.Settled || len(fd.Diags) != 1 {
		t.Fatalf("open: %+v", fd)
	}
	fd := diagnoseOne(m, root, "BAD\nBAD\n") // the change kills it
	if fd.Settled || !strings.Contains(fd.Problem, "exited") {
		t.Fatalf("crash: %+v", fd)
	}
	// The next use starts a new server, which is told the file anew.
	if fd := diagnoseOne(m, root, "BAD\nBAD\nBAD\n"); !fd.Settled || len(fd.Diags) != 3 {
		t.Fatalf("after the crash: %+v", fd)
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0].Error(), "exited") {
		t.Errorf("warnings %v", *warnings)
	}
}

// A server that never publishes makes each wait end at the timeout,
// unsettled, and is restarted after hungAfter such waits.
func TestFakeMuteIsUnsettledThenRestarted(t *testing.T) {
	m, warnings := fakeManager(t, "mute", 200*time.Millisecond)
	root := t.TempDir()
	var first int
	for i := range hungAfter {
		start := time.Now()
		fd := diagnoseOne(m, root, strings.Repeat("BAD\n", i+1))
		if fd.Settled || fd.Problem != "" {
			t.Fatalf("wait %d: %+v", i, fd)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("wait %d took %s", i, d)
		}
		if i == 0 {
			first = m.Running()[0].PID
		}
	}
	if len(*warnings) != 1 || !strings.Contains((*warnings)[0].Error(), "restarting") {
		t.Fatalf("warnings %v", *warnings)
	}
	diagnoseOne(m, root, "again\n")
	if r := m.Running(); len(r) != 1 || r[0].PID == first {
		t.Errorf("running %+v, first pid %d", r, first)
	}
}

// A command that cannot start is reported once and not retried on every
// edit.
func TestStartFailureBacksOff(t *testing.T) {
	var warnings []error
	m := New(Options{
		Servers: []config.LSPEntry{{Name: "nope", Command: []string{"/nonexistent/ls"}, Languages: []string{"python"}, Path: "/nonexistent/ls"}},
		Warn:    func(err error) { warnings = append(warnings, err) },
	})
	defer m.Close()
	root := t.TempDir()
	for range 3 {
		fd := diagnoseOne(m, root, "x\n")
		if !strings.Contains(fd.Problem, "/nonexistent/ls") {
			t.Fatalf("%+v", fd)
		}
	}
	if len(warnings) != 1 {
		t.Errorf("warnings %v", warnings)
	}
}

// Edits that arrive together start one server, and Close ends its
// process.
func TestConcurrentStartAndClose(t *testing.T) {
	m, warnings := fakeManager(t, "versioned", 10*time.Second)
	root := t.TempDir()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			path := filepath.Join(root, fmt.Sprintf("f%d.py", i))
			fd := m.Diagnose(context.Background(), []tools.DiagnosticFile{{Path: path, Root: root, Content: []byte("BAD\n")}})[0]
			if !fd.Settled || len(fd.Diags) != 1 {
				t.Errorf("%s: %+v", path, fd)
			}
		})
	}
	wg.Wait()
	r := m.Running()
	if len(r) != 1 || r[0].Documents != 4 {
		t.Fatalf("running %+v", r)
	}
	proc, err := os.FindProcess(r[0].PID)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if err := proc.Signal(syscall.Signal(0)); err == nil {
		t.Errorf("the server process %d still runs after Close", r[0].PID)
	}
	if fd := diagnoseOne(m, root, "BAD\n"); !strings.Contains(fd.Problem, "ended") {
		t.Errorf("after Close: %+v", fd)
	}
	if len(*warnings) != 0 {
		t.Errorf("warnings %v", *warnings)
	}
}
