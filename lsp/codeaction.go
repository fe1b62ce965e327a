package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/workspace"
)

// agentCommand is one code action: a workspace/executeCommand command that
// starts a turn about the selection (and its diagnostics).
type agentCommand struct {
	command, title string
	kind           protocol.CodeActionKind // "" offers it without a kind
	// needsDiagnostics: only offered when the range has diagnostics.
	needsDiagnostics bool
	prompt           string
}

var agentCommands = []agentCommand{
	{command: "parley.explain", title: "parley: Explain", prompt: "Explain what this code does and why, briefly. Do not change any file."},
	{command: "parley.fix", title: "parley: Fix", kind: protocol.CodeActionKindQuickFix, needsDiagnostics: true,
		prompt: "Fix the problems reported in the diagnostics below. Make the smallest correct change, then say what you changed."},
	{command: "parley.refactor", title: "parley: Refactor", kind: protocol.CodeActionKindRefactorRewrite,
		prompt: "Refactor this code to be clearer and simpler without changing its behaviour, then say what you changed."},
	{command: "parley.addTests", title: "parley: Add tests", kind: protocol.CodeActionKindRefactor,
		prompt: "Add tests for this code, following the conventions of the existing tests in this workspace, and run them if you can."},
	{command: "parley.document", title: "parley: Document", kind: protocol.CodeActionKindRefactor,
		prompt: "Add or improve the documentation comments of this code in the language's usual style. Change nothing else."},
}

func commandNames() []string {
	out := make([]string, len(agentCommands))
	for i, c := range agentCommands {
		out[i] = c.command
	}
	return out
}

// CodeAction offers the agent commands for a range.
// Editors ask on every cursor move, so only the URI is checked: the
// actions do not depend on the document's content or the index.
func (s *Server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	if _, _, _, err := s.inFolder(p.TextDocument.URI); err != nil {
		return nil, err
	}
	out := []protocol.CommandOrCodeAction{}
	for _, c := range agentCommands {
		if c.needsDiagnostics && len(p.Context.Diagnostics) == 0 {
			continue
		}
		if !kindWanted(c.kind, p.Context.Only) {
			continue
		}
		arg, err := protocol.Marshal(ChatContext{URI: p.TextDocument.URI, Range: &p.Range, Diagnostics: p.Context.Diagnostics})
		if err != nil {
			return nil, err
		}
		action := &protocol.CodeAction{
			Title:   c.title,
			Command: protocol.Command{Title: c.title, Command: c.command, Arguments: []protocol.LSPAny{arg}},
		}
		if c.kind != "" {
			action.Kind = &c.kind
		}
		if c.needsDiagnostics {
			action.Diagnostics = p.Context.Diagnostics
		}
		out = append(out, action)
	}
	return out, nil
}

// kindWanted applies codeAction's "only" filter: kinds are hierarchical
// ("refactor" covers "refactor.rewrite"); actions without a kind are left
// out of filtered requests.
func kindWanted(kind protocol.CodeActionKind, only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind != "" && (kind == o || strings.HasPrefix(string(kind), string(o)+".")) {
			return true
		}
	}
	return false
}

// ExecuteCommand runs an agent command as a turn in a new session and
// answers, like parley/chat, when the turn ends.
func (s *Server) ExecuteCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	switch p.Command {
	case commandCompletionAccepted:
		return nil, s.completionAccepted(p)
	case commandNextEditAccepted:
		return nil, s.nextEditAccepted(p)
	}
	var cmd *agentCommand
	for i := range agentCommands {
		if agentCommands[i].command == p.Command {
			cmd = &agentCommands[i]
		}
	}
	if cmd == nil {
		return nil, invalidParams("unknown command %q", p.Command)
	}
	if len(p.Arguments) != 1 {
		return nil, invalidParams("%s takes one argument {uri, range, diagnostics}", p.Command)
	}
	var cc ChatContext
	if err := protocol.Unmarshal(luaObjectsFor[ChatContext](p.Arguments[0]), &cc); err != nil {
		return nil, invalidParams("%s: %v", p.Command, err)
	}
	msg, err := s.contextMessage(ChatParams{Message: cmd.prompt, Context: &cc})
	if err != nil {
		return nil, err
	}
	res, err := s.runTurn(ctx, "", msg)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return protocol.LSPAny(data), nil
}

// Bounds of the code quoted into a message.
const (
	maxContextLines = 400
	maxContextBytes = 32 << 10
)

// contextMessage appends the chat context to the user's message: the
// file, the selected code as the user sees it (unsaved edits included)
// and the diagnostics, so the model starts from what the user is looking
// at.
func (s *Server) contextMessage(p ChatParams) (string, error) {
	if p.Context == nil || p.Context.URI == "" {
		return p.Message, nil
	}
	f, abs, rel, err := s.inFolder(p.Context.URI)
	if err != nil {
		return "", err
	}
	content, _, err := agentView{s}.Read(abs)
	if err != nil {
		return "", invalidParams("context: %v", err)
	}
	var b strings.Builder
	b.WriteString(p.Message)
	fmt.Fprintf(&b, "\n\nContext: %s", filepath.ToSlash(filepath.Join(filepath.Base(f.root), rel)))
	if r := p.Context.Range; r != nil {
		lines := workspace.NewLines(content)
		start, err1 := lines.Offset(r.Start.Line, r.Start.Character, s.enc)
		end, err2 := lines.Offset(r.End.Line, r.End.Character, s.enc)
		if err1 != nil || err2 != nil || end < start {
			return "", invalidParams("context: range %v is outside %s", r, abs)
		}
		if end == start {
			// No selection: quote the line under the cursor.
			start, _ = lines.Offset(r.Start.Line, 0, s.enc)
			end, _ = lines.Offset(r.Start.Line+1, 0, s.enc)
			if end <= start {
				end = len(content)
			}
		}
		fmt.Fprintf(&b, ", lines %d-%d:\n", r.Start.Line+1, r.End.Line+1)
		b.WriteString(fence(quote(content[start:end])))
	} else {
		b.WriteString("\n")
	}
	if d := p.Context.Diagnostics; len(d) > 0 {
		b.WriteString("Diagnostics:\n")
		for _, diag := range d {
			src := ""
			if v, ok := diag.Source.Get(); ok && v != "" {
				src = v + ": "
			}
			fmt.Fprintf(&b, "- line %d: %s%s\n", diag.Range.Start.Line+1, src, diagnosticText(diag.Message))
		}
	}
	return b.String(), nil
}

// quote cuts code to the context bounds, at a line and character
// boundary, saying so when it does.
func quote(code []byte) string {
	s, cut := string(code), false
	if n := strings.Count(s, "\n"); n > maxContextLines {
		idx := 0
		for range maxContextLines {
			idx += strings.IndexByte(s[idx:], '\n') + 1
		}
		s, cut = s[:idx], true
	}
	if len(s) > maxContextBytes {
		i := maxContextBytes
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s, cut = s[:i], true
	}
	if cut {
		s += "\n[... cut; read the file for the rest]"
	}
	return s
}

// fence wraps code in a Markdown fence longer than any backtick run in it.
func fence(code string) string {
	ticks := "```"
	for strings.Contains(code, ticks) {
		ticks += "`"
	}
	if !strings.HasSuffix(code, "\n") {
		code += "\n"
	}
	return ticks + "\n" + code + ticks + "\n"
}

// diagnosticText is a diagnostic's message, plain or Markdown (3.18).
func diagnosticText(m protocol.InlayHintTooltip) string {
	switch v := m.(type) {
	case protocol.String:
		return string(v)
	case *protocol.MarkupContent:
		return v.Value
	}
	return ""
}
