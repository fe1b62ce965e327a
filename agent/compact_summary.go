package agent

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/parleyhq/parley/agent/provider"
)

//go:embed compact_prompt.md
var compactPrompt string

// Headers of the summary message. summaryHeader starts it, so a later
// compaction recognises an earlier summary; the sections below it are
// written by the loop, not the model, so these facts survive any number
// of compactions word for word.
const (
	summaryHeader  = "[Compacted history] The earlier part of this session was replaced by this summary to fit the model's context window."
	todosHeader    = "## Todo list"
	changedHeader  = "## Files changed"
	verbatimHeader = "## The user's last message, verbatim"
)

// maxListedFiles caps the files-changed section.
const maxListedFiles = 100

// summaryTokens caps the summary: a tenth of the window, within [1k, 8k].
func summaryTokens(window int) int {
	return min(max(window/10, 1024), 8192)
}

// summarise replaces the messages before cut by one user message holding
// the model's summary of them and the facts the loop keeps itself.
func (c *compactor) summarise(ctx context.Context, cut int, focus string) error {
	old := c.s.Messages[:cut]
	summary, err := c.requestSummary(ctx, old, focus)
	if err != nil {
		return err
	}
	msg := provider.Message{Role: provider.RoleUser, Blocks: []provider.Block{{
		Kind: provider.BlockText, Text: c.summaryText(summary, old, cut),
	}}}
	c.s.Messages = append([]provider.Message{msg}, c.s.Messages[cut:]...)
	return nil
}

// requestSummary has the model summarise old. The request is sized from
// the window the agent believes in; when the model refuses it as too
// long anyway, it is sent once more at half the size.
func (c *compactor) requestSummary(ctx context.Context, old []provider.Message, focus string) (string, error) {
	window := c.a.contextWindow()
	tc := c.s.counter(c.a.Model)
	maxTokens := summaryTokens(window)
	// A floor keeps something to summarise in windows too small for the
	// shares to work out.
	budget := max(int(transcriptShare*float64(window))-maxTokens-tc.count(compactPrompt), 512)
	instruction := "Summarise the session in this transcript."
	if f := strings.TrimSpace(focus); f != "" {
		instruction += "\nThe user asked the summary to focus on: " + f
	}
	for attempt := 0; ; attempt++ {
		req := &provider.Request{
			Model:  c.a.Model,
			System: compactPrompt,
			Messages: []provider.Message{{Role: provider.RoleUser, Blocks: []provider.Block{{
				Kind: provider.BlockText, Text: c.transcript(old, budget) + "\n\n" + instruction,
			}}}},
			MaxTokens: maxTokens,
		}
		// The summary is not shown as it streams; the Provider contract
		// has no nil callback.
		resp, err := c.a.Provider.Stream(ctx, req, func(provider.Delta) {})
		if errors.Is(err, provider.ErrContextOverflow) && attempt == 0 {
			budget, maxTokens = budget/2, max(maxTokens/2, minResponse/4)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("compact: summary request: %w", err)
		}
		if resp == nil {
			return "", errors.New("compact: summary request: provider returned no response")
		}
		c.charge(resp.Usage)
		summary := strings.TrimSpace(textOf(resp.Message))
		if summary == "" {
			return "", errors.New("compact: the model returned an empty summary")
		}
		return summary, nil
	}
}

// summaryText assembles the summary message.
func (c *compactor) summaryText(summary string, old []provider.Message, cut int) string {
	parts := []string{summaryHeader, summary}
	list := func(header string, items []string) {
		if len(items) > 0 {
			parts = append(parts, header+"\n"+strings.Join(items, "\n"))
		}
	}
	if c.a.Env != nil && c.a.Env.Todos != nil {
		var todos []string
		for _, it := range c.a.Env.Todos.Items() {
			todos = append(todos, fmt.Sprintf("- [%s] %s", it.Status, it.Content))
		}
		list(todosHeader, todos)
	}
	var files []string
	for _, f := range c.changedFiles(old) {
		files = append(files, "- "+f)
	}
	list(changedHeader, files)
	if i, text := lastUserText(c.s.Messages); i >= 0 && i < cut {
		limit := int(keepShare * float64(c.a.contextWindow()))
		parts = append(parts, verbatimHeader+"\n\n"+clipTokens(text, limit, c.s.counter(c.a.Model).count))
	}
	return strings.Join(parts, "\n\n")
}

// lastUserText finds the user's latest words: the last text block of a
// user message, or the verbatim section of an earlier summary when that
// is the latest. i is the message index, -1 if there is none.
func lastUserText(msgs []provider.Message) (i int, text string) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != provider.RoleUser {
			continue
		}
		for j := len(msgs[i].Blocks) - 1; j >= 0; j-- {
			b := msgs[i].Blocks[j]
			if b.Kind != provider.BlockText {
				continue
			}
			if !strings.HasPrefix(b.Text, summaryHeader) {
				return i, b.Text
			}
			if _, v, ok := strings.Cut(b.Text, "\n"+verbatimHeader+"\n\n"); ok {
				return i, v
			}
		}
	}
	return -1, ""
}

// changedFiles lists the paths that the old messages' mutating tool calls
// named (and those an earlier summary listed), in first-seen order.
func (c *compactor) changedFiles(old []provider.Message) []string {
	var files []string
	add := func(p string) {
		if p != "" && !slices.Contains(files, p) && len(files) < maxListedFiles {
			files = append(files, p)
		}
	}
	for _, m := range old {
		for _, b := range m.Blocks {
			switch {
			case b.Kind == provider.BlockText && m.Role == provider.RoleUser && strings.HasPrefix(b.Text, summaryHeader):
				for _, p := range section(b.Text, changedHeader) {
					add(strings.TrimPrefix(p, "- "))
				}
			case b.Kind == provider.BlockToolUse && c.mutating(b.ToolName):
				for _, p := range pathArgs(b.Input) {
					add(p)
				}
			}
		}
	}
	return files
}

// mutating reports a tool that may change files; unknown tools count as
// mutating, since what they did cannot be checked.
func (c *compactor) mutating(name string) bool {
	if c.a.Registry == nil {
		return true
	}
	t, ok := c.a.Registry.Get(name)
	return !ok || !t.ReadOnly()
}

// pathArgs returns the file arguments of a tool call: the string values
// of its top-level "path", "from" and "to" keys (see tools' params).
func pathArgs(input json.RawMessage) []string {
	var args map[string]any
	if json.Unmarshal(input, &args) != nil {
		return nil
	}
	var out []string
	for _, k := range []string{"path", "from", "to"} {
		if s, ok := args[k].(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// section returns the non-empty lines under header in text, up to the
// next blank line.
func section(text, header string) []string {
	_, rest, ok := strings.Cut(text, "\n"+header+"\n")
	if !ok {
		return nil
	}
	var out []string
	for line := range strings.SplitSeq(rest, "\n") {
		if strings.TrimSpace(line) == "" {
			break
		}
		out = append(out, line)
	}
	return out
}

// transcript renders messages as text for the summary request, within
// budget tokens: each entry cut to an eighth of the budget, the first
// (the task) and as many of the latest as fit, with a note where the
// middle was left out.
func (c *compactor) transcript(msgs []provider.Message, budget int) string {
	count := c.s.counter(c.a.Model).count
	entries := transcriptEntries(msgs)
	if len(entries) == 0 {
		return "<transcript>\n</transcript>"
	}
	first := clipTokens(entries[0], budget/8, count)
	left := budget - count(first)
	var tail []string
	for i := len(entries) - 1; i > 0; i-- {
		e := clipTokens(entries[i], budget/8, count)
		n := count(e)
		if n > left {
			break
		}
		left -= n
		tail = append(tail, e)
	}
	slices.Reverse(tail)
	var b strings.Builder
	b.WriteString("<transcript>\n" + first + "\n")
	if omitted := len(entries) - 1 - len(tail); omitted > 0 {
		fmt.Fprintf(&b, "[... %d entries left out for length ...]\n", omitted)
	}
	for _, e := range tail {
		b.WriteString(e + "\n")
	}
	b.WriteString("</transcript>")
	return b.String()
}

// transcriptEntries is one entry per text, tool call and tool result;
// thinking is left out.
func transcriptEntries(msgs []provider.Message) []string {
	names := map[string]string{} // call id -> tool name
	var out []string
	for _, m := range msgs {
		for _, b := range m.Blocks {
			switch b.Kind {
			case provider.BlockText:
				if strings.TrimSpace(b.Text) != "" {
					out = append(out, fmt.Sprintf("[%s]\n%s", m.Role, b.Text))
				}
			case provider.BlockImage:
				// The summariser reads a note, never the image's data.
				out = append(out, fmt.Sprintf("[%s]\n%s", m.Role, imageNote(b)))
			case provider.BlockToolUse:
				names[b.ToolCallID] = b.ToolName
				out = append(out, fmt.Sprintf("[tool call] %s %s", b.ToolName, b.Input))
			case provider.BlockToolResult:
				status := "result"
				if b.IsError {
					status = "error"
				}
				out = append(out, fmt.Sprintf("[tool %s] %s\n%s", status, names[b.ToolCallID], b.Text))
			}
		}
	}
	return out
}

// clipTokens cuts s to about limit tokens, on a rune boundary, with a note.
func clipTokens(s string, limit int, count func(string) int) string {
	n := count(s)
	if n <= limit || limit <= 0 {
		return s
	}
	cut := len(s) * limit / n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n[... cut: %d of about %d tokens shown ...]", limit, n)
}
