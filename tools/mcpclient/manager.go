// Package mcpclient gives the agent the tools of MCP servers (the
// mcpServers of agent/config), through the official SDK
// (github.com/modelcontextprotocol/go-sdk): stdio servers started as
// processes, streamable HTTP and legacy SSE servers reached by URL.
//
// A Manager starts every server in parallel, each within a timeout, and
// keeps its tool list: every tool of server S named T is offered to the
// model as the tools.Tool mcp_S_T (see ToolName) with the server's own
// schema and description. Such a tool is never ReadOnly, whatever the
// server's annotations claim (the permission policy trusts ReadOnly), so
// the policy judges it like any call with side effects, and rules can name
// it or a server's whole set (mcp_github_*).
//
// Contracts: a server that fails to start or dies is reported through
// Options.Report (and Status) and never stops the session: a dead server's
// tools stay listed, and the next call of one of them starts it again.
// A server that failed to start (it has no tools to call) is started again
// by Retry, which front ends call before each turn; after a failed start
// the next attempt waits a backoff (RetryBackoff, doubled at each failure
// up to MaxRetryBackoff), so a broken server does not cost every turn its
// start timeout: until then its calls fail at once, saying when it is
// retried. A
// call ends with its context (the turn's): the SDK tells the server it was
// cancelled. Everything a server sends back is a tool result for the model
// (an error result when the server failed), never a Go error, except the
// turn's own cancellation. A tool-list change notified by a server is
// picked up (Generation changes; front ends rebuild their registry before
// the next turn). A Manager is safe for concurrent use; Close stops every
// server.
package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/tools"
)

// DefaultStartTimeout bounds starting one server (process start, the
// initialize handshake and the first tool list).
const DefaultStartTimeout = 30 * time.Second

// DefaultRetryBackoff is the wait after a first failed start; it doubles
// at each further failure up to MaxRetryBackoff, and a successful start
// resets it.
const (
	DefaultRetryBackoff = 15 * time.Second
	MaxRetryBackoff     = 10 * time.Minute
)

// Options configure a Manager.
type Options struct {
	// Servers are the servers to run, by name (only those allowed to run:
	// see Approvals for workspace servers).
	Servers map[string]config.MCPServer
	// Dir is the working directory of stdio servers without a cwd, and
	// what a relative cwd is relative to (the workspace root).
	Dir string
	// Getenv expands ${VAR} in the definitions (nil: os.Getenv).
	Getenv func(string) string
	// StartTimeout bounds starting one server (zero: DefaultStartTimeout).
	StartTimeout time.Duration
	// RetryBackoff is the wait after a first failed start (zero:
	// DefaultRetryBackoff).
	RetryBackoff time.Duration
	// Report, when set, hears of servers that failed to start, died, or
	// changed their tool list. It may be called from any goroutine.
	Report func(Event)
	// Version is sent to servers as the client's version.
	Version string
}

// EventKind says what happened to a server.
type EventKind string

const (
	EventFailed       EventKind = "failed"     // could not start (Err; Retry)
	EventCrashed      EventKind = "crashed"    // the connection ended (Err)
	EventRestarting   EventKind = "restarting" // a start after a failure or crash began
	EventRestarted    EventKind = "restarted"  // ... and succeeded
	EventToolsChanged EventKind = "toolsChanged"
)

// Event is one thing that happened to a server.
type Event struct {
	Server string
	Kind   EventKind
	Err    error
	// Retry is, for EventFailed, the wait before the next start; zero
	// when the server is not retried (a workspace server not allowed).
	Retry time.Duration
}

func (e Event) String() string {
	switch e.Kind {
	case EventFailed:
		s := fmt.Sprintf("MCP server %s failed to start: %v", e.Server, e.Err)
		if e.Retry > 0 {
			s += fmt.Sprintf("; retried at the first turn after %v", e.Retry)
		}
		return s
	case EventCrashed:
		return fmt.Sprintf("MCP server %s stopped: %v; it is restarted when one of its tools is next called", e.Server, e.Err)
	case EventRestarting:
		return fmt.Sprintf("MCP server %s restarting", e.Server)
	case EventRestarted:
		return fmt.Sprintf("MCP server %s restarted", e.Server)
	}
	return fmt.Sprintf("MCP server %s changed its tools", e.Server)
}

// Manager runs the configured servers.
type Manager struct {
	opts    Options
	servers []*server // by name
	gen     atomic.Uint64
	now     func() time.Time // time.Now; tests move it
}

// Start starts every server in parallel and returns once each has started
// or failed (reported) within the timeout; ctx bounds the whole start.
func Start(ctx context.Context, opts Options) *Manager {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	if opts.RetryBackoff <= 0 {
		opts.RetryBackoff = DefaultRetryBackoff
	}
	m := &Manager{opts: opts, now: time.Now}
	for _, name := range slices.Sorted(maps.Keys(opts.Servers)) {
		m.servers = append(m.servers, &server{m: m, name: name, def: opts.Servers[name]})
	}
	m.startAll(ctx, m.servers)
	return m
}

// startAll starts servers in parallel (failures are reported by connect).
func (m *Manager) startAll(ctx context.Context, servers []*server) {
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(func() { s.connect(ctx) })
	}
	wg.Wait()
}

// Retry starts again, in parallel, the servers that are not running and
// whose backoff is over: one that failed to start, or died and was not
// called since. It returns once each has started or failed; ctx bounds it.
func (m *Manager) Retry(ctx context.Context) {
	if m == nil {
		return
	}
	var due []*server
	for _, s := range m.servers {
		if s.retryDue() {
			due = append(due, s)
		}
	}
	m.startAll(ctx, due)
}

func (m *Manager) report(e Event) {
	if e.Kind == EventToolsChanged || e.Kind == EventRestarted {
		m.gen.Add(1) // a restarted server may bring the tools it lacked
	}
	m.opts.report(e)
}

func (o *Options) report(e Event) {
	if o.Report != nil {
		o.Report(e)
	}
}

// Generation changes whenever a server's tool list changes.
func (m *Manager) Generation() uint64 {
	if m == nil {
		return 0
	}
	return m.gen.Load()
}

// Tools returns the tools of every server, by server and tool name. Names
// that collide after sanitising keep their first holder.
func (m *Manager) Tools() []tools.Tool {
	if m == nil {
		return nil
	}
	var out []tools.Tool
	seen := map[string]bool{}
	for _, s := range m.servers {
		for _, t := range s.toolList() {
			if !seen[t.Name()] {
				seen[t.Name()] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// Registry is base followed by every server's tools (a nil Manager has
// none).
func (m *Manager) Registry(base []tools.Tool) (*tools.Registry, error) {
	return tools.NewRegistry(append(slices.Clone(base), m.Tools()...)...)
}

// Status is what `parley mcp list` shows of one server.
type Status struct {
	Name      string
	Transport string
	// State is "running", "failed", "stopped" (died; restarted on use),
	// "starting" or "restarting".
	State string
	Err   error
	Tools int
	// Resources and Prompts are listed where the server offers them.
	Resources, Prompts []string
}

// Status reports every server, by name.
func (m *Manager) Status() []Status {
	if m == nil {
		return nil
	}
	out := make([]Status, len(m.servers))
	for i, s := range m.servers {
		out[i] = s.status()
	}
	return out
}

// Close stops every server.
func (m *Manager) Close() error {
	if m == nil {
		return nil
	}
	var errs []error
	for _, s := range m.servers {
		if err := s.close(); err != nil && !errors.Is(err, io.EOF) {
			errs = append(errs, fmt.Errorf("mcp server %s: %w", s.name, err))
		}
	}
	return errors.Join(errs...)
}
