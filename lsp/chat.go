package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/agent/prompts"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/tools"
)

// Chat methods (documented in docs/protocol.md).
const (
	methodChat          = "parley/chat"
	methodEvent         = "parley/event"
	methodSessions      = "parley/sessions"
	methodSession       = "parley/session"
	methodDeleteSession = "parley/deleteSession"
)

// ChatParams are parley/chat's params.
type ChatParams struct {
	// Session continues a session; empty starts a new one.
	Session string       `json:"session,omitempty"`
	Message string       `json:"message"`
	Context *ChatContext `json:"context,omitempty"`
	// Mentions are the @-mentions the user picked (lsp/mentions.go).
	Mentions []mentions.Mention `json:"mentions,omitempty"`
	// Images go with the message (lsp/chat_images.go).
	Images []ChatImage `json:"images,omitempty"`
}

// ChatContext points the agent at code the user is looking at.
type ChatContext struct {
	URI         uri.URI               `json:"uri"`
	Range       *protocol.Range       `json:"range,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics,omitempty"`
}

// ChatResult is parley/chat's result, sent when the turn has ended.
type ChatResult struct {
	Session    string         `json:"session"`
	Turn       int            `json:"turn"`
	StopReason string         `json:"stopReason"`
	Usage      provider.Usage `json:"usage"`
	// Text is the turn's final answer.
	Text string `json:"text"`
	// Error is set when StopReason is "error".
	Error string `json:"error,omitempty"`
}

// ChatEvent is the params of a parley/event notification.
type ChatEvent struct {
	Session    string                 `json:"session"`
	Turn       int                    `json:"turn"`
	Kind       string                 `json:"kind"`
	Text       string                 `json:"text,omitempty"`
	ToolCallID string                 `json:"toolCallId,omitempty"`
	ToolName   string                 `json:"toolName,omitempty"`
	Input      json.RawMessage        `json:"input,omitempty"`
	Result     *agent.ToolOutcome     `json:"result,omitempty"`
	Changes    []ChangeEvent          `json:"changes,omitempty"`
	Usage      *provider.Usage        `json:"usage,omitempty"`
	Compaction *agent.Compaction      `json:"compaction,omitempty"`
	Hook       *hooks.Report          `json:"hook,omitempty"`
	Memories   []agent.RecalledMemory `json:"memories,omitempty"`
	MCP        *agent.MCPReport       `json:"mcp,omitempty"`
	StopReason string                 `json:"stopReason,omitempty"`
	Error      string                 `json:"error,omitempty"`
	Mentions   []mentions.Report      `json:"mentions,omitempty"`
}

// ChangeEvent is one file changed by an applied edit.
type ChangeEvent struct {
	Op     string  `json:"op"`
	URI    uri.URI `json:"uri"`
	NewURI uri.URI `json:"newUri,omitempty"`
}

func chatEvent(e agent.Event) ChatEvent {
	out := ChatEvent{
		Session: e.Session, Turn: e.Turn, Kind: string(e.Kind), Text: e.Text,
		ToolCallID: e.ToolCallID, ToolName: e.ToolName, Input: e.Input, Result: e.Result,
		Compaction: e.Compaction, Hook: e.Hook, Memories: e.Memories, MCP: e.MCP, StopReason: string(e.StopReason),
	}
	for _, c := range e.Changes {
		ce := ChangeEvent{Op: c.Op, URI: uri.File(c.Path)}
		if c.NewPath != "" {
			ce.NewURI = uri.File(c.NewPath)
		}
		out.Changes = append(out.Changes, ce)
	}
	if e.Kind == agent.EventUsage || e.Kind == agent.EventDone {
		u := e.Usage
		out.Usage = &u
	}
	if e.Err != nil {
		out.Error = e.Err.Error()
	}
	return out
}

// requestFailed is LSP's RequestFailed: the request was valid but could
// not be served (no model configured, a session that is busy).
func requestFailed(format string, args ...any) error {
	return jsonrpc2.NewError(jsonrpc2.Code(-32803), fmt.Sprintf(format, args...))
}

func (s *Server) chat(ctx context.Context, raw json.RawMessage) (*ChatResult, error) {
	var p ChatParams
	// The protocol package's decoder: diagnostics hold unions.
	if err := protocol.Unmarshal(luaObjectsFor[ChatParams](raw), &p); err != nil {
		return nil, invalidParams("%s: %v", methodChat, err)
	}
	if p.Message == "" && len(p.Images) == 0 {
		return nil, invalidParams("%s: message is empty", methodChat)
	}
	imgs, err := s.chatImages(p.Images)
	if err != nil {
		return nil, err
	}
	ctx = withTurnImages(ctx, imgs)
	if c := s.commandOf(p.Message); c != nil {
		// The editor's context goes after the command's prompt.
		suffix, err := s.contextMessage(ChatParams{Context: p.Context})
		if err != nil {
			return nil, err
		}
		_, args, _ := prompts.Invocation(p.Message)
		return s.runTurnWith(ctx, p.Session, p.Message, &pendingCommand{c: c, args: args, suffix: suffix})
	}
	if pm := mentionsOf(p); pm != nil {
		return s.runTurnWith(ctx, p.Session, p.Message, pm)
	}
	msg, err := s.contextMessage(p)
	if err != nil {
		return nil, err
	}
	return s.runTurn(ctx, p.Session, msg)
}

// runTurn runs one message of a session (new when id is "") to the end.
func (s *Server) runTurn(ctx context.Context, id, msg string) (*ChatResult, error) {
	return s.runTurnWith(ctx, id, msg, nil)
}

// pendingMessage makes a turn's message once its agent exists: a prompt
// command, or a message with mentions.
type pendingMessage interface {
	expand(ctx context.Context, s *Server, a *agent.Agent, ls *liveSession) (*agent.Agent, string, error)
}

// runTurnWith runs msg, or the message pc (nil: none) makes of it.
func (s *Server) runTurnWith(ctx context.Context, id, msg string, pc pendingMessage) (*ChatResult, error) {
	b, err := s.agents.agentFor()
	if err != nil {
		return nil, requestFailed("the agent is not configured: %v", err)
	}
	ls, err := s.agents.session(id)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	if !ls.turn.TryLock() {
		return nil, requestFailed("session %s is already running a turn", ls.session.ID)
	}
	res, done, err := s.turnLocked(ctx, b, ls, msg, pc)
	// The ledger holds the text the model last saw of each file it read.
	size := sessionFootprint(ls.session) + ls.ledger.Footprint()
	// "done" goes out once the session is free again, so a client may send
	// the next message as soon as it sees it.
	ls.turn.Unlock()
	s.agents.touch(ls, size)
	if err != nil {
		return nil, err
	}
	s.sendEvent(ctx, done)
	return res, nil
}

// turnLocked runs the turn while the caller holds ls.turn and returns the
// result and the turn's "done" event, held back for the caller to send.
func (s *Server) turnLocked(ctx context.Context, b *builtAgent, ls *liveSession, msg string, pc pendingMessage) (*ChatResult, agent.Event, error) {
	a, err := s.turnAgent(ctx, b, ls, msg)
	if err != nil {
		return nil, agent.Event{}, err
	}
	if pc != nil {
		if a, msg, err = pc.expand(ctx, s, a, ls); err != nil {
			return nil, agent.Event{}, err
		}
	}
	turnCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := s.beginProgressKind(ctx, "chat", "parley: "+agent.Title(msg), cancel)
	var done agent.Event
	a.Sink = func(e agent.Event) {
		switch e.Kind {
		case agent.EventDone:
			done = e
			return
		case agent.EventToolCall:
			p.say(e.ToolName)
		}
		s.sendEvent(ctx, e)
	}
	res, runErr := a.RunInput(turnCtx, ls.session, agent.Input{Text: msg, Images: turnImages(ctx)})
	ls.gate.EndTurn()
	p.message = string(res.StopReason)
	p.done()
	out := &ChatResult{Session: ls.session.ID, Turn: ls.session.Turns, StopReason: string(res.StopReason), Usage: res.Usage, Text: res.Text}
	if runErr != nil {
		s.log.Warnf("chat %s turn %d: %v", ls.session.ID, ls.session.Turns, runErr)
		out.Error = runErr.Error()
	}
	return out, done, nil
}

// sendEvent notifies parley/event. Notifications outlive a cancelled
// turn: its last events must still arrive.
func (s *Server) sendEvent(ctx context.Context, e agent.Event) {
	if err := s.conn.Notify(context.WithoutCancel(ctx), methodEvent, chatEvent(e)); err != nil {
		s.log.Debugf("%s: %v", methodEvent, err)
	}
}

// turnAgent builds the agent for one turn of ls, whose message is msg ("" for
// a compaction; it focuses the repo map): the shared configuration
// with this session's policy (it remembers "allow for this session"),
// todo list and the editor-facing environment.
func (s *Server) turnAgent(ctx context.Context, b *builtAgent, ls *liveSession, msg string) (*agent.Agent, error) {
	s.mu.RLock()
	roots := s.roots
	s.mu.RUnlock()
	if roots == nil {
		return nil, requestFailed("no workspace folder to work in")
	}
	if ls.policy == nil || ls.built != b {
		pol, err := permission.FromConfig(b.cfg)
		if err != nil {
			return nil, requestFailed("%v", err)
		}
		ls.policy, ls.gate, ls.built = pol, permission.NewDeferred(pol, agent.ToolCallID), b
	}
	// A client that said it shows edits marked needsConfirmation for
	// confirmation (VS Code does; some clients advertise annotations and
	// apply them silently) asks about the edits the policy asks about in
	// its own preview instead of a message box (see permission.Deferred).
	var gate *permission.Deferred
	var policy agent.Policy = ls.policy
	if s.editorConfirms() {
		gate, policy = ls.gate, ls.gate
	}
	env := &tools.Env{
		Roots: roots, Files: ls.policy.GuardFiles(agentView{s}, roots), Editor: agentEditor{s: s, gate: gate},
		Index: serverIndex{s}, Todos: ls.todos, Ledger: ls.ledger, Unsaved: s.unsaved, Memory: s.agents.memorySet(),
		ShellTimeout: time.Duration(b.cfg.ShellTimeoutSeconds) * time.Second,
		Diagnostics:  tools.NewDiagnostics(editorDiagnostics{s: s, b: b}),
	}
	c, reg := b.cfg, b.tools(ctx)
	a := &agent.Agent{
		AutoRecall: true,
		Provider:   b.provider, Model: c.Model, Registry: reg, Env: env, Policy: policy,
		MaxIterations: c.MaxIterations, MaxTokens: c.MaxTokens, ThinkingBudget: c.ThinkingBudget,
		ContextWindow: c.ContextWindow, CompactThreshold: c.CompactThreshold, Hooks: b.hooks, Vision: c.Vision,
	}
	a.SystemPrompt = agent.SystemPrompt(agent.PromptOptions{Roots: roots.Paths(), Tools: reg.Names(), RepoMap: s.repoMap(c, ls, msg)})
	if st := s.agents.saver(); st != nil {
		a.Store = st
	}
	if s.caps.showMessageRequest {
		a.Approver = editorApprover{s: s, gate: gate}
	}
	env.SubAgent = a.SubAgent(agent.SubAgentOptions{})
	return a, nil
}

// editorConfirms says whether the client confirms edits itself: it opted
// in with initializationOptions.editConfirmation "annotations" and
// supports change annotations.
func (s *Server) editorConfirms() bool {
	return s.editConfirmation == "annotations" && s.caps.edits.annotations
}

// serverIndex is the agent's view of the folders' index stores.
type serverIndex struct{ s *Server }

func (x serverIndex) StoreFor(abs string) (*index.Store, string, bool) {
	f, rel, ok := x.s.folderOf(abs)
	if !ok {
		return nil, "", false
	}
	return f.store, rel, true
}

func (x serverIndex) Stores() []tools.RootStore {
	var out []tools.RootStore
	for _, f := range x.s.allFolders() {
		out = append(out, tools.RootStore{Root: f.root, Store: f.store})
	}
	return out
}

// sessionParams are parley/session's and parley/deleteSession's params.
type sessionParams struct {
	Session string `json:"session"`
}

// sessionsRequest answers parley/sessions, parley/session and
// parley/deleteSession.
func (s *Server) sessionsRequest(method string, raw json.RawMessage) (any, error) {
	if method == methodSessions {
		list, err := s.agents.list()
		if err != nil {
			return nil, err
		}
		return map[string]any{"sessions": list}, nil
	}
	var p sessionParams
	if err := json.Unmarshal(luaObjectsFor[sessionParams](raw), &p); err != nil || p.Session == "" {
		return nil, invalidParams("%s: params must be {\"session\": ID}", method)
	}
	if method == methodDeleteSession {
		if err := s.agents.remove(p.Session); err != nil {
			return nil, requestFailed("%v", err)
		}
		return map[string]bool{"deleted": true}, nil
	}
	ls, err := s.agents.session(p.Session)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	if !ls.turn.TryLock() {
		return nil, requestFailed("session %s is running a turn; ask again when it ends", p.Session)
	}
	defer ls.turn.Unlock()
	data, err := json.Marshal(ls.session)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(data), nil
}
