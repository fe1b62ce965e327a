package lspclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/wire"
	"github.com/parleyhq/parley/tools"
)

// Timeouts of a server's life outside the settling wait.
var (
	// startTimeout bounds initialize: gopls and pyright answer in well
	// under a second (their analysis comes later), but a loaded machine
	// can be slow; the edit that started the server waits this long at
	// worst.
	startTimeout = 10 * time.Second
	// stopTimeout bounds shutdown and then exit before the kill.
	stopTimeout = 2 * time.Second
)

// stderrTail is how much of a server's stderr is kept to explain a crash.
const stderrTail = 2 << 10

// server is one running language server for one root.
type server struct {
	name, root string
	cmd        *exec.Cmd
	conn       jsonrpc2.Conn
	exited     chan struct{} // closed when the process has exited
	stderr     *tailBuffer

	mu       sync.Mutex
	exitErr  error // why the process ended; set before exited closes
	stopping bool
	docs     map[string]*document  // by absolute path
	pubs     map[string]*published // by absolute path
	seq      uint64                // publications received
	changed  chan struct{}         // closed and replaced on each publication
}

// document is what the server was told of one file.
type document struct {
	version   int32
	text      string
	changeSeq uint64    // seq when it was last opened or changed
	changedAt time.Time // and when
}

// published is the last publication for one file.
type published struct {
	version *int32
	diags   []wireDiagnostic
	seq     uint64
	at      time.Time
}

// startServer runs command in root and initialises it. The process is
// killed if initialize fails.
func startServer(ctx context.Context, name, path string, args []string, root string) (*server, error) {
	cmd := exec.Command(path, args...)
	cmd.Dir = root
	cmd.Env = serverEnviron()
	// A process group of its own: a server's children (gopls runs the go
	// command) are killed with it, instead of outliving the session.
	cmd.SysProcAttr = procAttr()
	s := &server{
		name: name, root: root, cmd: cmd, exited: make(chan struct{}), stderr: &tailBuffer{max: stderrTail},
		docs: map[string]*document{}, pubs: map[string]*published{}, changed: make(chan struct{}),
	}
	cmd.Stderr = s.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: stdin pipe: %w", name, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: stdout pipe: %w", name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", strings.Join(append([]string{path}, args...), " "), err)
	}
	go func() {
		err := cmd.Wait()
		s.mu.Lock()
		s.exitErr = err
		s.mu.Unlock()
		close(s.exited)
	}()
	s.conn = jsonrpc2.NewConn(wire.NewFrameStream(pipes{out, in}, wire.MaxFrame))
	s.conn.Go(context.Background(), s.handle)
	if err := s.initialize(ctx); err != nil {
		s.kill()
		return nil, err
	}
	return s, nil
}

// serverEnviron is parley's environment without its credentials: a
// language server has no use for them.
func serverEnviron() []string {
	var out []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !tools.SecretEnv(name) {
			out = append(out, kv)
		}
	}
	return out
}

func (s *server) initialize(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	rootURI := string(uri.File(s.root))
	p := initializeParams{
		ProcessID:        os.Getpid(),
		ClientInfo:       map[string]string{"name": "parley"},
		RootURI:          rootURI,
		WorkspaceFolders: []workspaceFolder{{URI: rootURI, Name: filepath.Base(s.root)}},
		Capabilities:     clientCapabilities,
	}
	done := make(chan error, 1)
	go func() {
		_, err := s.conn.Call(ctx, "initialize", p, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("%s did not answer initialize within %s", s.name, startTimeout)
			}
			return fmt.Errorf("%s initialize: %w%s", s.name, err, s.stderrNote())
		}
	case <-s.exited:
		return fmt.Errorf("%s exited during initialize: %s", s.name, s.exitReason())
	}
	if err := s.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		return fmt.Errorf("%s initialized: %w", s.name, err)
	}
	return nil
}

// handle answers what servers ask of a client (configuration, folders,
// capability registration, progress tokens) with empty answers and
// records diagnostics; it runs on the connection's read goroutine.
func (s *server) handle(_ context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			s.publish(p)
		}
		return nil, nil
	case "workspace/configuration":
		// One answer per item asked (pyright asks for several sections).
		var p configurationParams
		if err := json.Unmarshal(req.Params(), &p); err != nil || len(p.Items) == 0 {
			return []any{nil}, nil
		}
		return make([]any, len(p.Items)), nil
	case "workspace/workspaceFolders":
		return []workspaceFolder{{URI: string(uri.File(s.root)), Name: filepath.Base(s.root)}}, nil
	case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create",
		"window/showMessageRequest", "workspace/diagnostic/refresh", "workspace/semanticTokens/refresh",
		"workspace/inlayHint/refresh", "workspace/codeLens/refresh":
		return nil, nil
	}
	return jsonrpc2.MethodNotFoundHandler(context.Background(), req)
}

func (s *server) publish(p publishDiagnosticsParams) {
	path := uri.URI(p.URI).FsPath()
	if path == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	s.pubs[filepath.Clean(path)] = &published{version: p.Version, diags: p.Diagnostics, seq: s.seq, at: time.Now()}
	close(s.changed)
	s.changed = make(chan struct{})
}

// label names the server for the model: its binary ("gopls").
func (s *server) label() string {
	return filepath.Base(s.cmd.Path)
}

// alive reports whether the process still runs.
func (s *server) alive() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// exitReason says how the process ended, with the end of its stderr.
func (s *server) exitReason() string {
	s.mu.Lock()
	err := s.exitErr
	s.mu.Unlock()
	msg := "exit status 0"
	if err != nil {
		msg = err.Error()
	}
	return msg + s.stderrNote()
}

func (s *server) stderrNote() string {
	if t := strings.TrimSpace(s.stderr.String()); t != "" {
		return "; its stderr ends: " + t
	}
	return ""
}

// stop asks the server to shut down and exit, and kills it when it does
// not within stopTimeout each.
func (s *server) stop() {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	if s.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		_, err := s.conn.Call(ctx, "shutdown", nil, nil)
		if err == nil {
			_ = s.conn.Notify(ctx, "exit", nil)
		}
		cancel()
		select {
		case <-s.exited:
		case <-time.After(stopTimeout):
		}
	}
	s.kill()
}

// kill ends the process group (the server, if it still runs, and what it
// started that still does) and the connection.
func (s *server) kill() {
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL) // no group left: nothing to do
	<-s.exited
	closeConn(s.conn)
}

// closeConn closes c without waiting forever: Close drains in-flight
// calls, and a call to a dead server never ends on its own.
func closeConn(c jsonrpc2.Conn) {
	done := make(chan struct{})
	go func() { _ = c.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(stopTimeout):
	}
}

// pipes joins the child's stdout and stdin into one stream.
type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	return errors.Join(p.WriteCloser.Close(), p.ReadCloser.Close())
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
