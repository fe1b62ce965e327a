package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/tools/mcpclient"
)

// AgentOptions configure the agent the server runs for parley/chat.
type AgentOptions struct {
	// Config says where configuration files and the environment are read
	// (zero: the real locations). Workspace is set to the first folder and
	// initializationOptions.agent / didChangeConfiguration layer on top.
	Config config.Options
	// NewProvider builds the model client (nil: provider.New from the
	// configuration). Tests inject scripted models here.
	NewProvider func(*config.Config) (provider.Provider, error)
	// UserMemoryDir is the user-level memory store ("": no user-global
	// memories); the workspace's store sits beside its sessions.
	UserMemoryDir string
}

// agentHost owns the agent's configuration, the session store and the
// sessions in memory. The agent itself is built on first use, so a server
// without a configured model still serves the index. Safe for concurrent
// use.
//
// Sessions in memory hold at most maxSessionBytes (their JSON size), the
// least recently used idle ones going first; running sessions and the one
// just used stay. An evicted session is loaded from the store when next
// used, having lost only its todo list and "allow for this session"
// answers. Without a store (another process holds it) an evicted session
// is gone, which is logged: memory stays bounded either way.
type agentHost struct {
	s *Server

	mu    sync.Mutex
	layer config.Layer // from initializationOptions and didChangeConfiguration
	built *builtAgent  // nil until first use and after a configuration change
	// building is closed when the build under way (see agentFor) ends;
	// nil when none is. layerGen counts layer changes, so a build of an
	// old layer is dropped; closed says close ran.
	building chan struct{}
	layerGen uint64
	closed   bool
	store    *agent.SessionStore
	opened   bool        // the store was tried (store may still be nil)
	memory   *memory.Set // nil until first use; see memory.go
	live     *byteLRU[string, *liveSession]
}

// maxSessionBytes bounds the sessions kept in memory.
const maxSessionBytes = 64 << 20

// builtAgent is the configuration-dependent part, rebuilt when the
// configuration changes; turns running hold on to the one they started with.
type builtAgent struct {
	cfg      *config.Config
	provider provider.Provider
	mcp      *mcpclient.Manager // nil without MCP servers; closed with the configuration
	hooks    *hooks.Runner      // nil: no hooks configured
	lsp      ownLSPState        // the fallback of parley/diagnostics; closed with the configuration

	mu       sync.Mutex
	registry *tools.Registry
	mcpGen   uint64 // the MCP tool lists registry was built from
}

// tools is the registry for a new turn, after the MCP servers that are
// down and due were started again (mcpclient.Manager.Retry): rebuilt when
// a server changed its tools since the last one.
func (b *builtAgent) tools(ctx context.Context) *tools.Registry {
	b.mcp.Retry(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	if gen := b.mcp.Generation(); gen != b.mcpGen {
		if reg, err := b.mcp.Registry(tools.AgentTools()); err == nil {
			b.registry, b.mcpGen = reg, gen
		}
	}
	return b.registry
}

// liveSession is a session known to this server. turn is held while a turn
// runs, so a session answers one message at a time.
type liveSession struct {
	turn    sync.Mutex
	session *agent.Session
	todos   *tools.TodoList
	// ledger is the session's re-read ledger (see package tools/ledger).
	ledger *ledger.Ledger
	// policy remembers this session's "allow for this session" answers;
	// built is the configuration it came from (a new one resets it). gate
	// wraps it for an editor that confirms edits in its preview.
	policy *permission.Policy
	gate   *permission.Deferred
	built  *builtAgent
	// mapFocus keeps the repo map of the session's system prompt (see
	// repoMap), for the configuration mapConfig.
	mapFocus  *repomap.Focus
	mapConfig *config.Config
}

func newAgentHost(s *Server) *agentHost {
	h := &agentHost{s: s, live: newByteLRU[string, *liveSession](maxSessionBytes)}
	h.live.keep = func(_ string, ls *liveSession) bool {
		if !ls.turn.TryLock() {
			return true // running
		}
		ls.turn.Unlock()
		return false
	}
	// Called by live.add, under h.mu.
	h.live.onEvict = func(id string, _ *liveSession) {
		if h.store == nil {
			h.s.log.Warnf("session %s dropped from memory: sessions exceed %d MiB and the session store is unavailable", id, maxSessionBytes>>20)
		}
	}
	return h
}

// sessionFootprint estimates the bytes a session holds: its JSON size.
// Precondition: the session's turn lock is held, or it is not shared yet.
func sessionFootprint(s *agent.Session) int64 {
	data, err := json.Marshal(s)
	if err != nil {
		return 0
	}
	return int64(len(data)) + 256
}

// touch records ls's size after a turn and makes it the most recently
// used session, evicting idle ones past the budget.
func (h *agentHost) touch(ls *liveSession, size int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := ls.session.ID // fixed for the session's life
	if cur, ok := h.live.peek(id); ok && cur == ls {
		h.live.add(id, ls, size)
	}
}

// parseAgentLayer reads the client's agent settings like a config file:
// unknown fields (typos) are errors. Absent, null, {} and [] (an empty Lua
// table) are an empty layer.
func parseAgentLayer(raw json.RawMessage) (config.Layer, error) {
	if string(raw) == "null" {
		return config.Layer{}, nil
	}
	l, err := config.ParseLayer(luaObjectsFor[config.Layer](raw))
	if err != nil {
		return config.Layer{}, fmt.Errorf("agent %w", err)
	}
	return l, nil
}

// setLayer replaces the client's configuration layer; the next turn
// builds the agent from it.
func (h *agentHost) setLayer(l config.Layer) {
	h.mu.Lock()
	old := h.built
	h.layer, h.built = l, nil
	h.layerGen++ // a build under way is for the old layer
	h.mu.Unlock()
	if old != nil {
		h.closeMCP(old)
	}
	h.s.invalidateCompletion()
}

// clientLayer is the client's configuration layer (initializationOptions
// and didChangeConfiguration).
func (h *agentHost) clientLayer() config.Layer {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.layer
}

// startMCP starts the configuration's MCP servers (the workspace's own
// only once allowed with parley mcp allow); problems go to the log and
// the chat (reportMCP). It returns when each started or failed (within
// its start timeout). Precondition: h.mu is not held.
func (h *agentHost) startMCP(cfg *config.Config, root string) *mcpclient.Manager {
	if len(cfg.MCPServers) == 0 || root == "" {
		return nil
	}
	dir, err := h.s.opts.StoreDir(root)
	if err != nil {
		h.s.log.Warnf("MCP servers not started: %v", err)
		return nil
	}
	ap := mcpclient.Approvals{Path: filepath.Join(filepath.Dir(dir), "mcp-approved.json")}
	return mcpclient.StartAllowed(context.Background(), ap, mcpclient.Options{
		Servers: cfg.MCPServers, Dir: root,
		Report: h.reportMCP,
	})
}

// reportMCP logs what happened to an MCP server and shows it in the
// client's chat (a parley/event of kind mcp, without a session: servers
// belong to the workspace).
func (h *agentHost) reportMCP(e mcpclient.Event) {
	h.s.log.Warnf("%s", e)
	if ev, ok := agent.MCPEvent(e); ok {
		h.s.sendEvent(context.Background(), ev)
	}
}

func (h *agentHost) closeMCP(b *builtAgent) {
	b.closeLSP()
	if err := b.mcp.Close(); err != nil {
		h.s.log.Warnf("%v", err)
	}
}

// agentFor returns the configuration-dependent part, building it when
// needed. Errors are configuration problems the user must fix. The build
// (MCP servers starting, up to their timeout) runs without h.mu, so other
// agent requests go on meanwhile; concurrent callers wait for one build.
func (h *agentHost) agentFor() (*builtAgent, error) {
	for {
		h.mu.Lock()
		if b := h.built; b != nil {
			h.mu.Unlock()
			return b, nil
		}
		if wait := h.building; wait != nil {
			h.mu.Unlock()
			<-wait
			continue
		}
		done := make(chan struct{})
		h.building = done
		layer, gen := h.layer, h.layerGen
		h.mu.Unlock()

		b, err := h.build(layer)

		h.mu.Lock()
		h.building = nil
		close(done)
		switch {
		case err != nil:
			h.mu.Unlock()
			return nil, err
		case h.closed:
			h.mu.Unlock()
			h.closeMCP(b)
			return nil, errors.New("the server is shutting down")
		case gen != h.layerGen:
			// The configuration changed during the build: build again.
			h.mu.Unlock()
			h.closeMCP(b)
			continue
		}
		h.built = b
		h.useEmbeddings(b.cfg)
		h.mu.Unlock()
		return b, nil
	}
}

// build builds the configuration-dependent part from the files and the
// client's layer. Precondition: h.mu is not held.
func (h *agentHost) build(layer config.Layer) (*builtAgent, error) {
	root := h.s.primaryRoot()
	o := h.s.opts.Agent.Config
	o.Workspace = root
	cfg, err := config.Load(o)
	if err != nil {
		return nil, err
	}
	if err := cfg.Merge(layer, "initializationOptions"); err != nil {
		return nil, err
	}
	newProvider := h.s.opts.Agent.NewProvider
	if newProvider == nil {
		if err := cfg.Ready(); err != nil {
			return nil, err
		}
		newProvider = realProvider
	}
	prov, err := newProvider(cfg)
	if err != nil {
		return nil, err
	}
	// Sessions build their own policies; fail here on bad rules.
	if _, err := permission.FromConfig(cfg); err != nil {
		return nil, err
	}
	// Hooks first: a bad hook must not leave MCP servers running.
	hr, err := hooks.FromConfig(cfg, root)
	if err != nil {
		return nil, err
	}
	m := h.startMCP(cfg, root)
	reg, err := m.Registry(tools.AgentTools())
	if err != nil {
		m.Close()
		return nil, err
	}
	if n := len(hr.Unapproved()); n > 0 {
		h.s.log.Warnf("%d hook(s) of %s will not run until you approve them: parley hooks approve", n, config.WorkspaceFile(root))
	}
	return &builtAgent{cfg: cfg, provider: prov, registry: reg, hooks: hr, mcp: m, mcpGen: m.Generation()}, nil
}

func realProvider(cfg *config.Config) (provider.Provider, error) {
	key, _ := cfg.Key()
	return provider.New(provider.Config{
		Provider: cfg.Provider, APIURL: cfg.APIURL, APIKey: key,
		Model: cfg.Model, MaxTokens: cfg.MaxTokens,
	})
}

// sessions opens the session store of the primary folder on first use.
// Another process holding it (a terminal chat) leaves sessions in memory.
// Precondition: h.mu is held.
func (h *agentHost) sessionsLocked() *agent.SessionStore {
	if h.opened {
		return h.store
	}
	h.opened = true
	root := h.s.primaryRoot()
	if root == "" {
		return nil
	}
	dir, err := h.s.opts.StoreDir(root)
	if err != nil {
		h.s.log.Warnf("sessions: %v", err)
		return nil
	}
	st, err := agent.OpenSessions(filepath.Join(filepath.Dir(dir), "sessions"))
	if err != nil {
		h.s.log.Warnf("chat sessions are kept in memory only: %v", err)
		return nil
	}
	h.store = st
	return st
}

// session returns the live session id, loading it from the store; id ""
// starts a new one.
func (h *agentHost) session(id string) (*liveSession, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if id == "" {
		s := agent.NewSession()
		ls := &liveSession{session: s, todos: &tools.TodoList{}, ledger: h.ledgerLocked(s.ID)}
		h.live.add(ls.session.ID, ls, sessionFootprint(ls.session))
		return ls, nil
	}
	if ls, ok := h.live.get(id); ok {
		return ls, nil
	}
	st := h.sessionsLocked()
	if st == nil {
		return nil, fmt.Errorf("no session %q", id)
	}
	s, err := st.Load(id)
	if errors.Is(err, agent.ErrSessionNotFound) {
		return nil, fmt.Errorf("no session %q", id)
	}
	if err != nil {
		return nil, err
	}
	ls := &liveSession{session: s, todos: &tools.TodoList{}, ledger: h.ledgerLocked(id)}
	h.live.add(id, ls, sessionFootprint(s))
	return ls, nil
}

// ledgerLocked opens session id's re-read ledger from the store, or in
// memory when there is none. Precondition: h.mu is held.
func (h *agentHost) ledgerLocked(id string) *ledger.Ledger {
	st := h.sessionsLocked()
	if st == nil {
		return ledger.NewMemory()
	}
	l, err := st.OpenLedger(id)
	if err != nil {
		h.s.log.Warnf("re-reads show whole files: %v", err)
		return ledger.NewMemory()
	}
	return l
}

// saver is the store turns save to (nil: memory only).
func (h *agentHost) saver() agent.Saver {
	h.mu.Lock()
	defer h.mu.Unlock()
	if st := h.sessionsLocked(); st != nil {
		return st
	}
	return nil
}

// SessionSummary is one entry of parley/sessions.
type SessionSummary struct {
	ID      string    `json:"id"`
	Title   string    `json:"title"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Turns   int       `json:"turns"`
	Running bool      `json:"running,omitempty"`
}

// list returns the stored and in-memory sessions, newest first.
func (h *agentHost) list() ([]SessionSummary, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := map[string]bool{}
	var out []SessionSummary
	h.live.each(func(id string, ls *liveSession) {
		seen[id] = true
		if !ls.turn.TryLock() {
			// The running turn owns the session: just the ID.
			out = append(out, SessionSummary{ID: id, Running: true})
			return
		}
		s := ls.session
		out = append(out, SessionSummary{ID: id, Title: s.Title, Created: s.Created, Updated: s.Updated, Turns: s.Turns})
		ls.turn.Unlock()
	})
	if st := h.sessionsLocked(); st != nil {
		infos, err := st.List()
		if err != nil {
			return nil, err
		}
		for _, in := range infos {
			if seen[in.ID] {
				continue
			}
			out = append(out, SessionSummary{ID: in.ID, Title: in.Title, Created: in.Created, Updated: in.Updated, Turns: in.Turns})
		}
	}
	sortSessions(out)
	return out, nil
}

// remove deletes a session from memory and the store. A running session
// cannot be deleted. A session that ran here gets its SessionEnd hooks.
func (h *agentHost) remove(id string) error {
	ended, err := h.removeLocked(id)
	if ended != nil {
		h.endSessions("clear", ended)
	}
	return err
}

// removeLocked is remove but the hooks; it returns the session removed
// from memory, if any.
func (h *agentHost) removeLocked(id string) (ended *agent.Session, _ error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ls, inMemory := h.live.peek(id)
	if inMemory {
		if !ls.turn.TryLock() {
			return nil, fmt.Errorf("session %s is running a turn", id)
		}
		h.live.remove(id)
		ls.turn.Unlock()
		ended = ls.session
	}
	st := h.sessionsLocked()
	if st == nil {
		if !inMemory {
			return nil, fmt.Errorf("no session %q", id)
		}
		return ended, nil
	}
	err := st.Delete(id)
	if errors.Is(err, agent.ErrSessionNotFound) {
		if inMemory {
			return ended, nil // never saved
		}
		return nil, fmt.Errorf("no session %q", id)
	}
	return ended, err
}

// endSessions runs the SessionEnd hooks of sessions (those that ran a
// turn in this server; Agent.EndSession skips the others). It must not
// be called with h.mu held: a hook may take up to its timeout.
func (h *agentHost) endSessions(reason string, ss ...*agent.Session) {
	h.mu.Lock()
	b := h.built
	h.mu.Unlock()
	if b == nil || b.hooks == nil {
		return
	}
	a := &agent.Agent{Hooks: b.hooks}
	for _, s := range ss {
		a.EndSession(context.Background(), s, reason)
	}
}

// sortSessions orders newest first, by ID for equal times (IDs sort by
// creation).
func sortSessions(s []SessionSummary) {
	slices.SortFunc(s, func(a, b SessionSummary) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
}

func (h *agentHost) close() {
	// Sessions end with the server; one still running a turn is left
	// alone (its turn is being cancelled).
	var ended []*agent.Session
	h.mu.Lock()
	h.live.each(func(_ string, ls *liveSession) {
		if ls.turn.TryLock() {
			ended = append(ended, ls.session)
			ls.turn.Unlock()
		}
	})
	h.mu.Unlock()
	h.endSessions("other", ended...)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true // a build under way closes its own servers
	if h.built != nil {
		h.closeMCP(h.built)
		h.built = nil
	}
	if h.store != nil {
		if err := h.store.Close(); err != nil {
			h.s.log.Warnf("close sessions: %v", err)
		}
		h.store = nil
	}
	if h.memory != nil {
		if err := h.memory.Close(); err != nil {
			h.s.log.Warnf("close memory: %v", err)
		}
		h.memory = nil
	}
}

// configSettings is the part of didChangeConfiguration's settings the
// server reads.
type configSettings struct {
	Parley struct {
		Agent json.RawMessage `json:"agent"`
	} `json:"parley"`
	Agent json.RawMessage `json:"agent"`
}

// DidChangeConfiguration takes new agent settings: {"parley": {"agent":
// {...}}} (VS Code's section shape) or {"agent": {...}}. Settings without
// an agent part leave the agent as it is. Running turns finish with the
// configuration they started with.
func (s *Server) DidChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	var settings configSettings
	if len(p.Settings) == 0 {
		return nil
	}
	if err := json.Unmarshal(luaObjectsFor[configSettings](p.Settings), &settings); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	layer := settings.Parley.Agent
	if layer == nil {
		layer = settings.Agent
	}
	if layer == nil {
		return nil
	}
	l, err := parseAgentLayer(layer)
	if err != nil {
		return err
	}
	s.log.Infof("agent settings changed")
	s.agents.setLayer(l)
	return nil
}
