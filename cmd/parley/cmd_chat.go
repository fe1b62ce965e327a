package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/lspclient"
	"github.com/parleyhq/parley/agent/permission"
	"github.com/parleyhq/parley/agent/provider"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/tools/mcpclient"
	"github.com/parleyhq/parley/workspace"
)

// chatFlags are the chat command's own flags; the config-backed ones only
// count when given (see layer).
type chatFlags struct {
	apiURL, model, provider, permMode string
	maxIter                           int
	session                           string
	debug                             string
	noWatch                           bool
	images                            []string // --image files (cmd_chat_images.go)
}

// maxStdinMessage caps a message read from standard input.
const maxStdinMessage = 1 << 20

func newChatCmd(g *globals) *cobra.Command {
	f := &chatFlags{}
	cmd := &cobra.Command{
		Use:   "chat [MESSAGE]",
		Short: "Talk to the coding agent: answer one message, or start an interactive session",
		Long: `Chat runs the coding agent in the workspace. With a MESSAGE (or a message on
standard input) it streams the answer to stdout, shows tool calls on stderr
and exits; on a terminal without a message it starts an interactive session
(type /help there).

Settings come from ~/.config/parley/config.json, then .parley/config.json in
the workspace, then the environment (PARLEY_API_URL, PARLEY_MODEL,
PARLEY_PROVIDER, PARLEY_PERMISSION_MODE, ANTHROPIC_API_KEY, OPENAI_API_KEY,
GEMINI_API_KEY or GOOGLE_API_KEY, PARLEY_API_KEY), then these flags. Without a terminal to ask on, calls that
would need approval are denied and the model is told so.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runChat(cmd, g, f, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.apiURL, "api-url", "", "model API endpoint (env PARLEY_API_URL); the provider is detected from it")
	fs.StringVar(&f.model, "model", "", "model name (env PARLEY_MODEL)")
	fs.StringVar(&f.provider, "provider", "", "anthropic, openai or openai-compatible (env PARLEY_PROVIDER; default: detected from the URL)")
	fs.StringVar(&f.permMode, "permission-mode", "", "default, acceptEdits, plan or bypassPermissions (env PARLEY_PERMISSION_MODE)")
	fs.IntVar(&f.maxIter, "max-iterations", 0, "cap on model calls per message (default 50)")
	fs.StringVar(&f.session, "session", "", "resume a session: its ID, a unique prefix of it, or \"last\"")
	fs.StringVar(&f.debug, "debug", "", "log API requests and responses (keys redacted) to stderr, or to the file given as --debug=FILE")
	fs.Lookup("debug").NoOptDefVal = "-"
	fs.BoolVar(&f.noWatch, "no-watch", false, "do not watch the workspace: files changed outside the chat reach the index at the next start")
	addImageFlag(fs, f)
	return cmd
}

// layer turns the flags the user gave into a configuration layer.
func (f *chatFlags) layer(fs *pflag.FlagSet) config.Layer {
	var l config.Layer
	str := func(name string, v string, dst **string) {
		if fs.Changed(name) {
			*dst = &v
		}
	}
	str("api-url", f.apiURL, &l.APIURL)
	str("model", f.model, &l.Model)
	str("provider", f.provider, &l.Provider)
	str("permission-mode", f.permMode, &l.PermissionMode)
	if fs.Changed("max-iterations") {
		l.MaxIterations = &f.maxIter
	}
	return l
}

// chatApp is one chat command's wiring. close releases everything it
// opened (the index and session stores, the debug log).
type chatApp struct {
	g        *globals
	cfg      *config.Config
	root     string
	wsDir    string // per-workspace data directory
	agent    *agent.Agent
	editor   *tools.DiskEditor
	sessions *agent.SessionStore // nil: sessions are not saved
	index    *index.Store        // nil: no index
	live     *chatIndex          // keeps index current; nil without one
	policy   *permission.Policy
	gate     *editGate // the agent's Policy: policy, with edits asked about with their diff
	closers  []func() error
	out      *chatPrinter
	session  *agent.Session
	mcp      *mcpclient.Manager // nil without MCP servers
	lsp      *lspclient.Manager // nil without a language server to run
	mcpGen   uint64             // the MCP tool lists the registry was built from
	prompt   agent.PromptOptions
	mapper   *repomap.Mapper // nil: no index, or repo_map_tokens is 0
	focus    *repomap.Focus  // the current session's map; nil without a mapper
	warned   map[string]bool // prompt command problems already shown

	images []provider.Block // attached to the next message (cmd_chat_images.go)
}

func runChat(cmd *cobra.Command, g *globals, f *chatFlags, args []string) error {
	msg, err := chatMessage(args, os.Stdin)
	if err != nil {
		return err
	}
	interactive := msg == ""
	app, err := openChat(g, f, cmd.Flags(), interactive || isTTY(os.Stdin))
	if err != nil {
		return err
	}
	defer app.close()
	if err := app.attachFiles(f.images); err != nil {
		return err
	}
	if interactive {
		return app.repl()
	}
	return app.once(msg)
}

// chatMessage is the message from the arguments, or from standard input
// when that is not a terminal; "" means interactive.
func chatMessage(args []string, stdin *os.File) (string, error) {
	if len(args) > 0 {
		msg := strings.TrimSpace(strings.Join(args, " "))
		if msg == "" {
			return "", errors.New("the message is empty")
		}
		return msg, nil
	}
	if isTTY(stdin) {
		return "", nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxStdinMessage+1))
	if err != nil {
		return "", fmt.Errorf("read the message from stdin: %w", err)
	}
	if len(data) > maxStdinMessage {
		return "", fmt.Errorf("the message on stdin is larger than %d bytes", maxStdinMessage)
	}
	msg := strings.TrimSpace(string(data))
	if msg == "" {
		return "", errors.New("no message: give one as an argument or on stdin, or run parley chat in a terminal")
	}
	return msg, nil
}

// openChat loads the configuration and opens everything a chat needs.
// askUser says whether approval questions can be put to a terminal.
func openChat(g *globals, f *chatFlags, fs *pflag.FlagSet, askUser bool) (_ *chatApp, err error) {
	app := &chatApp{g: g, out: newChatPrinter(g.stdout, g.stderr)}
	defer func() {
		if err != nil {
			app.close()
		}
	}()
	if app.root, err = g.workspaceRoot(); err != nil {
		return nil, err
	}
	app.out.root = app.root
	if app.cfg, err = config.Load(config.Options{Workspace: app.root, Flags: f.layer(fs)}); err != nil {
		return nil, err
	}
	if err = app.cfg.Ready(); err != nil {
		return nil, err
	}
	storeDir, err := g.storeDir(app.root)
	if err != nil {
		return nil, err
	}
	app.wsDir = filepath.Dir(storeDir)
	prov, err := app.openProvider(f.debug)
	if err != nil {
		return nil, err
	}
	if app.policy, err = permission.FromConfig(app.cfg); err != nil {
		return nil, err
	}
	// Diffs go to /dev/tty, a terminal by definition: only NO_COLOR (or a
	// dumb terminal) turns their colour off.
	app.gate = newEditGate(app.policy, app.root, diffStyle{
		color: colorWanted(), perFile: diffLinesPerFile, total: diffLinesTotal, shortPath: app.out.shortPath,
	})
	env, err := app.openEnv(storeDir, !f.noWatch)
	if err != nil {
		return nil, err
	}
	app.openSessions()
	env.Memory = openMemorySet(g, app.wsDir, func(err error) { fmt.Fprintf(g.stderr, "parley: %v\n", err) })
	app.closers = append(app.closers, env.Memory.Close)
	if err := agent.ConfigureMemory(env.Memory, app.cfg); err != nil {
		fmt.Fprintf(g.stderr, "parley: memory search stays lexical: %v\n", err)
	}
	env.Memory.Anchors = tools.AnchorHasher(env)
	if err = app.buildAgent(prov, env, askUser); err != nil {
		return nil, err
	}
	if app.session, err = app.pickSession(f.session); err != nil {
		return nil, err
	}
	app.useUndo(app.session)
	app.useLedger(app.session)
	return app, nil
}

func (app *chatApp) close() {
	for i := len(app.closers) - 1; i >= 0; i-- {
		if err := app.closers[i](); err != nil {
			fmt.Fprintln(app.g.stderr, "parley:", err)
		}
	}
	app.closers = nil
}

// openProvider builds the model client; debug is "" (off), "-" (stderr)
// or a file to append to.
func (app *chatApp) openProvider(debug string) (provider.Provider, error) {
	key, _ := app.cfg.Key()
	pc := provider.Config{
		Provider: app.cfg.Provider, APIURL: app.cfg.APIURL, APIKey: key,
		Model: app.cfg.Model, MaxTokens: app.cfg.MaxTokens,
	}
	switch debug {
	case "":
	case "-":
		pc.Debug = app.g.stderr
	default:
		df, err := os.OpenFile(debug, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return nil, fmt.Errorf("debug log: %w", err)
		}
		app.closers = append(app.closers, df.Close)
		pc.Debug = df
	}
	return provider.New(pc)
}

// openEnv builds the tools' environment; files are read through the
// policy's guard, so searches skip what a read deny rule forbids.
func (app *chatApp) openEnv(storeDir string, watch bool) (*tools.Env, error) {
	roots, err := workspace.NewRoots(app.root)
	if err != nil {
		return nil, err
	}
	env := &tools.Env{
		Roots: roots, Files: app.policy.GuardFiles(&tools.DiskView{}, roots), Todos: &tools.TodoList{},
		ShellTimeout: time.Duration(app.cfg.ShellTimeoutSeconds) * time.Second,
	}
	if isTTY(os.Stderr) {
		env.Output = func(_, chunk string) { app.out.toolOutput(chunk) }
	}
	edOpts := tools.DiskEditorOptions{Confirm: app.gate.confirm, Warn: app.out.warn}
	if app.openIndex(storeDir, watch) {
		env.Index = rootIndex{root: app.root, st: app.index}
		edOpts.Written = app.live.written
	}
	app.editor = tools.NewDiskEditorWith(roots, edOpts)
	env.Editor = app.editor
	if m := startLSP(app.cfg, app.out.warn); m != nil {
		app.lsp = m
		app.closers = append(app.closers, m.Close)
		env.Diagnostics = tools.NewDiagnostics(m)
	}
	return env, nil
}

// openIndex opens and updates the code index and keeps it current while
// the chat runs (see openLiveIndex). The index is optional: when another
// process holds it the chat goes on without it (false).
func (app *chatApp) openIndex(storeDir string, watch bool) bool {
	st, live, closers := openLiveIndex(app.g, app.root, storeDir, watch, app.out.warn)
	app.closers = append(app.closers, closers...)
	if st == nil {
		return false
	}
	app.index, app.live = st, live
	return true
}

// openSessions opens the session store; without it the chat still works
// but nothing is saved.
func (app *chatApp) openSessions() {
	st, err := agent.OpenSessions(filepath.Join(app.wsDir, "sessions"))
	if err != nil {
		fmt.Fprintf(app.g.stderr, "parley: this conversation will not be saved: %v\n", err)
		return
	}
	app.sessions = st
	app.closers = append(app.closers, st.Close)
}

func (app *chatApp) buildAgent(prov provider.Provider, env *tools.Env, askUser bool) error {
	app.mcp = startMCP(app.g, app.root, app.cfg, app.out.warn, app.out.sink)
	app.closers = append(app.closers, app.mcp.Close)
	app.mcpGen = app.mcp.Generation()
	reg, err := app.mcp.Registry(tools.AgentTools())
	if err != nil {
		return err
	}
	c := app.cfg
	a := &agent.Agent{
		AutoRecall: true,
		Provider:   prov, Model: c.Model, Registry: reg, Env: env, Policy: app.gate,
		Sink: app.out.sink, MaxIterations: c.MaxIterations, MaxTokens: c.MaxTokens,
		ThinkingBudget: c.ThinkingBudget,
		ContextWindow:  c.ContextWindow, CompactThreshold: c.CompactThreshold, Vision: c.Vision,
	}
	app.prompt = agent.PromptOptions{Roots: []string{app.root}, Tools: reg.Names()}
	if app.index != nil && c.RepoMapTokens > 0 {
		app.mapper = repomap.New(app.index, app.root)
	}
	if app.sessions != nil {
		a.Store = app.sessions
	}
	if a.Hooks, err = hooks.FromConfig(c, app.root); err != nil {
		return err
	}
	if n := len(a.Hooks.Unapproved()); n > 0 {
		fmt.Fprintf(app.g.stderr, "parley: %d hook(s) of %s will not run until you approve them: parley hooks approve\n", n, config.WorkspaceFile(app.root))
	}
	if askUser {
		if ap := openTTYApprover(app.out); ap != nil {
			a.Approver = ap
			app.gate.tty = ap
			app.closers = append(app.closers, ap.Close)
		}
	}
	env.SubAgent = a.SubAgent(agent.SubAgentOptions{Sink: app.out.subSink})
	app.agent = a
	app.newFocus()
	return nil
}

// pickSession resumes the session named by ref, or starts a new one.
func (app *chatApp) pickSession(ref string) (*agent.Session, error) {
	if ref == "" {
		return agent.NewSession(), nil
	}
	id, err := app.findSession(ref)
	if err != nil {
		return nil, err
	}
	return app.sessions.Load(id)
}

// useUndo gives the editor session s's undo stack, which lives with the
// session in the store (so /undo works after --session), or in memory
// when there is no store.
func (app *chatApp) useUndo(s *agent.Session) {
	var store tools.UndoStore
	if app.sessions != nil {
		store = app.sessions.Undo(s.ID)
	}
	if err := app.editor.UseUndo(store); err != nil {
		app.out.warn(fmt.Errorf("%w; /undo cannot revert this session's earlier edits", err))
	}
}

// useLedger gives the tools session s's re-read ledger, which lives with
// the session in the store (so a resumed session, and parley read
// --session, know what its model has seen), or in memory.
func (app *chatApp) useLedger(s *agent.Session) {
	l := ledger.NewMemory()
	if app.sessions != nil {
		var err error
		if l, err = app.sessions.OpenLedger(s.ID); err != nil {
			app.out.warn(fmt.Errorf("%w; re-reads show whole files", err))
			l = ledger.NewMemory()
		}
	}
	app.agent.Env.Ledger = l
}

// findSession resolves "last", an ID or a unique ID prefix.
func (app *chatApp) findSession(ref string) (string, error) {
	if app.sessions == nil {
		return "", errors.New("sessions are not available: the session store could not be opened")
	}
	list, err := app.sessions.List()
	if err != nil {
		return "", err
	}
	if ref == "last" {
		if len(list) == 0 {
			return "", errors.New("there is no session to resume yet")
		}
		return list[0].ID, nil
	}
	var match []string
	for _, s := range list {
		if s.ID == ref {
			return ref, nil
		}
		if strings.HasPrefix(s.ID, ref) {
			match = append(match, s.ID)
		}
	}
	switch len(match) {
	case 0:
		return "", fmt.Errorf("no session %q in this workspace (list them with /sessions in parley chat)", ref)
	case 1:
		return match[0], nil
	}
	return "", fmt.Errorf("session %q is ambiguous: %s", ref, strings.Join(match, ", "))
}

// focusPrompt sets the agent's system prompt with the repo map focused on
// the files the session's messages so far name, msg the latest. It is
// called before every message; the map changes only when the focus does
// materially (see repomap.Focus: a new map costs the prompt cache).
func (app *chatApp) focusPrompt(msg string) {
	if app.focus != nil {
		m, _, err := app.focus.Update(msg, nil)
		if err != nil {
			app.out.warn(fmt.Errorf("repo map not updated: %w", err))
		}
		app.prompt.RepoMap = m
	}
	app.agent.SystemPrompt = agent.SystemPrompt(app.prompt)
}

// newFocus starts the repo map's focus of a new or resumed session; its
// first message renders the map (focusPrompt).
func (app *chatApp) newFocus() {
	app.focus = nil
	app.prompt.RepoMap = ""
	if app.mapper != nil {
		app.focus = repomap.NewFocus(app.mapper, repomap.Options{Tokens: app.cfg.RepoMapTokens, Count: tokcount.Counter(app.cfg.Model)})
	}
	app.agent.SystemPrompt = agent.SystemPrompt(app.prompt)
}

// once answers one message and exits.
func (app *chatApp) once(msg string) error {
	ctx, stop := signalContext()
	defer stop()
	res, err := app.send(ctx, msg)
	app.agent.EndSession(context.Background(), app.session, "other")
	if app.sessions != nil {
		// Named on stderr so the conversation can go on: --session ID.
		fmt.Fprintf(app.g.stderr, "session %s\n", app.session.ID)
	}
	if err != nil {
		return err
	}
	if res.StopReason == agent.StopCancelled {
		return errors.New("interrupted")
	}
	return nil
}

// turn runs one message and reports how it ended and what it cost.
func (app *chatApp) turn(ctx context.Context, msg string) (*agent.TurnResult, error) {
	app.refreshTools(ctx)
	app.focusPrompt(msg)
	res, err := app.run(ctx, msg)
	app.gate.EndTurn()
	app.out.endTurn(res)
	window := provider.ContextWindow(app.agent.Model, app.cfg.ContextWindow)
	app.out.usage(res, app.session.Usage, window)
	if err != nil {
		return res, app.explain(err)
	}
	return res, nil
}

// refreshTools starts again the MCP servers that are down and due (see
// mcpclient.Manager.Retry) and rebuilds the registry when a server changed
// its tools since the last turn.
func (app *chatApp) refreshTools(ctx context.Context) {
	app.mcp.Retry(ctx)
	gen := app.mcp.Generation()
	if gen == app.mcpGen {
		return
	}
	reg, err := app.mcp.Registry(tools.AgentTools())
	if err != nil {
		app.out.warn(fmt.Errorf("MCP tools not updated: %w", err))
		return
	}
	app.mcpGen = gen
	app.agent.Registry = reg
	app.prompt.Tools = reg.Names() // the repo map stays
	app.agent.SystemPrompt = agent.SystemPrompt(app.prompt)
}

// explain adds what the user can do about a rejected key, naming where the
// key came from but never the key.
func (app *chatApp) explain(err error) error {
	var apiErr *provider.APIError
	// Gemini answers a bad key with 400 API_KEY_INVALID, which the
	// provider reports as an authentication error.
	if !errors.As(err, &apiErr) || (apiErr.StatusCode != 401 && apiErr.StatusCode != 403 && apiErr.Type != "authentication_error") {
		return err
	}
	if _, src := app.cfg.Key(); src != "" {
		return fmt.Errorf("%w\n(the API rejected the key from %s for %s)", err, src, app.cfg.APIURL)
	}
	if why := app.cfg.WithheldKey(); why != "" {
		return fmt.Errorf("%w\n(%s)", err, why)
	}
	return fmt.Errorf("%w\n(no API key is configured for %s; set PARLEY_API_KEY)", err, app.cfg.APIURL)
}

// rootIndex is the IndexSet of a single-root workspace.
type rootIndex struct {
	root string
	st   *index.Store
}

func (r rootIndex) StoreFor(abs string) (*index.Store, string, bool) {
	rel, err := filepath.Rel(r.root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, "", false
	}
	return r.st, filepath.ToSlash(rel), true
}

func (r rootIndex) Stores() []tools.RootStore {
	return []tools.RootStore{{Root: r.root, Store: r.st}}
}
