package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/lspclient"
	"github.com/parleyhq/parley/agent/provider"
)

const replHelp = `Type a message and press Enter; pasted lines are sent together when you
press Enter after the paste. Tab completes a /command, and a path, @diagnostics or @changes after
"@": @path/to/file, @Symbol, @diagnostics, @changes and @url:ADDR in a message put that context
before the agent. Ctrl+C interrupts the agent (at the prompt it clears the line); Ctrl+D, quit or
exit leaves.

  /help          this help
  /undo          revert the agent's last file edit in this session
  /sessions      list this workspace's sessions, most recent first
  /resume ID     continue a session (ID, unique prefix, or "last")
  /delete ID     delete a saved session (ID, unique prefix, or "last")
  /new           start a new session
  /model NAME    use another model from the next message on
` + imageHelp + `  /cost          tokens of this session: the model's usage, and what re-reads saved
  /lsp           the language servers behind diagnostics after edits, and which run
  /memory ...    long-term memories: list, search, show, edit, forget, stale, stats (/memory help)
` + compactHelp

// repl runs the interactive loop on the terminal.
func (app *chatApp) repl() error {
	fd := int(os.Stdin.Fd())
	hist := loadHistory(filepath.Join(app.wsDir, "chat_history"))
	t := term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{&ctrlCReader{r: os.Stdin}, os.Stdout}, "parley> ")
	t.History = hist
	t.AutoCompleteCallback = app.completeInput
	fmt.Fprintf(app.g.stderr, "parley chat · %s · %s · permission mode %s\n", app.agent.Model, app.root, app.policy.Mode())
	fmt.Fprintf(app.g.stderr, "session %s · /help for commands, Ctrl+D to quit\n", app.session.ID)
	defer func() { app.agent.EndSession(context.Background(), app.session, "prompt_input_exit") }()
	for {
		line, err := readREPLLine(fd, t)
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(app.g.stdout)
			return nil
		}
		if err != nil {
			return err
		}
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			continue
		case line == "quit" || line == "exit":
			return nil
		case strings.HasPrefix(line, "/"):
			app.command(line)
			continue
		}
		ctx, stop := signalContext()
		_, err = app.send(ctx, line)
		stop()
		if err != nil {
			fmt.Fprintln(app.g.stderr, "parley:", err)
		}
	}
}

// readREPLLine reads one message in raw mode (line editing, history) and
// leaves the terminal in normal mode, so Ctrl+C interrupts a turn and the
// approval prompt reads a normal line. Lines of one paste are joined.
func readREPLLine(fd int, t *term.Terminal) (string, error) {
	old, err := term.MakeRaw(fd)
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	defer term.Restore(fd, old)
	if w, h, err := term.GetSize(fd); err == nil && w > 0 && h > 0 {
		t.SetSize(w, h)
	}
	t.SetBracketedPasteMode(true)
	defer t.SetBracketedPasteMode(false)
	var parts []string
	for {
		line, err := t.ReadLine()
		if errors.Is(err, term.ErrPasteIndicator) {
			parts = append(parts, line)
			continue
		}
		if err != nil {
			return "", err
		}
		return strings.Join(append(parts, line), "\n"), nil
	}
}

// command runs a slash command.
func (app *chatApp) command(line string) {
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	w := app.g.stderr
	switch name {
	case "/help":
		fmt.Fprint(w, replHelp)
		printPromptCommands(w, app.promptCommands())
	case "/undo":
		label, err := app.editor.Undo()
		if err != nil {
			fmt.Fprintln(w, "undo:", err)
			return
		}
		fmt.Fprintf(w, "undone: %s\n", label)
	case "/cost":
		printTokens(w, newSessionTokens(app.session.ID, app.session.Title, app.session.Usage, app.agent.Env.Ledger.Stats()))
	case "/sessions":
		app.listSessions()
	case "/resume":
		if arg == "" {
			fmt.Fprintln(w, "usage: /resume ID")
			return
		}
		s, err := app.pickSession(arg)
		if err != nil {
			fmt.Fprintln(w, "resume:", err)
			return
		}
		app.switchSession(s, "other")
		fmt.Fprintf(w, "resumed %s: %s (%d messages)\n", s.ID, s.Title, len(s.Messages))
		if last := s.LastText(); last != "" {
			fmt.Fprintf(w, "last answer:\n%s\n", last)
		}
	case "/delete":
		app.deleteSession(arg)
	case "/new":
		app.switchSession(agent.NewSession(), "clear")
		fmt.Fprintf(w, "new session %s\n", app.session.ID)
	case "/compact":
		app.compact(arg)
	case "/memory":
		app.memoryCommand(arg)
	case "/image":
		app.imageCommand(arg)
	case "/lsp":
		var running []lspclient.Status
		if app.lsp != nil {
			running = app.lsp.Running()
		}
		if err := printLSPList(w, app.cfg, false, running); err != nil {
			fmt.Fprintln(w, "lsp:", err)
		}
	case "/model":
		if arg == "" {
			fmt.Fprintf(w, "model: %s\n", app.agent.Model)
			return
		}
		app.agent.Model = arg
		fmt.Fprintf(w, "model set to %s\n", arg)
	default:
		if app.promptCommand(line) {
			return
		}
		fmt.Fprintf(w, "unknown command %s; /help lists them\n", name)
	}
}

// switchSession makes s the current session. Allowances the user granted
// "for this session" belong to the one being left; /undo reverts the new
// session's edits, and re-reads are judged by what its model has seen.
// reason is the left session's SessionEnd reason.
func (app *chatApp) switchSession(s *agent.Session, reason string) {
	app.agent.EndSession(context.Background(), app.session, reason)
	app.session = s
	app.policy.ForgetSession()
	app.useUndo(s)
	app.useLedger(s)
	app.newFocus()
}

// deleteSession removes a saved session; deleting the current one starts
// a new one.
func (app *chatApp) deleteSession(ref string) {
	w := app.g.stderr
	if ref == "" {
		fmt.Fprintln(w, "usage: /delete ID")
		return
	}
	id, err := app.findSession(ref)
	if err == nil {
		err = app.sessions.Delete(id)
	}
	if err != nil {
		fmt.Fprintln(w, "delete:", err)
		return
	}
	fmt.Fprintf(w, "deleted session %s\n", id)
	if id == app.session.ID {
		app.switchSession(agent.NewSession(), "other")
		fmt.Fprintf(w, "new session %s\n", app.session.ID)
	}
}

func (app *chatApp) listSessions() {
	w := app.g.stderr
	if app.sessions == nil {
		fmt.Fprintln(w, "sessions are not available (the store could not be opened)")
		return
	}
	list, err := app.sessions.List()
	if err != nil {
		fmt.Fprintln(w, "sessions:", err)
		return
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "no saved sessions yet")
	}
	const shown = 20
	for i, s := range list {
		if i == shown {
			fmt.Fprintf(w, "... and %d older\n", len(list)-shown)
			break
		}
		mark := " "
		if s.ID == app.session.ID {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %s  %s  %3d msgs  %7d tok  %s\n", mark, s.ID, s.Updated.Local().Format("Jan 02 15:04"),
			s.Messages, s.Usage.InputTokens+s.Usage.OutputTokens+s.Usage.CacheReadTokens+s.Usage.CacheWriteTokens, s.Title)
	}
}

// ctrlCReader turns Ctrl+C at the prompt into "clear the line" (Ctrl+E,
// Ctrl+U); x/term would otherwise report it as end of input.
type ctrlCReader struct {
	r       io.Reader
	pending []byte
}

func (c *ctrlCReader) Read(p []byte) (int, error) {
	if len(c.pending) == 0 {
		buf := make([]byte, len(p))
		n, err := c.r.Read(buf)
		for _, b := range buf[:n] {
			if b == 3 {
				c.pending = append(c.pending, 5, 21)
			} else {
				c.pending = append(c.pending, b)
			}
		}
		if len(c.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, c.pending)
	c.pending = c.pending[n:]
	return n, nil
}

// fileHistory is the REPL's line history, appended to a file as lines are
// entered so it survives the process. Only the REPL goroutine uses it.
type fileHistory struct {
	path    string
	entries []string // oldest first
}

const maxHistory = 1000

func loadHistory(path string) *fileHistory {
	h := &fileHistory{path: path}
	data, err := os.ReadFile(path)
	if err != nil {
		return h // no history yet, or unreadable: start empty
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if line != "" {
			h.entries = append(h.entries, line)
		}
	}
	if len(h.entries) > maxHistory {
		h.entries = slices.Clone(h.entries[len(h.entries)-maxHistory:])
		// Rewrite so the file does not grow without bound.
		os.WriteFile(path, []byte(strings.Join(h.entries, "\n")+"\n"), 0o600)
	}
	return h
}

func (h *fileHistory) Add(entry string) {
	if entry == "" || strings.ContainsAny(entry, "\n\r") || (len(h.entries) > 0 && h.entries[len(h.entries)-1] == entry) {
		return
	}
	h.entries = append(h.entries, entry)
	if len(h.entries) > 2*maxHistory {
		h.entries = slices.Clone(h.entries[len(h.entries)-maxHistory:])
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return // history is a convenience; failing to keep it is not an error
	}
	f.WriteString(entry + "\n")
	f.Close()
}

func (h *fileHistory) Len() int { return len(h.entries) }

func (h *fileHistory) At(i int) string { return h.entries[len(h.entries)-1-i] }

// chatPrinter shows a turn on the terminal: the answer on stdout as it
// streams, tool calls and problems compactly on stderr. Safe for
// concurrent use (sub-agents report from their own goroutines).
type chatPrinter struct {
	mu             sync.Mutex
	root           string // paths below it are shown relative
	stdout, stderr io.Writer
	ttyErr         bool
	colour         bool           // stderr may carry colour (a terminal, no NO_COLOR)
	midLine        bool           // stdout holds an unfinished line
	thinking       bool           // stderr holds an unfinished thinking line
	lastCall       provider.Usage // the turn's latest model call
}

func newChatPrinter(stdout, stderr io.Writer) *chatPrinter {
	p := &chatPrinter{stdout: stdout, stderr: stderr}
	if f, ok := stderr.(*os.File); ok {
		p.ttyErr = isTTY(f)
	}
	p.colour = p.ttyErr && colorWanted()
	return p
}

const (
	dim   = "\x1b[2m"
	reset = "\x1b[0m"
)

// dimmed is text shown as an aside (thinking, tool output): dim when
// colour is allowed.
func (p *chatPrinter) dimmed(s string) string {
	if !p.colour {
		return s
	}
	return dim + s + reset
}

func (p *chatPrinter) sink(e agent.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Kind {
	case agent.EventText:
		p.endThinking()
		io.WriteString(p.stdout, e.Text)
		p.midLine = !strings.HasSuffix(e.Text, "\n")
	case agent.EventThinking:
		if p.ttyErr {
			p.finishLine()
			io.WriteString(p.stderr, p.dimmed(e.Text))
			p.thinking = true
		}
	case agent.EventUsage:
		p.lastCall = e.Usage
	case agent.EventCompaction:
		p.finishLine()
		io.WriteString(p.stderr, compactionLine(e))
	case agent.EventMemory:
		p.finishLine()
		io.WriteString(p.stderr, p.dimmed(memoryEventLines(e)))
	case agent.EventToolCall:
		p.finishLine()
		fmt.Fprintf(p.stderr, "▸ %s %s\n", e.ToolName, summarize(e.Input))
	case agent.EventToolResult:
		if e.Result.IsError {
			fmt.Fprintf(p.stderr, "  ✗ %s\n", clip(firstLineOf(e.Result.Content), 200))
		}
	case agent.EventEdit:
		for _, c := range e.Changes {
			target := p.shortPath(c.Path)
			if c.NewPath != "" {
				target += " → " + p.shortPath(c.NewPath)
			}
			fmt.Fprintf(p.stderr, "  ✎ %s %s\n", c.Op, target)
		}
	case agent.EventMCP:
		p.finishLine()
		fmt.Fprintf(p.stderr, "  %s %s\n", mcpMark(e.MCP), clip(e.Text, 600))
	case agent.EventHook:
		if e.Hook.Outcome != hooks.OutcomeOK {
			p.finishLine()
			fmt.Fprintf(p.stderr, "  ⚑ %s\n", clip(firstLineOf(e.Text), 300))
		}
	case agent.EventDone:
		p.finishLine()
	}
}

// mcpMark marks an MCP server's trouble (✗) apart from its recovery (↻).
func mcpMark(r *agent.MCPReport) string {
	if r != nil && (r.State == "restarting" || r.State == "restarted") {
		return "↻"
	}
	return "✗"
}

// shortPath shows abs relative to the workspace root when it is inside.
func (p *chatPrinter) shortPath(abs string) string {
	if rel, err := filepath.Rel(p.root, abs); err == nil && p.root != "" && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// subSink shows a sub-agent's tool calls, indented.
func (p *chatPrinter) subSink(e agent.Event) {
	if e.Kind != agent.EventToolCall {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLine()
	fmt.Fprintf(p.stderr, "  ▹ task: %s %s\n", e.ToolName, summarize(e.Input))
}

// warn reports a problem that does not stop the chat (a failed background
// index run), from any goroutine.
func (p *chatPrinter) warn(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLine()
	fmt.Fprintln(p.stderr, "parley:", err)
}

// toolOutput streams a long-running tool's output (a terminal only).
func (p *chatPrinter) toolOutput(chunk string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	io.WriteString(p.stderr, p.dimmed(chunk))
}

// breakLine ends an unfinished answer line before something else is
// written to the terminal.
func (p *chatPrinter) breakLine() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finishLine()
}

func (p *chatPrinter) finishLine() {
	p.endThinking()
	if p.midLine {
		io.WriteString(p.stdout, "\n")
		p.midLine = false
	}
}

func (p *chatPrinter) endThinking() {
	if p.thinking {
		io.WriteString(p.stderr, "\n")
		p.thinking = false
	}
}

// endTurn says why a turn stopped when it did not simply finish.
func (p *chatPrinter) endTurn(res *agent.TurnResult) {
	p.breakLine()
	if res == nil {
		return
	}
	switch res.StopReason {
	case agent.StopEndTurn, agent.StopError:
	case agent.StopMaxIterations:
		fmt.Fprintf(p.stderr, "(stopped after %d model calls; send another message to continue)\n", res.Iterations)
	case agent.StopRepeated:
		fmt.Fprintln(p.stderr, "(stopped: the model kept repeating the same call)")
	case agent.StopMaxTokens:
		fmt.Fprintln(p.stderr, "(the answer was cut off at the token limit)")
	default:
		fmt.Fprintf(p.stderr, "(%s)\n", res.StopReason)
	}
}

// usage prints what a turn cost, what the session has cost so far, and how
// full the model's context window was after the turn's last call (its
// prompt plus its answer, which the next call sends again). Nothing is
// printed for a turn that made no model call.
func (p *chatPrinter) usage(res *agent.TurnResult, session provider.Usage, window int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	last := p.lastCall
	p.lastCall = provider.Usage{}
	if res == nil || res.Usage == (provider.Usage{}) {
		return
	}
	fmt.Fprintln(p.stderr, usageLine(res.Usage, session, last, window))
}

// usageLine formats usage; input counts cached tokens too.
func usageLine(turn, session, last provider.Usage, window int) string {
	in := func(u provider.Usage) int { return u.InputTokens + u.CacheReadTokens + u.CacheWriteTokens }
	s := fmt.Sprintf("(tokens: turn %d in, %d out · session %d in, %d out", in(turn), turn.OutputTokens, in(session), session.OutputTokens)
	if used := in(last) + last.OutputTokens; used > 0 && window > 0 {
		s += fmt.Sprintf(" · context %d of %d, %d%%", used, window, used*100/window)
	}
	return s + ")"
}

// summarize renders tool input as one short line: key=value pairs with
// the most telling keys first.
func summarize(input json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return clip(string(input), 100)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	first := []string{"path", "command", "pattern", "query", "name", "description", "file"}
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := slices.Index(first, a), slices.Index(first, b)
		if ia < 0 {
			ia = len(first)
		}
		if ib < 0 {
			ib = len(first)
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range keys {
		v, ok := m[k].(string)
		if !ok {
			b, _ := json.Marshal(m[k])
			v = string(b)
		}
		parts = append(parts, k+"="+clip(strings.ReplaceAll(v, "\n", "⏎"), 60))
	}
	return clip(strings.Join(parts, " "), 160)
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func firstLineOf(s string) string {
	sc := bufio.NewScanner(strings.NewReader(s))
	if sc.Scan() {
		return sc.Text()
	}
	return s
}
