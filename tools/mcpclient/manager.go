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
// tools stay listed, and the next call of one of them starts it again. A
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
	// Report, when set, hears of servers that failed to start, died, or
	// changed their tool list. It may be called from any goroutine.
	Report func(Event)
	// Version is sent to servers as the client's version.
	Version string
}

// EventKind says what happened to a server.
type EventKind string

const (
	EventFailed       EventKind = "failed"  // could not start (Err)
	EventCrashed      EventKind = "crashed" // the connection ended (Err)
	EventToolsChanged EventKind = "toolsChanged"
)

// Event is one thing that happened to a server.
type Event struct {
	Server string
	Kind   EventKind
	Err    error
}

func (e Event) String() string {
	switch e.Kind {
	case EventFailed:
		return fmt.Sprintf("MCP server %s failed to start: %v", e.Server, e.Err)
	case EventCrashed:
		return fmt.Sprintf("MCP server %s stopped: %v; it is restarted when one of its tools is next called", e.Server, e.Err)
	}
	return fmt.Sprintf("MCP server %s changed its tools", e.Server)
}

// Manager runs the configured servers.
type Manager struct {
	opts    Options
	servers []*server // by name
	gen     atomic.Uint64
}

// Start starts every server in parallel and returns once each has started
// or failed (reported) within the timeout; ctx bounds the whole start.
func Start(ctx context.Context, opts Options) *Manager {
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	m := &Manager{opts: opts}
	for _, name := range slices.Sorted(maps.Keys(opts.Servers)) {
		m.servers = append(m.servers, &server{m: m, name: name, def: opts.Servers[name]})
	}
	var wg sync.WaitGroup
	for _, s := range m.servers {
		wg.Go(func() {
			if _, err := s.connect(ctx); err != nil {
				m.report(Event{Server: s.name, Kind: EventFailed, Err: err})
			}
		})
	}
	wg.Wait()
	return m
}

func (m *Manager) report(e Event) {
	if e.Kind == EventToolsChanged {
		m.gen.Add(1)
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
	// State is "running", "failed" or "stopped" (died; restarted on use).
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
