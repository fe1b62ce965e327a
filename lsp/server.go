package lsp

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/internal/wire"
	"github.com/parleyhq/parley/workspace"
)

// Options configure a Server.
type Options struct {
	// StoreDir maps a workspace folder (absolute, symlink-free) to the
	// directory of its index store. Required.
	StoreDir func(root string) (string, error)
	// LogFile receives every log line (nil: none).
	LogFile io.Writer
	// LogLevel is the minimum level sent to the client's window/logMessage;
	// initializationOptions.logLevel overrides it.
	LogLevel slog.Level
	// Index tunes background indexing runs (Progress and Skip are set by
	// the server).
	Index index.Options
	// DefaultRoot is used when the client names no folder (neither
	// workspaceFolders nor rootUri).
	DefaultRoot string
	// Version is reported in serverInfo.
	Version string
	// NoWatch disables the server's own file watching (fsnotify) for
	// clients without dynamic watched-file registration.
	NoWatch bool
	// Agent configures the agent behind parley/chat and the code actions.
	Agent AgentOptions
	// ResolveBudget bounds how long a navigation request waits for the
	// query-time resolution of Python, TypeScript and JavaScript (see
	// navigation_py.go): 0 is DefaultResolveBudget, negative waits as
	// long as it takes.
	ResolveBudget time.Duration
}

// Server state machine.
const (
	stateNew int32 = iota
	stateInitializing
	stateRunning
	stateShutdown
)

// Server answers one client. Create it with New and run it with Serve.
type Server struct {
	protocol.UnimplementedServer

	opts   Options
	log    *logSink
	client protocol.Client
	conn   jsonrpc2.Conn

	state atomic.Int32
	// exited is closed by the exit notification.
	exited   chan struct{}
	exitOnce sync.Once

	// Negotiated at initialize; read-only afterwards.
	enc              workspace.Encoding
	caps             clientCaps
	editConfirmation string // initializationOptions.editConfirmation

	overlays *workspace.Overlays
	files    *fileCache
	wide     *wideCache
	// maps holds each folder's repo map builder (repomap.go).
	maps sync.Map // *folder -> *repomap.Mapper

	mu      sync.RWMutex
	folders []*folder // sorted by root, longest first for lookups
	roots   *workspace.Roots
	primary string // the first folder the client named: sessions live there

	// agents runs chat turns; pending and docBell let the agent's edits
	// and the client's document notifications meet (see editor.go).
	agents *agentHost
	// noClientDiagnostics is set once the client answered
	// parley/diagnostics with MethodNotFound (diagnostics.go).
	noClientDiagnostics atomic.Bool
	pending             pendingFiles
	docBell             bell

	// testHookRequest, when set by a test, runs before each request. A
	// test sets it while the server runs, hence atomic.
	testHookRequest atomic.Pointer[func(ctx context.Context, method string)]
	// testHookResolve, when set by a test, runs at the start of each
	// query-time resolution (navigation_py.go).
	testHookResolve func()
	// testHookWarm, when set by a test, gets the files each warming of an
	// opened document left in the tree cache (warm.go), once the warming
	// has freed the folder's resolution slot.
	testHookWarm func(warmed []string)
	// testHookApply, when set by a test, runs before an agent edit is
	// checked and sent.
	testHookApply func()
	// testHookIndexProgress, when set before Serve, runs on every file of
	// an index run with the run's context.
	testHookIndexProgress func(ctx context.Context)

	// stats holds server-side request latencies (parley/serverStats).
	stats latencies

	// completion answers inline completion requests (completion.go).
	completion *completionHost

	// inflight maps running requests to their cancel funcs ($/cancelRequest).
	inflightMu  sync.Mutex
	inflight    map[jsonrpc2.ID]context.CancelFunc
	requestBell bell // rings when a request ends

	// progressCancels maps progress tokens to the cancel func of their run.
	progressCancels sync.Map

	// bg carries the server's own goroutines (indexing, updaters,
	// watchers); cancelled on shutdown.
	bg     context.Context
	stopBg context.CancelFunc
	wg     sync.WaitGroup
}

// clientCaps is what the server needs to know about the client.
type clientCaps struct {
	workDoneProgress    bool
	dynamicWatchedFiles bool
	workspaceFolders    bool
	hierarchicalSymbols bool
	markdownHover       bool
	showMessageRequest  bool
	applyEdit           bool
	edits               editCaps
}

// New returns a server; nothing runs until Serve.
func New(opts Options) *Server {
	s := &Server{
		opts:       opts,
		log:        &logSink{file: opts.LogFile, level: opts.LogLevel},
		exited:     make(chan struct{}),
		overlays:   workspace.NewOverlays(),
		files:      newFileCache(maxFileCache),
		wide:       newWideCache(maxWideCache),
		inflight:   map[jsonrpc2.ID]context.CancelFunc{},
		completion: newCompletionHost(),
	}
	s.bg, s.stopBg = context.WithCancel(context.Background())
	s.agents = newAgentHost(s)
	return s
}

// Serve runs the protocol on stream until the client sends exit or the
// stream ends, then closes every store. It returns the process exit code:
// 0 when exit followed shutdown, wire.ExitBroken when the client broke
// the framing (logged; see NewStream), 1 otherwise.
func (s *Server) Serve(ctx context.Context, stream jsonrpc2.Stream) int {
	ts := newTolerantStream(stream, s.log)
	s.conn = jsonrpc2.NewConn(ts, jsonrpc2.WithCodec(lspCodec{}))
	s.client = protocol.ClientDispatcher(s.conn)
	s.log.setClient(s.client)
	s.conn.Go(protocol.WithClient(ctx, s.client), s.handler())
	select {
	case <-s.exited:
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	s.log.setClient(nil)
	s.teardown()
	s.closeConn(ts)
	if ts.broken.Load() != nil {
		return wire.ExitBroken
	}
	if s.state.Load() == stateShutdown {
		select {
		case <-s.exited:
			return 0
		default:
		}
	}
	return 1
}

// closeConn closes the connection without waiting for its read
// goroutine. jsonrpc2's Close returns only once that goroutine has, but a
// Read blocked on an inherited stdin (a blocking file descriptor, which
// closing does not interrupt) returns only when the client writes or
// closes its end, and editors close it after the process is gone: the
// server would never exit. The connection closes the stream once no
// request or call is in flight, so nothing is left to write then; Serve
// returns at that point and leaves the reader behind (the process exits;
// an in-process reader ends when its peer closes).
func (s *Server) closeConn(ts *tolerantStream) {
	go s.conn.Close()
	select {
	case <-s.conn.Done():
	case <-ts.closed:
	}
}

// teardown stops background work and closes the stores. Safe to call
// twice (shutdown, then the end of Serve).
func (s *Server) teardown() {
	s.stopBg()
	s.wg.Wait()
	s.mu.Lock()
	folders := s.folders
	s.folders = nil
	s.mu.Unlock()
	for _, f := range folders {
		f.close(s.log)
	}
	s.agents.close()
}

// primaryRoot is the folder sessions and configuration belong to: the
// first one the client named while it is served, else any.
func (s *Server) primaryRoot() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, f := range s.folders {
		if f.root == s.primary {
			return f.root
		}
	}
	if len(s.folders) > 0 {
		return s.folders[0].root
	}
	return ""
}

// goBg runs fn on a background goroutine that teardown waits for.
func (s *Server) goBg(fn func(ctx context.Context)) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn(s.bg)
	}()
}
