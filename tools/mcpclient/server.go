package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/tools"
)

// server is one configured server and its current connection.
type server struct {
	m    *Manager
	name string
	def  config.MCPServer // as configured; expanded at each start

	connMu sync.Mutex // one start at a time

	mu        sync.Mutex
	cs        *mcp.ClientSession // nil: not running
	tools     []tools.Tool
	resources []string
	prompts   []string
	err       error     // why it is not running
	failures  int       // failed starts in a row
	retryAt   time.Time // no start before (after a failed one)
	starting  bool      // a start is under way
	closed    bool
	stderr    *tail

	progress sync.Map // progress token -> func(string)
	tokens   atomic.Uint64
}

// session returns the running session, starting the server when it is not
// running (at the start, or after it died).
func (s *server) session(ctx context.Context) (*mcp.ClientSession, error) {
	s.mu.Lock()
	cs, err, retryAt := s.cs, s.err, s.retryAt
	s.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	if now := s.m.now(); now.Before(retryAt) {
		return nil, fmt.Errorf("%w (next start in %v)", err, retryAt.Sub(now).Round(time.Second))
	}
	return s.connect(ctx)
}

// retryDue says Retry should start s: it is not running and its backoff
// is over.
func (s *server) retryDue() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cs == nil && s.err != nil && !s.closed && !s.starting && !s.m.now().Before(s.retryAt)
}

// connect starts the server, lists its tools, resources and prompts, and
// watches the connection.
func (s *server) connect(ctx context.Context) (*mcp.ClientSession, error) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.mu.Lock()
	cs, closed := s.cs, s.closed
	// A start after a failure or a crash is a restart (s.err says why it
	// was down); the first start is not.
	restart := s.err != nil
	if cs == nil && !closed {
		s.starting = true
	}
	s.mu.Unlock()
	if cs != nil {
		return cs, nil
	}
	if closed {
		return nil, errors.New("the session is over")
	}
	if restart {
		s.m.report(Event{Server: s.name, Kind: EventRestarting})
	}
	cs, err := s.startAndList(ctx)
	s.mu.Lock()
	s.starting = false
	if err != nil {
		s.err = err
		if ctx.Err() != nil { // the turn was cancelled: not the server's failure
			s.mu.Unlock()
			return nil, err
		}
		s.failures++
		backoff := s.m.opts.RetryBackoff
		for i := 1; i < s.failures && backoff < MaxRetryBackoff; i++ {
			backoff *= 2
		}
		backoff = min(backoff, MaxRetryBackoff)
		s.retryAt = s.m.now().Add(backoff)
		s.mu.Unlock()
		s.m.report(Event{Server: s.name, Kind: EventFailed, Err: err, Retry: backoff})
		return nil, err
	}
	s.cs, s.err, s.failures, s.retryAt = cs, nil, 0, time.Time{}
	s.mu.Unlock()
	go s.watch(cs)
	if restart {
		s.m.report(Event{Server: s.name, Kind: EventRestarted})
	}
	return cs, nil
}

// startAndList starts the server and lists what it offers, within the
// start timeout; the error says why it failed, with the server's stderr.
func (s *server) startAndList(ctx context.Context) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(ctx, s.m.opts.StartTimeout)
	defer cancel()
	cs, err := s.start(ctx)
	if err == nil {
		if err = s.list(ctx, cs); err != nil {
			cs.Close()
		}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %v", s.m.opts.StartTimeout)
		}
		return nil, s.withStderr(err)
	}
	return cs, nil
}

// start connects over the definition's transport.
func (s *server) start(ctx context.Context) (*mcp.ClientSession, error) {
	getenv := s.m.opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	def, err := s.def.Expand(getenv)
	if err != nil {
		return nil, err
	}
	var t mcp.Transport
	switch def.Transport() {
	case config.MCPStdio:
		t = s.command(def)
	case config.MCPHTTP:
		t = &mcp.StreamableClientTransport{Endpoint: def.URL, HTTPClient: headerClient(def.Headers)}
	case config.MCPSSE:
		t = &mcp.SSEClientTransport{Endpoint: def.URL, HTTPClient: headerClient(def.Headers)}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "parley", Version: s.m.opts.Version}, &mcp.ClientOptions{
		// Not on the notification's goroutine: listing is a request on
		// the same connection.
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { go s.refresh() },
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			if f, ok := s.progress.Load(r.Params.ProgressToken); ok {
				f.(func(string))(progressLine(r.Params))
			}
		},
	})
	return client.Connect(ctx, t, nil)
}

// command is the transport of a stdio server: its environment is parley's
// plus the definition's env, its stderr kept (the tail) for reports.
func (s *server) command(def config.MCPServer) mcp.Transport {
	cmd := exec.Command(def.Command, def.Args...)
	cmd.Dir = s.m.opts.Dir
	if def.Cwd != "" {
		cmd.Dir = def.Cwd
		if !filepath.IsAbs(def.Cwd) && s.m.opts.Dir != "" {
			cmd.Dir = filepath.Join(s.m.opts.Dir, def.Cwd)
		}
	}
	cmd.Env = serverEnv(os.Environ())
	for k, v := range def.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	st := &tail{}
	cmd.Stderr = st
	s.mu.Lock()
	s.stderr = st
	s.mu.Unlock()
	return &mcp.CommandTransport{Command: cmd}
}

// serverEnv is environ without parley's own secrets (tools.SecretEnv),
// which a server does not get from parley's environment (its env may pass
// them on explicitly).
func serverEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if !tools.SecretEnv(name) {
			out = append(out, kv)
		}
	}
	return out
}

// list reads the server's tools, and the names of its resources and
// prompts where it offers them.
func (s *server) list(ctx context.Context, cs *mcp.ClientSession) error {
	var ts []tools.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("list tools: %w", err)
		}
		if tl, err := newTool(s, t); err == nil {
			ts = append(ts, tl)
		} else if s.m.opts.Report != nil {
			s.m.opts.Report(Event{Server: s.name, Kind: EventFailed, Err: err})
		}
	}
	var resources, prompts []string
	if caps := cs.InitializeResult().Capabilities; caps != nil {
		if caps.Resources != nil {
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					break // optional: the tools still work
				}
				resources = append(resources, r.URI)
			}
		}
		if caps.Prompts != nil {
			for p, err := range cs.Prompts(ctx, nil) {
				if err != nil {
					break
				}
				prompts = append(prompts, p.Name)
			}
		}
	}
	s.mu.Lock()
	changed := s.tools != nil && !sameTools(s.tools, ts)
	s.tools, s.resources, s.prompts = ts, resources, prompts
	s.mu.Unlock()
	if changed {
		s.m.report(Event{Server: s.name, Kind: EventToolsChanged})
	}
	return nil
}

// refresh re-lists a running server's tools after it said they changed.
func (s *server) refresh() {
	s.mu.Lock()
	cs := s.cs
	s.mu.Unlock()
	if cs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.m.opts.StartTimeout)
	defer cancel()
	if err := s.list(ctx, cs); err != nil && s.m.opts.Report != nil {
		s.m.opts.Report(Event{Server: s.name, Kind: EventFailed, Err: err})
	}
}

func sameTools(a, b []tools.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name() != b[i].Name() || a[i].Description() != b[i].Description() || string(a[i].Schema()) != string(b[i].Schema()) {
			return false
		}
	}
	return true
}

// watch waits for the connection to end; unless parley closed it, the
// server died, which is reported. Its tools stay: the next call restarts
// it.
func (s *server) watch(cs *mcp.ClientSession) {
	err := cs.Wait()
	if err == nil {
		err = errors.New("the connection closed")
	}
	err = s.withStderr(err)
	s.mu.Lock()
	if s.cs != cs {
		s.mu.Unlock()
		return
	}
	s.cs, s.err = nil, err
	closed := s.closed
	s.mu.Unlock()
	if !closed {
		s.m.report(Event{Server: s.name, Kind: EventCrashed, Err: err})
	}
}

// withStderr adds the last lines a stdio server wrote to stderr.
func (s *server) withStderr(err error) error {
	s.mu.Lock()
	st := s.stderr
	s.mu.Unlock()
	if st == nil {
		return err
	}
	if out := strings.TrimSpace(st.String()); out != "" {
		return fmt.Errorf("%w; its stderr ends with: %s", err, out)
	}
	return err
}

func (s *server) toolList() []tools.Tool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools
}

func (s *server) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Name: s.name, Transport: s.def.Transport(), Tools: len(s.tools), Err: s.err,
		Resources: s.resources, Prompts: s.prompts}
	switch {
	case s.cs != nil:
		st.State = "running"
	case s.starting && s.err != nil:
		st.State = "restarting"
	case s.starting:
		st.State = "starting"
	case s.tools == nil:
		st.State = "failed"
	default:
		st.State = "stopped"
	}
	return st
}

func (s *server) close() error {
	s.connMu.Lock() // not while a start is under way
	defer s.connMu.Unlock()
	s.mu.Lock()
	cs := s.cs
	s.closed = true
	s.mu.Unlock()
	if cs == nil {
		return nil
	}
	return cs.Close()
}

// headerClient sends headers with every request (nil without any).
func headerClient(h map[string]string) *http.Client {
	if len(h) == 0 {
		return nil
	}
	return &http.Client{Transport: headerTransport(h)}
}

type headerTransport map[string]string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range h {
		r.Header.Set(k, v)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

func progressLine(p *mcp.ProgressNotificationParams) string {
	var b strings.Builder
	b.WriteString("progress")
	if p.Total > 0 {
		fmt.Fprintf(&b, " %g/%g", p.Progress, p.Total)
	} else {
		fmt.Fprintf(&b, " %g", p.Progress)
	}
	if p.Message != "" {
		b.WriteString(": " + p.Message)
	}
	return b.String() + "\n"
}
