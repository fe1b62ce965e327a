package mentions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/internal/tokcount"
)

// Token budgets of the expansions.
const (
	// DefaultBudget bounds one mention's text.
	DefaultBudget = 8000
	// DefaultTotal bounds all the mentions of one message.
	DefaultTotal = 32000
	// minBudget is the least worth expanding a mention into: below it the
	// mention is reported as over the message's budget.
	minBudget = 100
	// maxMentions bounds the mentions one message expands.
	maxMentions = 20
)

// Resolver expands the mentions of one message. Tools (the agent and
// the session about to run the turn) is required; the rest is what the
// front end has.
type Resolver struct {
	Tools
	// Selection quotes the editor's selection for @selection: a label
	// ("a.go:3-9") and the text. Nil: this front end has no selection.
	Selection func(ctx context.Context) (label, text string, err error)
	// CurrentFile is the absolute path of the editor's active document:
	// the scope of an inline @diagnostics ("": the workspace).
	CurrentFile string
	// OpenFiles are the editor's open documents (absolute paths):
	// @diagnostics of the workspace asks about them and the files git
	// reports changed or untracked.
	OpenFiles []string
	// Budget bounds one mention and Total all of them, in tokens (0:
	// DefaultBudget, DefaultTotal).
	Budget, Total int

	count func(string) int
	used  int
}

// Expand resolves picked (the mentions a picker sent) and the mentions
// typed inline in msg, in the order they appear in msg, and returns the
// context to append to msg and a report per mention. A picked mention
// wins over the same text typed inline; each target is expanded once.
// An inline word that names neither a file nor a symbol gives no report.
func (r *Resolver) Expand(ctx context.Context, msg string, picked []Mention) (string, []Report) {
	if r.count == nil {
		r.count = tokcount.For(r.modelName())
	}
	var b strings.Builder
	var reports []Report
	seen := map[string]bool{}
	for _, m := range r.order(msg, picked) {
		if len(reports) == maxMentions {
			break
		}
		rep, text, ok := r.resolve(ctx, m, seen)
		if !ok {
			continue
		}
		if text != "" {
			b.WriteString(text)
		}
		reports = append(reports, rep)
	}
	return b.String(), reports
}

func (r *Resolver) modelName() string {
	if r.Agent != nil {
		return r.Agent.Model
	}
	return ""
}

// order merges picked and the inline mentions of msg by their place in
// msg; picked mentions whose text msg lacks come last.
func (r *Resolver) order(msg string, picked []Mention) []Mention {
	texts := map[string]bool{}
	all := slices.Clone(picked)
	for _, m := range picked {
		texts[m.Text] = true
	}
	for _, m := range Parse(msg) {
		if !texts[m.Text] {
			all = append(all, m)
		}
	}
	at := func(m Mention) int {
		if i := strings.Index(msg, m.Text); i >= 0 && m.Text != "" {
			return i
		}
		return len(msg) + 1
	}
	slices.SortStableFunc(all, func(a, b Mention) int { return cmp.Compare(at(a), at(b)) })
	return all
}

// resolve expands one mention; ok is false for an inline word that is
// plain text, or a target already expanded.
func (r *Resolver) resolve(ctx context.Context, m Mention, seen map[string]bool) (rep Report, text string, ok bool) {
	if m.Kind == "" {
		if m, ok = r.classify(m); !ok {
			return Report{}, "", false
		}
	}
	if m.Kind == KindDiagnostics && m.Scope == "" && m.URI == "" && r.CurrentFile != "" {
		m.Scope, m.URI = ScopeFile, r.CurrentFile
	}
	rep = Report{Kind: m.Kind, Text: m.Text, Label: label(m)}
	key := string(m.Kind) + "\x00" + rep.Label
	if seen[key] {
		return Report{}, "", false
	}
	seen[key] = true
	budget := min(cmp.Or(r.Budget, DefaultBudget), cmp.Or(r.Total, DefaultTotal)-r.used)
	if budget < minBudget {
		rep.Error = "left out: the message's mentions are over their token budget"
		return rep, "", true
	}
	body, err := r.body(ctx, m, budget, &rep)
	if err != nil {
		rep.Error = err.Error()
		return rep, "", true
	}
	if m.Kind == KindFile {
		text = FileBlock(rep.Label, body)
	} else {
		text = fmt.Sprintf("\n\n<%s label=%q>\n%s\n</%s>", m.Kind, rep.Label, strings.TrimRight(cut(body, budget, r.count), "\n"), m.Kind)
	}
	rep.Tokens = r.count(text)
	r.used += rep.Tokens
	return rep, text, true
}

// body is the text of mention m within budget tokens; rep.Label may be
// refined (a file's path as the tool shows it).
func (r *Resolver) body(ctx context.Context, m Mention, budget int, rep *Report) (string, error) {
	switch m.Kind {
	case KindFile:
		if m.Path == "" {
			return "", errors.New("the mention names no path")
		}
		shown, text, err := r.ReadFile(ctx, m.Path, budget)
		if err == nil {
			rep.Label = shown
		}
		return text, err
	case KindSymbol:
		return r.symbol(ctx, m)
	case KindDiagnostics:
		return r.diagnostics(ctx, m)
	case KindChanges:
		return r.changes(ctx)
	case KindSelection:
		if r.Selection == nil {
			return "", errors.New("no selection was sent with the message")
		}
		l, text, err := r.Selection(ctx)
		if err == nil && l != "" {
			rep.Label = "selection " + l
		}
		return text, err
	case KindURL:
		if m.URL == "" {
			return "", errors.New("no address: type it after @url:")
		}
		return r.Run(ctx, "fetch_url", map[string]string{"url": m.URL})
	}
	return "", fmt.Errorf("unknown mention kind %q", m.Kind)
}

// classify decides what an inline word is: an existing file (the word
// or the word without trailing punctuation), else a symbol of that
// exact name, else plain text (ok false). A word that looks like a path
// but names nothing is reported.
func (r *Resolver) classify(m Mention) (Mention, bool) {
	env := r.Agent.Env
	for _, w := range []string{m.Path, strings.TrimRight(m.Path, trailing)} {
		if w == "" || env == nil || env.Roots == nil {
			continue
		}
		abs, _, _, err := env.Roots.Resolve(w)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
			m.Kind, m.Path, m.Name = KindFile, w, ""
			return m, true
		}
	}
	for _, w := range []string{m.Name, strings.TrimRight(m.Name, trailing)} {
		if identRE.MatchString(w) && r.symbolExists(w) {
			m.Kind, m.Name, m.Path = KindSymbol, w, ""
			return m, true
		}
	}
	if strings.Contains(m.Path, "/") {
		m.Kind = KindFile
		return m, true // reported: no such file
	}
	return m, false
}

// label is what the user sees of m before it is expanded.
func label(m Mention) string {
	switch m.Kind {
	case KindFile:
		return m.Path
	case KindSymbol:
		return m.Name
	case KindDiagnostics:
		if p := diagnosticsFile(m); p != "" {
			return "diagnostics of " + baseName(p)
		}
		return "diagnostics"
	case KindURL:
		return m.URL
	}
	return string(m.Kind)
}

// diagnosticsFile is the file of a file-scoped diagnostics mention.
func diagnosticsFile(m Mention) string {
	if m.Scope == ScopeWorkspace || m.URI == "" {
		return ""
	}
	if strings.HasPrefix(m.URI, "file:") {
		return uri.URI(m.URI).FsPath()
	}
	return m.URI
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// cut shortens text to budget tokens at a line boundary, saying so.
func cut(text string, budget int, count func(string) int) string {
	if count(text) <= budget {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	lo, hi := 0, len(lines) // lines[:lo] fits
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if count(strings.Join(lines[:mid], "")) <= budget-20 {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return strings.Join(lines[:lo], "") + fmt.Sprintf("[... cut at %d tokens]\n", budget)
}
