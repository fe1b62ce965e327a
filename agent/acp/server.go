package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/mcpclient"
	"github.com/parleyhq/parley/workspace"
)

// Workspace is what the sessions of one workspace root share. The caller
// of Serve owns it (Options.Open) and closes what it opened after Serve
// returns.
type Workspace struct {
	Roots    *workspace.Roots
	Config   *config.Config
	Provider provider.Provider
	// Sessions persists sessions (nil: sessions live in memory only, and
	// session/load finds nothing).
	Sessions *agent.SessionStore
	Index    tools.IndexSet // nil: no index
	Memory   *memory.Set    // nil: no long-term memory
	Hooks    *hooks.Runner  // nil: no hooks
	// MCP runs the configured MCP servers (nil: none); the servers a
	// client passes with a session run beside them.
	MCP *mcpclient.Manager
	// RepoMap, when set, returns a new session's repo map, focused anew
	// on each message (see repomap.Focus).
	RepoMap func() *repomap.Focus
	// Written, when set, hears of every file the agent wrote, after the
	// write (the index re-reads them).
	Written func(ctx context.Context, paths []string)
	// Diagnostics, when set, are the language servers' view of the
	// agent's edits (agent/lspclient); each session tracks its own
	// touched files.
	Diagnostics tools.DiagnosticSource
}

// Options configure a Server.
type Options struct {
	// Open returns the workspace of a session whose working directory is
	// cwd (absolute). An error refuses the session.
	Open func(cwd string) (*Workspace, error)
	// Version is the agentInfo version.
	Version string
	// Warn hears of problems that do not fail a request (an MCP server
	// the client passed that would not start, an undelivered update).
	Warn func(error)
	// CheckKey reads the configuration again, as Open would, and returns
	// nil when a model's API key is available (or none is needed), or an
	// error wrapping config.ErrNoKey that says what is missing; nil
	// CheckKey: authenticate always succeeds and Open alone decides. The
	// error must not hold a key.
	CheckKey func() error
	// UserFile is the user config file the auth methods name ("": the
	// real one, config.UserFile; "-": none, so no config-file method).
	UserFile string
	// Getenv replaces os.Getenv (tests).
	Getenv func(string) string
}

// Server is the agent side of one ACP connection.
type Server struct {
	opts Options
	conn *sdk.AgentSideConnection

	// auth are the auth methods of initialize (see auth.go); userFile
	// is the config file one of them names.
	auth     []sdk.AuthMethod
	userFile string

	mu       sync.Mutex
	client   sdk.ClientCapabilities
	sessions map[string]*session
}

// New returns a server; Serve connects it.
func New(opts Options) *Server {
	if opts.Warn == nil {
		opts.Warn = func(error) {}
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	userFile := opts.UserFile
	switch userFile {
	case "":
		userFile = userConfigFile()
	case "-":
		userFile = ""
	}
	return &Server{opts: opts, auth: authMethods(userFile), userFile: userFile, sessions: map[string]*session{}}
}

// Serve answers the client on r and w until the client closes its end or
// ctx ends, then cancels running prompts, ends every session, and lets
// the answers to the requests already read go out (see wireCount), for at
// most drainTimeout.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	wc := newWireCount()
	// Nothing is read before s.conn is set: handlers use it.
	ready := make(chan struct{})
	s.conn = sdk.NewAgentSideConnection(s, countingWriter{l: wc, w: w}, wc.reader(r, ready))
	close(ready)
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
	}
	s.closeSessions()
	s.drain(wc)
	s.closeSessions() // those the requests in flight opened
	return nil
}

// drain waits until every request read has been answered, for at most
// drainTimeout.
func (s *Server) drain(wc *wireCount) {
	deadline := time.After(drainTimeout)
	for {
		done, changed := wc.answered()
		if done {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			s.opts.Warn(errors.New("requests still unanswered at exit were abandoned"))
			return
		}
	}
}

// drainTimeout bounds how long Serve waits for answers once the client
// has closed its end (prompts are cancelled then, so they end quickly).
const drainTimeout = 10 * time.Second

func (s *Server) closeSessions() {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		all = append(all, ss)
	}
	clear(s.sessions)
	s.mu.Unlock()
	for _, ss := range all {
		ss.close()
	}
}

// guard turns a panic in a handler into an internal error: client input
// reaches the tools' parsers, and a bug there must not end the process.
func guard(err *error) {
	if p := recover(); p != nil {
		*err = sdk.NewInternalError(map[string]any{"error": fmt.Sprintf("parley: internal error: %v", p), "stack": string(debug.Stack())})
	}
}

// invalidParams is the error for a request the client got wrong.
func invalidParams(format string, args ...any) error {
	return sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf(format, args...)})
}

// Initialize negotiates the protocol version and capabilities.
func (s *Server) Initialize(_ context.Context, p sdk.InitializeRequest) (_ sdk.InitializeResponse, err error) {
	defer guard(&err)
	s.mu.Lock()
	s.client = p.ClientCapabilities
	s.mu.Unlock()
	return sdk.InitializeResponse{
		// The one version this SDK speaks; a client asking for a later
		// one decides whether it can go on (the spec's negotiation).
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession: true,
			// Embedded resources and links become text of the prompt;
			// images go to the model as images (images.go); no audio.
			PromptCapabilities: sdk.PromptCapabilities{EmbeddedContext: true, Image: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List: &sdk.SessionListCapabilities{},
			},
		},
		AgentInfo:   &sdk.Implementation{Name: "parley", Version: s.opts.Version},
		AuthMethods: s.auth,
	}, nil
}

// clientCaps returns what the client said it offers.
func (s *Server) clientCaps() sdk.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// NewSession starts a session in the workspace of p.Cwd.
func (s *Server) NewSession(ctx context.Context, p sdk.NewSessionRequest) (_ sdk.NewSessionResponse, err error) {
	defer guard(&err)
	ss, err := s.openSession(ctx, p.Cwd, p.McpServers, nil)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	ss.advertiseLater(ctx)
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(ss.s.ID), Modes: ss.modes()}, nil
}

// LoadSession resumes a stored session and replays its history.
func (s *Server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (_ sdk.LoadSessionResponse, err error) {
	defer guard(&err)
	id := string(p.SessionId)
	s.mu.Lock()
	_, live := s.sessions[id]
	s.mu.Unlock()
	if live {
		return sdk.LoadSessionResponse{}, invalidParams("session %s is already open on this connection", id)
	}
	load := func(ws *Workspace) (*agent.Session, error) {
		if ws.Sessions == nil {
			return nil, invalidParams("session %s: the session store of this workspace is not available", id)
		}
		as, err := ws.Sessions.Load(id)
		if err != nil {
			return nil, invalidParams("session %s: %v", id, err)
		}
		return as, nil
	}
	ss, err := s.openSession(ctx, p.Cwd, p.McpServers, load)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	if err := ss.replay(ctx); err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	ss.advertise(ctx, ss.promptCommands())
	return sdk.LoadSessionResponse{Modes: ss.modes()}, nil
}

// ListSessions lists the stored sessions of the workspace of p.Cwd.
func (s *Server) ListSessions(_ context.Context, p sdk.ListSessionsRequest) (_ sdk.ListSessionsResponse, err error) {
	defer guard(&err)
	if p.Cwd == nil || *p.Cwd == "" {
		return sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}, nil
	}
	ws, err := s.opts.Open(*p.Cwd)
	if err != nil {
		return sdk.ListSessionsResponse{}, openError(err)
	}
	out := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	if ws.Sessions == nil {
		return out, nil
	}
	list, err := ws.Sessions.List()
	if err != nil {
		return out, err
	}
	for _, info := range list {
		updated := info.Updated.UTC().Format("2006-01-02T15:04:05Z")
		out.Sessions = append(out.Sessions, sdk.SessionInfo{
			SessionId: sdk.SessionId(info.ID), Cwd: *p.Cwd, Title: sdk.Ptr(info.Title), UpdatedAt: &updated,
		})
	}
	return out, nil
}

// Prompt runs one turn of a session.
func (s *Server) Prompt(ctx context.Context, p sdk.PromptRequest) (_ sdk.PromptResponse, err error) {
	defer guard(&err)
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	msg := promptText(p.Prompt)
	imgs, err := ss.promptImages(p.Prompt)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	if msg == "" && len(imgs) == 0 {
		return sdk.PromptResponse{}, invalidParams("the prompt has no text")
	}
	return ss.prompt(ctx, msg, imgs, fileLinks(p.Prompt))
}

// Cancel needs nothing more: the SDK cancels the context of the session's
// running prompt, which stops the turn (stop reason cancelled) and any
// question or terminal it is waiting on.
func (s *Server) Cancel(context.Context, sdk.CancelNotification) error { return nil }

// SetSessionMode switches a session's permission mode.
func (s *Server) SetSessionMode(ctx context.Context, p sdk.SetSessionModeRequest) (_ sdk.SetSessionModeResponse, err error) {
	defer guard(&err)
	ss, err := s.session(p.SessionId)
	if err != nil {
		return sdk.SetSessionModeResponse{}, err
	}
	return sdk.SetSessionModeResponse{}, ss.setMode(ctx, string(p.ModeId))
}

// CloseSession ends a session: its running prompt is cancelled by the
// close, its MCP servers stop.
func (s *Server) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (_ sdk.CloseSessionResponse, err error) {
	defer guard(&err)
	s.mu.Lock()
	ss := s.sessions[string(p.SessionId)]
	delete(s.sessions, string(p.SessionId))
	s.mu.Unlock()
	if ss == nil {
		return sdk.CloseSessionResponse{}, invalidParams("unknown session %q", p.SessionId)
	}
	ss.close()
	return sdk.CloseSessionResponse{}, nil
}

// ResumeSession is not offered (session/load is).
func (s *Server) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

// SetSessionConfigOption is not offered: parley has no session config
// options beyond the modes.
func (s *Server) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// session finds an open session.
func (s *Server) session(id sdk.SessionId) (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.sessions[string(id)]
	if !ok {
		return nil, invalidParams("unknown session %q: start one with session/new or session/load", id)
	}
	return ss, nil
}

// openSession opens the workspace of cwd and a session in it: a new one,
// or the one load returns.
func (s *Server) openSession(ctx context.Context, cwd string, servers []sdk.McpServer, load func(*Workspace) (*agent.Session, error)) (*session, error) {
	if cwd == "" {
		return nil, invalidParams("cwd is required")
	}
	defs, err := mcpServers(servers)
	if err != nil {
		return nil, invalidParams("mcpServers: %v", err)
	}
	ws, err := s.opts.Open(cwd)
	if err != nil {
		return nil, openError(err)
	}
	as := agent.NewSession()
	if load != nil {
		if as, err = load(ws); err != nil {
			return nil, err
		}
	}
	ss, err := newSession(s, ws, as)
	if err != nil {
		return nil, err
	}
	ss.mcp = startClientMCP(ctx, ws, defs, s.opts.Version, s.opts.Warn)
	s.mu.Lock()
	if _, dup := s.sessions[as.ID]; dup {
		s.mu.Unlock()
		ss.close()
		return nil, invalidParams("session %s is already open on this connection", as.ID)
	}
	s.sessions[as.ID] = ss
	s.mu.Unlock()
	return ss, nil
}
