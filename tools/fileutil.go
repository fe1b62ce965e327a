package tools

// Helpers shared by the file, search and index tools: resolving and reading
// model-supplied paths, applying edits through the Editor, and numbering
// lines within a token budget.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"

	"github.com/parleyhq/parley/tools/ledger"
	"github.com/parleyhq/parley/workspace"
)

// resolveArg checks a model-supplied path. A rejected path is a model
// mistake, reported as an error result.
func resolveArg(env *Env, p string) (abs, rel string, res *Result) {
	if env == nil || env.Roots == nil {
		return "", "", Errorf("no workspace roots are configured")
	}
	if strings.TrimSpace(p) == "" {
		return "", "", Errorf("path is empty")
	}
	abs, rel, err := env.Resolve(p)
	if err != nil {
		return "", "", Errorf("%v", err)
	}
	return abs, rel, nil
}

// clipText cuts s to n bytes for a summary or message, marking the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// rootOf returns the canonical root containing the resolved path abs.
func rootOf(env *Env, abs string) string {
	root, _, _ := env.Roots.Rel(abs)
	return root
}

// displayPath names abs for the model: root-relative for the primary root
// (which is where relative paths resolve first), absolute for other roots.
func displayPath(env *Env, abs string) string {
	root, rel, ok := env.Roots.Rel(abs)
	if !ok {
		return abs
	}
	return displayRel(env, root, rel)
}

// displayRel is displayPath for a root and a slash-separated relative path.
func displayRel(env *Env, root, rel string) string {
	if paths := env.Roots.Paths(); len(paths) > 0 && root == paths[0] {
		return rel
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}

// readText reads a text file through env.Files (so unsaved editor buffers
// are seen). Every failure is reported as a result for the model.
func readText(env *Env, abs, shown string) (content []byte, version int32, res *Result) {
	if env.Files == nil {
		return nil, 0, Errorf("file access is unavailable in this session")
	}
	content, version, err := env.Files.Read(abs)
	if err != nil {
		return nil, 0, readFailure(shown, err)
	}
	if len(content) > MaxFileSize {
		return nil, 0, Errorf("%s is %d bytes, above the %d MiB limit; use grep to find what you need", shown, len(content), MaxFileSize>>20)
	}
	if workspace.IsBinary(content) {
		return nil, 0, Errorf("%s is a binary file (%d bytes); it cannot be shown or edited as text", shown, len(content))
	}
	return content, version, nil
}

// readFailure turns a FileView error into a model-facing result. Every
// error on a model-supplied path is something the model can act on (a
// wrong name, a directory, a file too big), so none of them stop the turn.
func readFailure(shown string, err error) *Result {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return Errorf("%s does not exist", shown)
	case errors.Is(err, ErrIsDirectory):
		return Errorf("%s is a directory; use list_dir to see its entries", shown)
	case errors.Is(err, ErrFileTooLarge):
		return Errorf("%s is above the %d MiB size limit; use grep to find what you need", shown, MaxFileSize>>20)
	case errors.Is(err, ErrNotRegular):
		return Errorf("%s is not a regular file", shown)
	case errors.Is(err, fs.ErrPermission):
		return Errorf("%s cannot be read: permission denied", shown)
	}
	return Errorf("%s cannot be read: %v", shown, err)
}

// applyChanges hands changes to the Editor. A refusal (the user said no,
// or the file moved on) is a model-facing outcome; success returns a
// result with msg and the changes, followed by what the edit changed in
// the files' diagnostics when the session has Diagnostics.
func applyChanges(ctx context.Context, env *Env, label string, changes []FileChange, msg string) (*Result, error) {
	if env.Editor == nil {
		return Errorf("editing is unavailable in this session"), nil
	}
	var before map[string][]Diagnostic
	if env.Diagnostics != nil {
		// The baseline must be taken before the editor changes the buffer.
		before = env.Diagnostics.beforeEdit(ctx, env, changes)
	}
	ar, err := env.Editor.Apply(ctx, label, changes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	if !ar.Applied {
		reason := ar.Reason
		if reason == "" {
			reason = "the edit was rejected"
		}
		return Errorf("not applied: %s", reason), nil
	}
	if err := ledgerEdited(env.Ledger, changes, ledger.TurnOf(ctx)); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	if env.Diagnostics != nil {
		msg += env.Diagnostics.afterEdit(ctx, env, changes, before)
	}
	return &Result{Content: msg, Changes: changes}, nil
}

// ledgerEdited tells the session's ledger (if any) what applied changes
// did, so that a re-read of an edited file gets a certificate.
func ledgerEdited(l *ledger.Ledger, changes []FileChange, turn int) error {
	if l == nil {
		return nil
	}
	for _, c := range changes {
		var err error
		switch c.Op {
		case OpModify, OpCreate:
			err = l.Edited(c.Path, c.Old, c.New, turn)
		case OpDelete:
			err = l.Removed(c.Path, turn)
		case OpRename:
			err = errors.Join(l.Removed(c.Path, turn), l.Removed(c.NewPath, turn))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// splitLines splits text into lines without their terminators ("\n" or
// "\r\n"); a final newline does not start another line.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	text = strings.TrimSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// tokenEncoding is the BPE vocabulary used for budgets. No provider
// publishes Claude's tokenizer; cl100k_base is within a few percent of it
// for code and exact for the GPT-4 family.
const tokenEncoding = tokenizer.Cl100kBase

var tokenCodec = sync.OnceValues(func() (tokenizer.Codec, error) {
	return tokenizer.Get(tokenEncoding)
})

// countTokens counts s in tokenEncoding.
func countTokens(s string) (int, error) {
	c, err := tokenCodec()
	if err != nil {
		return 0, fmt.Errorf("tokenizer %s: %w", tokenEncoding, err)
	}
	return c.Count(s)
}

// prefixTokens returns the longest prefix of s that is at most n tokens.
func prefixTokens(s string, n int) (string, error) {
	c, err := tokenCodec()
	if err != nil {
		return "", fmt.Errorf("tokenizer %s: %w", tokenEncoding, err)
	}
	_, toks, err := c.Encode(s)
	if err != nil {
		return "", err
	}
	if len(toks) <= n {
		return s, nil
	}
	return strings.Join(toks[:n], ""), nil
}

// numbered is a block of numbered lines cut to a token budget.
type numbered struct {
	text      string
	shown     int  // lines shown in full
	cut       bool // the last line shown was cut to fit
	truncated bool // shown < len(lines) or cut
}

// numberLines renders lines numbered from first (1-based) as
// "<n>\t<text>", stopping at the line boundary before the budget (in
// tokens) would be exceeded. If even the first line does not fit, its
// prefix that does is shown and cut is set.
func numberLines(lines []string, first, budget int) (numbered, error) {
	width := len(strconv.Itoa(first + len(lines) - 1))
	var b strings.Builder
	total := 0
	for _, l := range lines {
		total += len(l) + width + 2
	}
	// Every token covers at least one byte, so a text of at most budget
	// bytes is within budget and needs no counting.
	exact := total > budget
	used := 0
	for i, l := range lines {
		line := fmt.Sprintf("%*d\t%s\n", width, first+i, l)
		if exact {
			n, err := countTokens(line)
			if err != nil {
				return numbered{}, err
			}
			if used+n > budget {
				if i == 0 {
					cut, err := prefixTokens(line, budget)
					if err != nil {
						return numbered{}, err
					}
					return numbered{text: strings.TrimSuffix(cut, "\n") + "\n", cut: true, truncated: true}, nil
				}
				return numbered{text: b.String(), shown: i, truncated: true}, nil
			}
			used += n
		}
		b.WriteString(line)
	}
	return numbered{text: b.String(), shown: len(lines)}, nil
}

// readForEdit resolves a model-given path and reads the text an edit tool
// will change: its absolute path, the path shown to the model, the content
// and its version (for the Editor's stale check). res is the model-facing
// refusal when any step fails.
func readForEdit(env *Env, path string) (abs, shown string, content []byte, version int32, res *Result) {
	abs, _, res = resolveArg(env, path)
	if res != nil {
		return "", "", nil, 0, res
	}
	shown = displayPath(env, abs)
	content, version, res = readText(env, abs, shown)
	return abs, shown, content, version, res
}
