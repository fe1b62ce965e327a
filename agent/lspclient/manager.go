package lspclient

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

// Backoffs after a server failed: it is not started again before then.
var (
	retryAfter = 30 * time.Second
	// hungAfter is how many waits in a row a server may let pass
	// without publishing anything before it counts as hung and is
	// restarted.
	hungAfter = 3
)

// Options configure a Manager.
type Options struct {
	// Servers are the language servers (config.Config.LSPServers); the
	// disabled ones and those whose binary was not found never start.
	Servers []config.LSPEntry
	// Timeout bounds the wait for a change's diagnostics (0: the
	// configuration's default).
	Timeout time.Duration
	// Warn hears of servers that failed, crashed or hung (nil: dropped).
	Warn func(error)
}

// Manager runs the language servers of one process, started on demand.
type Manager struct {
	opts   Options
	byLang map[string]config.LSPEntry // language -> server entry

	mu       sync.Mutex
	closed   bool
	running  map[key]*server
	starting map[key]chan struct{} // closed when that start is over
	failed   map[key]failure
	silent   map[key]int // waits in a row the server let pass in silence
}

// key names one server: one per workspace root and server name.
type key struct{ name, root string }

type failure struct {
	at  time.Time
	err error
}

// New returns a Manager; nothing starts until the first Diagnose.
func New(o Options) *Manager {
	if o.Timeout <= 0 {
		o.Timeout = config.DefaultLSPTimeoutMS * time.Millisecond
	}
	if o.Warn == nil {
		o.Warn = func(error) {}
	}
	m := &Manager{
		opts: o, byLang: map[string]config.LSPEntry{}, running: map[key]*server{},
		starting: map[key]chan struct{}{}, failed: map[key]failure{}, silent: map[key]int{},
	}
	for _, e := range o.Servers {
		if e.Disabled || e.Path == "" {
			continue
		}
		for _, l := range e.Languages {
			if _, taken := m.byLang[l]; !taken { // entries come sorted by name
				m.byLang[l] = e
			}
		}
	}
	return m
}

// FromConfig is New with c's servers (their binaries looked up on PATH)
// and timeout; nil when no server can run, so the agent goes without
// diagnostics.
func FromConfig(c *config.Config, warn func(error)) *Manager {
	m := New(Options{Servers: c.LSPServers(nil), Timeout: time.Duration(c.LSPTimeoutMS) * time.Millisecond, Warn: warn})
	if len(m.byLang) == 0 {
		return nil
	}
	return m
}

// Timeout is the bound on one wait for diagnostics.
func (m *Manager) Timeout() time.Duration { return m.opts.Timeout }

// langFile is a file with its language.
type langFile struct {
	tools.DiagnosticFile
	lang string
}

// Diagnose implements tools.DiagnosticSource: files of languages without
// a server are Unsupported; the others are synced into their server
// (started if need be) and waited for.
func (m *Manager) Diagnose(ctx context.Context, files []tools.DiagnosticFile) []tools.FileDiagnostics {
	groups := map[key][]langFile{}
	var order []key
	out := map[string]tools.FileDiagnostics{}
	for _, f := range files {
		f.Path = filepath.Clean(f.Path)
		lang := workspace.DetectLanguage(filepath.ToSlash(f.Path), head(f.Content))
		e, ok := m.byLang[lang]
		if !ok {
			out[f.Path] = tools.FileDiagnostics{Path: f.Path, Unsupported: true}
			continue
		}
		k := key{name: e.Name, root: cmp.Or(f.Root, filepath.Dir(f.Path))}
		if _, seen := groups[k]; !seen {
			order = append(order, k)
		}
		groups[k] = append(groups[k], langFile{DiagnosticFile: f, lang: lang})
	}
	for _, k := range order {
		for _, fd := range m.diagnoseWith(ctx, k, groups[k]) {
			out[fd.Path] = fd
		}
	}
	res := make([]tools.FileDiagnostics, 0, len(files))
	for _, f := range files {
		res = append(res, out[filepath.Clean(f.Path)])
	}
	return res
}

func head(b []byte) []byte {
	return b[:min(len(b), 256)]
}

func (m *Manager) diagnoseWith(ctx context.Context, k key, files []langFile) []tools.FileDiagnostics {
	s, err := m.server(ctx, k)
	if err != nil {
		return failAll(files, err.Error())
	}
	out, heard := s.diagnose(ctx, files, m.opts.Timeout)
	m.mu.Lock()
	hung := false
	if heard || ctx.Err() != nil {
		m.silent[k] = 0
	} else if m.silent[k]++; m.silent[k] >= hungAfter {
		hung = true
		delete(m.silent, k)
		if m.running[k] == s {
			delete(m.running, k)
		}
	}
	m.mu.Unlock()
	if hung {
		m.opts.Warn(fmt.Errorf("language server %s (%s) published nothing for %d changes in a row; restarting it", k.name, k.root, hungAfter))
		go s.stop()
	}
	return out
}

// server returns k's running server, starting it (again) if need be. A
// start runs without the lock, so other servers and Running go on; a
// second caller for the same server waits for it.
func (m *Manager) server(ctx context.Context, k key) (*server, error) {
	m.mu.Lock()
	for {
		wait, busy := m.starting[k]
		if !busy {
			break
		}
		m.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		m.mu.Lock()
	}
	defer m.mu.Unlock()
	if m.closed {
		return nil, fmt.Errorf("language server %s: the session has ended", k.name)
	}
	if s := m.running[k]; s != nil {
		if s.alive() {
			return s, nil
		}
		delete(m.running, k)
		if !s.isStopping() {
			err := fmt.Errorf("language server %s (%s) exited: %s; starting it again", k.name, k.root, s.exitReason())
			m.opts.Warn(err)
		}
		go s.kill()
	}
	if f, ok := m.failed[k]; ok && time.Since(f.at) < retryAfter {
		return nil, fmt.Errorf("%w (retried after %s)", f.err, retryAfter)
	}
	e := m.entry(k.name)
	done := make(chan struct{})
	m.starting[k] = done
	m.mu.Unlock()
	s, err := startServer(ctx, e.Name, e.Path, e.Command[1:], k.root)
	m.mu.Lock()
	delete(m.starting, k)
	close(done)
	if err == nil && m.closed {
		go s.stop() // Close ran meanwhile and did not see it
		return nil, fmt.Errorf("language server %s: the session has ended", k.name)
	}
	if err != nil {
		m.failed[k] = failure{at: time.Now(), err: err}
		m.opts.Warn(fmt.Errorf("language server %s: %w", k.name, err))
		return nil, err
	}
	delete(m.failed, k)
	m.running[k] = s
	return s, nil
}

func (m *Manager) entry(name string) config.LSPEntry {
	for _, e := range m.byLang {
		if e.Name == name {
			return e
		}
	}
	return config.LSPEntry{}
}

// Forget implements tools.DiagnosticSource: running servers close the
// documents at paths.
func (m *Manager) Forget(ctx context.Context, paths []string) {
	m.mu.Lock()
	servers := slices.Collect(maps.Values(m.running))
	m.mu.Unlock()
	for _, s := range servers {
		for _, p := range paths {
			_ = s.close(ctx, filepath.Clean(p)) // a dead server forgets anyway
		}
	}
}

// Status is one running server, for `parley lsp list`.
type Status struct {
	Name, Root string
	PID        int
	Documents  int
}

// Running lists the servers running now.
func (m *Manager) Running() []Status {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Status
	for k, s := range m.running {
		if !s.alive() {
			continue
		}
		s.mu.Lock()
		n := len(s.docs)
		s.mu.Unlock()
		out = append(out, Status{Name: k.name, Root: k.root, PID: s.cmd.Process.Pid, Documents: n})
	}
	slices.SortFunc(out, func(a, b Status) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Root, b.Root)) })
	return out
}

// Close shuts every server down, in parallel, and refuses further use.
// It always returns nil (a server that will not stop is killed); the
// error result fits the front ends' closer lists.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	servers := slices.Collect(maps.Values(m.running))
	m.running = map[key]*server{}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(s.stop)
	}
	wg.Wait()
	return nil
}

func (s *server) isStopping() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopping
}
