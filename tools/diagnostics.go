package tools

// Diagnostics after edits: what language servers say about the files the
// agent changed. The edit tools call the session's Diagnostics around
// every applied change (applyChanges) and append what changed to their
// result, so the model sees a type error it just wrote before its next
// step; get_diagnostics asks on demand.

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/tokcount"
	"github.com/parleyhq/parley/tools/ledger"
)

// Diagnostic severities, as LSP numbers them (1 error ... 4 hint).
const (
	SeverityError   = 1
	SeverityWarning = 2
	SeverityInfo    = 3
	SeverityHint    = 4
)

// Diagnostic is one problem a language server reports.
type Diagnostic struct {
	Line     int // 1-based
	Column   int // 1-based, in the server's units
	Severity int // SeverityError ... SeverityHint; 0 counts as an error
	Source   string
	Code     string
	Message  string
}

func (d Diagnostic) severityName() string {
	switch d.Severity {
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "error"
}

// serious reports an error or a warning, what the model is told about.
func (d Diagnostic) serious() bool { return d.Severity <= SeverityWarning }

// diagKey identifies a diagnostic across an edit: lines shift when code
// above is inserted or removed, so they are not part of it.
type diagKey struct {
	severity        int
	source, message string
}

func (d Diagnostic) key() diagKey {
	return diagKey{severity: max(d.Severity, SeverityError), source: d.Source, message: d.Message}
}

// DiagnosticFile is a file to diagnose and the content the agent sees in
// it (a language server is told this content, not the disk's).
type DiagnosticFile struct {
	Path    string // absolute, resolved
	Root    string // the workspace root containing Path
	Content []byte
	// Edited says the agent has just changed the file to Content: a
	// source that cannot tell which content its diagnostics answer (the
	// editor) waits for them to change; otherwise what it has is current.
	Edited bool
}

// FileDiagnostics is what a source knows of one file.
type FileDiagnostics struct {
	Path  string
	Diags []Diagnostic
	// Server names who reported them ("gopls", "the editor").
	Server string
	// Unsupported: no language server covers this file; nothing to say.
	Unsupported bool
	// Settled is false when the server had not finished with this
	// content within the timeout: Diags is what it had published by then.
	Settled bool
	// Problem says why there are no diagnostics (the server failed to
	// start, crashed); empty otherwise.
	Problem string
}

// DiagnosticSource asks language servers about files: parley's own LSP
// client in the terminal, the editor in the language server. It waits
// (bounded by its own timeout and ctx) until the servers have analysed
// the given content, and never fails: a problem is reported per file.
// Implementations must be safe for concurrent use.
type DiagnosticSource interface {
	Diagnose(ctx context.Context, files []DiagnosticFile) []FileDiagnostics
	// Forget tells the servers that the agent deleted or moved away the
	// files at paths, so they stop analysing their old content.
	Forget(ctx context.Context, paths []string)
	// Timeout is the bound on one wait, for messages.
	Timeout() time.Duration
}

// Token budgets of the reports.
const (
	editDiagnosticsTokens = 600
	getDiagnosticsTokens  = 3000
)

// Diagnostics is a session's use of a DiagnosticSource: it remembers the
// files the agent changed in each turn (get_diagnostics with no path) and
// reports what an edit changed. Safe for concurrent use.
type Diagnostics struct {
	Source DiagnosticSource
	// Count counts tokens for the reports' budgets (nil: o200k_base).
	Count func(string) int

	mu      sync.Mutex
	turn    int
	touched []string
}

// NewDiagnostics returns a session's Diagnostics over src (nil src: nil,
// so the edit tools skip diagnostics).
func NewDiagnostics(src DiagnosticSource) *Diagnostics {
	if src == nil {
		return nil
	}
	return &Diagnostics{Source: src}
}

func (d *Diagnostics) count(s string) int {
	if d.Count != nil {
		return d.Count(s)
	}
	return countO200k()(s)
}

// countO200k is built on first use: building a tokenizer at package
// initialisation would slow every command's start.
var countO200k = sync.OnceValue(func() func(string) int { return tokcount.For("") })

// touch records paths as changed in the turn of ctx.
func (d *Diagnostics) touch(ctx context.Context, paths []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t := ledger.TurnOf(ctx); t != d.turn {
		d.turn, d.touched = t, nil
	}
	for _, p := range paths {
		if !slices.Contains(d.touched, p) {
			d.touched = append(d.touched, p)
		}
	}
}

// Touched lists the files changed in the turn of ctx, in order.
func (d *Diagnostics) Touched(ctx context.Context) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if ledger.TurnOf(ctx) != d.turn {
		return nil
	}
	return slices.Clone(d.touched)
}

// beforeEdit returns the diagnostics of the files changes modify, as they
// are before the change: the baseline the report after it is a diff
// against. Created files have none.
func (d *Diagnostics) beforeEdit(ctx context.Context, env *Env, changes []FileChange) map[string][]Diagnostic {
	var files []DiagnosticFile
	for _, c := range changes {
		if c.Op == OpModify {
			files = append(files, DiagnosticFile{Path: c.Path, Root: rootOf(env, c.Path), Content: c.Old})
		}
	}
	out := map[string][]Diagnostic{}
	if len(files) == 0 {
		return out
	}
	for _, fd := range d.Source.Diagnose(ctx, files) {
		out[fd.Path] = fd.Diags
	}
	return out
}

// afterEdit diagnoses what changes left and reports what is new since
// before, for the model ("" when no file has a language server).
func (d *Diagnostics) afterEdit(ctx context.Context, env *Env, changes []FileChange, before map[string][]Diagnostic) string {
	var files []DiagnosticFile
	var paths, gone []string
	for _, c := range changes {
		if c.Op == OpDelete || c.Op == OpRename {
			gone = append(gone, c.Path)
		}
		switch c.Op {
		case OpModify, OpCreate:
			files = append(files, DiagnosticFile{Path: c.Path, Root: rootOf(env, c.Path), Content: c.New, Edited: true})
			paths = append(paths, c.Path)
		case OpRename:
			content := c.New
			if content == nil {
				content = c.Old
			}
			files = append(files, DiagnosticFile{Path: c.NewPath, Root: rootOf(env, c.NewPath), Content: content, Edited: true})
			paths = append(paths, c.NewPath)
		}
	}
	if len(gone) > 0 {
		d.Source.Forget(ctx, gone)
	}
	if len(files) == 0 {
		return ""
	}
	d.touch(ctx, paths)
	return d.renderDelta(env, d.Source.Diagnose(ctx, files), before)
}

// renderDelta writes the report of an edit: per file, the errors and
// warnings that are new (a diagnostic whose severity, source and message
// were there before is not, wherever its line moved) and how many went
// away, within editDiagnosticsTokens.
func (d *Diagnostics) renderDelta(env *Env, after []FileDiagnostics, before map[string][]Diagnostic) string {
	var b strings.Builder
	used := 0
	for _, fd := range after {
		if fd.Unsupported {
			continue
		}
		shown := displayPath(env, fd.Path)
		if fd.Problem != "" {
			fmt.Fprintf(&b, "%s: no diagnostics: %s\n", shown, fd.Problem)
			continue
		}
		added, gone := diffDiagnostics(before[fd.Path], fd.Diags)
		switch {
		case len(added) == 0 && gone == 0:
			fmt.Fprintf(&b, "%s: no new errors or warnings", shown)
		case len(added) == 0:
			fmt.Fprintf(&b, "%s: %s fixed, none new", shown, plural(gone, "problem"))
		default:
			fmt.Fprintf(&b, "%s: %s", shown, plural(len(added), "new problem"))
			if gone > 0 {
				fmt.Fprintf(&b, ", %d fixed", gone)
			}
		}
		b.WriteString(fromServer(fd))
		used = d.writeDiags(&b, shown, added, editDiagnosticsTokens, used)
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n\nDiagnostics after this edit:\n" + strings.TrimRight(b.String(), "\n")
}

// fromServer ends a file's heading line: who said so and whether it is
// complete.
func fromServer(fd FileDiagnostics) string {
	s := ""
	if fd.Server != "" {
		s = " (" + fd.Server + ")"
	}
	if !fd.Settled {
		s += "; the server had not finished analysing it, so this may be incomplete"
	}
	return s + "\n"
}

// writeDiags appends one line per diagnostic ("  path:line:col severity
// [source] message") while the budget lasts, then a count of the rest.
// It returns the tokens used so far.
func (d *Diagnostics) writeDiags(b *strings.Builder, shown string, diags []Diagnostic, budget, used int) int {
	for i, g := range diags {
		line := fmt.Sprintf("  %s:%d:%d %s", shown, g.Line, g.Column, g.severityName())
		if g.Source != "" {
			line += " [" + g.Source + "]"
		}
		line += " " + clipText(strings.ReplaceAll(g.Message, "\n", " "), 400) + "\n"
		n := d.count(line)
		if used+n > budget {
			fmt.Fprintf(b, "  … and %d more (get_diagnostics shows them)\n", len(diags)-i)
			return budget
		}
		used += n
		b.WriteString(line)
	}
	return used
}

// diffDiagnostics returns the errors and warnings of after that before
// did not have (as a multiset of keys, so a second copy of a message is
// new), and how many of before's are gone.
func diffDiagnostics(before, after []Diagnostic) (added []Diagnostic, gone int) {
	had := map[diagKey]int{}
	for _, g := range before {
		if g.serious() {
			had[g.key()]++
		}
	}
	for _, g := range sortedDiags(after) {
		if !g.serious() {
			continue
		}
		if k := g.key(); had[k] > 0 {
			had[k]--
			continue
		}
		added = append(added, g)
	}
	for _, n := range had {
		gone += n
	}
	return added, gone
}

// sortedDiags orders by severity, then position.
func sortedDiags(ds []Diagnostic) []Diagnostic {
	out := slices.Clone(ds)
	slices.SortStableFunc(out, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(max(a.Severity, 1), max(b.Severity, 1)), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	return out
}
