package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/internal/jsonschema"
	"github.com/parleyhq/parley/tools/ledger"
)

//go:embed desc/read_file.md
var readFileDesc string

// DefaultReadTokens is read_file's budget when the model gives none.
const DefaultReadTokens = 20000

type readFileParams struct {
	Path      string `json:"path" jsonschema:"description=File to read: relative to the workspace root, or absolute inside it."`
	StartLine int    `json:"start_line,omitempty" jsonschema:"minimum=1,description=First line to show (1-based). Default: 1."`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"minimum=1,description=Last line to show (1-based, inclusive). Default: the end of the file."`
	MaxTokens int    `json:"max_tokens,omitempty" jsonschema:"minimum=100,maximum=100000,description=Token budget for the output (default 20000). Output stops at the last whole line that fits."`
	Full      bool   `json:"full,omitempty" jsonschema:"description=Show the text even if you have seen it in this session (by default a re-read answers with a stub or a diff against what you last saw)."`
}

// readFileTool shows a text file with numbered lines.
var readFileTool = New(
	Spec{Name: "read_file", Description: readFileDesc, ReadOnly: true},
	readFileAccess, readFileRun)

func readFileAccess(env *Env, p *readFileParams) (access.Access, error) {
	return pathAccess(env, access.Read, p.Path, "read")
}

func readFileRun(ctx context.Context, env *Env, p *readFileParams) (*Result, error) {
	if p.EndLine > 0 && p.StartLine > p.EndLine {
		return Errorf("start_line %d is after end_line %d", p.StartLine, p.EndLine), nil
	}
	abs, _, res := resolveArg(env, p.Path)
	if res != nil {
		return res, nil
	}
	shown := displayPath(env, abs)
	content, _, res := readText(env, abs, shown)
	if res != nil {
		return res, nil
	}
	lines := splitLines(string(content))
	if len(lines) == 0 {
		return &Result{Content: fmt.Sprintf("(%s is empty)", shown)}, nil
	}
	start, end := max(p.StartLine, 1), len(lines)
	if p.EndLine > 0 {
		end = min(p.EndLine, len(lines))
	}
	if start > len(lines) {
		return Errorf("start_line %d is past the end of %s (%d lines)", start, shown, len(lines)), nil
	}
	budget := p.MaxTokens
	if budget == 0 {
		budget = DefaultReadTokens
	}
	out, err := numberLines(lines[start-1:end], start, budget)
	if err != nil {
		return nil, fmt.Errorf("read_file %s: %w", shown, err)
	}
	text := renderRead(out, start, end, len(lines), budget)
	if env.Ledger == nil {
		return &Result{Content: text}, nil
	}
	req := ledger.Request{Path: abs, Shown: shown, Content: content, Start: start, End: end, Full: p.Full, Turn: ledger.TurnOf(ctx),
		Outline: readOutline(ctx, env, abs, shown, content, lines, p)}
	ans := env.Ledger.Read(req)
	seen := ledger.Range{Start: start, End: start + out.shown - 1}
	if ans.Kind != ledger.Fresh {
		text, seen = ans.Text, ledger.Range{}
	}
	if err := recordRead(ledger.CounterOf(ctx), env.Ledger, req, ans, seen, text, out.text); err != nil {
		return nil, fmt.Errorf("read_file %s: %w", shown, err)
	}
	return &Result{Content: text}, nil
}

// recordRead enters a read in the ledger with its tokens, counted by
// count (the session model's tokenizer, as the agent counts prompts): text
// is what the model gets, full the requested lines as a fresh read shows
// them.
func recordRead(count func(string) int, l *ledger.Ledger, req ledger.Request, ans ledger.Answer, seen ledger.Range, text, full string) error {
	sent := count(text)
	base := sent
	if ans.Kind != ledger.Fresh {
		base = count(full)
	}
	return l.Record(req, ans, seen, ledger.Tokens{Sent: sent, Baseline: base})
}

// renderRead is a fresh read's text: the numbered lines and a note when
// they are not the whole file.
func renderRead(out numbered, start, end, total, budget int) string {
	var b strings.Builder
	b.WriteString(out.text)
	last := start + out.shown - 1
	switch {
	case out.cut:
		fmt.Fprintf(&b, "[line %d alone is over max_tokens=%d (counted with %s) and was cut; raise max_tokens or use grep to find what you need]\n", start, budget, tokenEncoding)
	case out.truncated:
		fmt.Fprintf(&b, "[truncated to stay within max_tokens=%d (counted with %s): showed lines %d-%d of %d; continue with start_line=%d]\n", budget, tokenEncoding, start, last, total, last+1)
	case start > 1 || end < total:
		fmt.Fprintf(&b, "[showed lines %d-%d of %d]\n", start, end, total)
	}
	return b.String()
}

// pathAccess describes a call that touches one model-supplied path.
func pathAccess(env *Env, kind access.Kind, p, verb string) (access.Access, error) {
	_, rel, res := resolveArg(env, p)
	if res != nil {
		return access.Access{}, &jsonschema.InputError{Msg: res.Content}
	}
	return access.Access{Kind: kind, Paths: []string{rel}, Summary: verb + " " + rel}, nil
}
