package acp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/mentions"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/tools/mcpclient"
)

// session is one ACP session: a parley session with its own permission
// policy (mode, "allow always" answers), todo list, re-read ledger and the
// MCP servers its client passed.
type session struct {
	srv *Server
	ws  *Workspace
	s   *agent.Session

	// turn holds a token while a prompt runs (a channel, so that a
	// waiting prompt can give up with its context).
	turn   chan struct{}
	todos  *tools.TodoList
	ledger *ledger.Ledger
	mcp    *mcpclient.Manager // the client's servers; nil: none
	diags  *tools.Diagnostics // nil without Workspace.Diagnostics

	mu       sync.Mutex
	cancel   context.CancelFunc // the running prompt's; nil between prompts
	policy   *permission.Policy
	mapFocus *repomap.Focus // nil until the first prompt, or without a map
	// content holds what a tool call showed while it ran (the diffs of
	// its applied edits, its terminal) until the update of its result,
	// which repeats it (an update's content replaces the earlier one).
	content map[string][]sdk.ToolCallContent
	// advertised is the prompt commands the client was last told of
	// (nil: none sent yet).
	advertised []sdk.AvailableCommand
}

func newSession(srv *Server, ws *Workspace, as *agent.Session) (*session, error) {
	pol, err := permission.FromConfig(ws.Config)
	if err != nil {
		return nil, fmt.Errorf("permissions: %w", err)
	}
	ss := &session{srv: srv, ws: ws, s: as, turn: make(chan struct{}, 1), todos: &tools.TodoList{}, policy: pol, content: map[string][]sdk.ToolCallContent{}}
	if ws.Diagnostics != nil {
		ss.diags = tools.NewDiagnostics(ws.Diagnostics)
	}
	ss.ledger = ledger.NewMemory()
	if ws.Sessions != nil {
		if l, err := ws.Sessions.OpenLedger(as.ID); err == nil {
			ss.ledger = l
		} else {
			srv.opts.Warn(fmt.Errorf("session %s: %w; re-reads show whole files", as.ID, err))
		}
	}
	return ss, nil
}

func (ss *session) id() sdk.SessionId { return sdk.SessionId(ss.s.ID) }

// close cancels a running prompt and waits for it, then stops the
// session's MCP servers and runs its SessionEnd hooks.
func (ss *session) close() {
	ss.mu.Lock()
	if ss.cancel != nil {
		ss.cancel()
	}
	ss.mu.Unlock()
	ss.turn <- struct{}{}
	defer func() { <-ss.turn }()
	if ss.ws.Hooks != nil {
		(&agent.Agent{Hooks: ss.ws.Hooks, Policy: ss.currentPolicy()}).EndSession(context.Background(), ss.s, "other")
	}
	if err := ss.mcp.Close(); err != nil {
		ss.srv.opts.Warn(err)
	}
}

// permissionModes are the session modes a client can switch between.
var permissionModes = []struct {
	mode permission.Mode
	name string
	desc string
}{
	{permission.ModeDefault, "Ask", "Reads run; edits, shell commands, git writes and network access are asked about"},
	{permission.ModeAcceptEdits, "Accept edits", "Edits run too; shell commands, git writes and network access are asked about"},
	{permission.ModePlan, "Plan", "Read-only: everything but reads is refused"},
	{permission.ModeBypassPermissions, "Bypass permissions", "Everything that no deny or ask rule covers runs"},
}

func (ss *session) modes() *sdk.SessionModeState {
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(ss.currentPolicy().Mode())}
	for _, m := range permissionModes {
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m.mode), Name: m.name, Description: sdk.Ptr(m.desc)})
	}
	return st
}

func (ss *session) currentPolicy() *permission.Policy {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.policy
}

// setMode replaces the policy with one in mode (the configured rules
// stay; "allow always" answers given in the old mode are forgotten) and
// tells the client.
func (ss *session) setMode(ctx context.Context, mode string) error {
	m, err := permission.ParseMode(mode)
	if err != nil {
		return invalidParams("%v", err)
	}
	p := ss.ws.Config.Permissions
	pol, err := permission.New(m, permission.Rules{Allow: p.Allow, Deny: p.Deny, Ask: p.Ask})
	if err != nil {
		return err
	}
	ss.mu.Lock()
	ss.policy = pol
	ss.mu.Unlock()
	ss.update(ctx, sdk.SessionUpdate{CurrentModeUpdate: &sdk.SessionCurrentModeUpdate{CurrentModeId: sdk.SessionModeId(m)}})
	return nil
}

// update sends one session/update. It outlives a cancelled prompt: the
// turn's last updates must still arrive.
func (ss *session) update(ctx context.Context, u sdk.SessionUpdate) {
	err := ss.srv.conn.SessionUpdate(context.WithoutCancel(ctx), sdk.SessionNotification{SessionId: ss.id(), Update: u})
	if err != nil {
		ss.srv.opts.Warn(fmt.Errorf("session/update: %w", err))
	}
}

// prompt runs one turn; links are file resource links read into the
// message (mentions.go). A prompt sent while another runs supersedes it:
// the SDK cancels the running one's context, and this one waits for it to
// end.
func (ss *session) prompt(ctx context.Context, msg string, imgs []provider.Block, links []mentions.Mention) (sdk.PromptResponse, error) {
	select {
	case ss.turn <- struct{}{}:
	case <-ctx.Done():
		return sdk.PromptResponse{StopReason: sdk.StopReasonCancelled}, nil
	}
	defer func() { <-ss.turn }()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ss.mu.Lock()
	ss.cancel = cancel
	ss.mu.Unlock()
	defer func() {
		ss.mu.Lock()
		ss.cancel = nil
		ss.mu.Unlock()
	}()
	a := ss.agent(ctx, msg)
	a, msg, isCmd := ss.expandCommand(ctx, a, msg)
	if isCmd && msg == "" {
		return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
	}
	msg = ss.withLinks(ctx, a, msg, links)
	res, err := a.RunInput(ctx, ss.s, agent.Input{Text: msg, Images: imgs})
	if err != nil {
		// The turn failed (the model API, the session store): the
		// client shows the error; the session stays usable.
		return sdk.PromptResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	u := res.Usage
	return sdk.PromptResponse{
		StopReason: stopReason(res.StopReason),
		Usage: &sdk.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			TotalTokens: u.InputTokens + u.OutputTokens,
		},
	}, nil
}

// stopReason maps a turn's end to ACP's.
func stopReason(r agent.StopReason) sdk.StopReason {
	switch r {
	case agent.StopCancelled:
		return sdk.StopReasonCancelled
	case agent.StopMaxTokens:
		return sdk.StopReasonMaxTokens
	case agent.StopMaxIterations, agent.StopRepeated:
		return sdk.StopReasonMaxTurnRequests
	}
	return sdk.StopReasonEndTurn
}

// agent builds the agent of one turn: the workspace's configuration with
// this session's policy, tools, files and editor as the client offers
// them.
func (ss *session) agent(ctx context.Context, msg string) *agent.Agent {
	ws, c := ss.ws, ss.ws.Config
	caps := ss.srv.clientCaps()
	env := &tools.Env{
		Roots: ws.Roots, Index: ws.Index, Todos: ss.todos, Ledger: ss.ledger, Memory: ws.Memory,
		ShellTimeout: time.Duration(c.ShellTimeoutSeconds) * time.Second, Diagnostics: ss.diags,
	}
	pol := ss.currentPolicy()
	var view tools.FileView = &tools.DiskView{}
	if caps.Fs.ReadTextFile {
		view = &clientView{ss: ss, ctx: ctx}
	}
	env.Files = pol.GuardFiles(view, ws.Roots)
	gate := newEditGate(pol)
	env.Editor = ss.editor(caps.Fs.WriteTextFile, env.Files, gate)
	if caps.Terminal {
		env.Shell = &clientShell{ss: ss}
	}
	// Servers that failed to start or died get their retry before the turn
	// lists the tools (their backoff keeps a broken one from costing every
	// turn its start-up timeout).
	ws.MCP.Retry(ctx)
	ss.mcp.Retry(ctx)
	reg := ss.registry()
	a := &agent.Agent{
		AutoRecall: true,
		Provider:   ws.Provider, Model: c.Model, Registry: reg, Env: env, Policy: gate,
		Approver:      &approver{ss: ss},
		Sink:          ss.sink(ctx),
		MaxIterations: c.MaxIterations, MaxTokens: c.MaxTokens, ThinkingBudget: c.ThinkingBudget,
		ContextWindow: c.ContextWindow, CompactThreshold: c.CompactThreshold, Hooks: ws.Hooks, Vision: c.Vision,
	}
	if ws.Sessions != nil {
		a.Store = ws.Sessions
	}
	ss.mu.Lock()
	if ss.mapFocus == nil && ws.RepoMap != nil {
		ss.mapFocus = ws.RepoMap()
	}
	focus := ss.mapFocus
	ss.mu.Unlock()
	var repoMap string
	if focus != nil {
		var err error
		// One prompt runs at a time, so the focus is not shared.
		if repoMap, _, err = focus.Update(msg, nil); err != nil {
			ss.srv.opts.Warn(fmt.Errorf("repo map: %w", err))
		}
	}
	a.SystemPrompt = agent.SystemPrompt(agent.PromptOptions{Roots: ws.Roots.Paths(), Tools: reg.Names(), RepoMap: repoMap})
	env.SubAgent = a.SubAgent(agent.SubAgentOptions{Sink: ss.subSink(ctx)})
	return a
}

// registry is parley's tools, the configured MCP servers' and the
// client's, each wrapped to report when it starts running.
func (ss *session) registry() *tools.Registry {
	base := append(tools.AgentTools(), ss.ws.MCP.Tools()...)
	all := append(base, ss.mcp.Tools()...)
	wrapped := make([]tools.Tool, 0, len(all))
	seen := map[string]bool{}
	for _, t := range all {
		if seen[t.Name()] {
			continue // a client server's tool named like a configured one
		}
		seen[t.Name()] = true
		wrapped = append(wrapped, startReporter{Tool: t, ss: ss})
	}
	reg, err := tools.NewRegistry(wrapped...)
	if err != nil {
		// Names are unique and valid (mcpclient sanitises them), so this
		// is a bug; parley's own tools still serve the turn.
		ss.srv.opts.Warn(fmt.Errorf("tools: %w", err))
		reg, _ = tools.NewRegistry(tools.AgentTools()...)
	}
	return reg
}

// promptText is the user's message: the prompt's text blocks, then the
// content of embedded resources and the addresses of linked ones (a
// file inside the roots is also read in, by withLinks).
func promptText(blocks []sdk.ContentBlock) string {
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Text != nil:
			parts = append(parts, b.Text.Text)
		case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
			r := b.Resource.Resource.TextResourceContents
			parts = append(parts, fmt.Sprintf("<context uri=%q>\n%s\n</context>", r.Uri, r.Text))
		case b.ResourceLink != nil:
			parts = append(parts, fmt.Sprintf("[%s](%s)", b.ResourceLink.Name, b.ResourceLink.Uri))
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n\n"))
}
