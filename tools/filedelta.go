package tools

import (
	"cmp"
	"context"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/tools/ledger"
)

//go:embed desc/file_delta.md
var fileDeltaDesc string

type fileDeltaParams struct {
	Path       string    `json:"path" jsonschema:"description=File to change: relative to the workspace root, or absolute inside it."`
	Operations []deltaOp `json:"operations" jsonschema:"description=Line operations. All line numbers refer to the file as it is before this call; operations may come in any order but must not overlap."`
}

type deltaOp struct {
	Op      string  `json:"op" jsonschema:"enum=insert|delete|replace,description=insert: add content before line. delete: remove lines line..end_line. replace: replace lines line..end_line with content."`
	Line    int     `json:"line" jsonschema:"minimum=1,description=1-based line number. For insert, the line to insert before; use the line count + 1 to append."`
	EndLine int     `json:"end_line,omitempty" jsonschema:"minimum=1,description=Last line (inclusive) for delete and replace; defaults to line."`
	Content *string `json:"content,omitempty" jsonschema:"description=New lines for insert and replace (one trailing newline is ignored)."`
}

// fileDeltaTool applies line-numbered insert/delete/replace operations.
var fileDeltaTool = New(
	Spec{Name: "file_delta", Description: fileDeltaDesc},
	fileDeltaAccess, fileDeltaRun)

func fileDeltaAccess(env *Env, p *fileDeltaParams) (access.Access, error) {
	return pathAccess(env, access.Edit, p.Path, "edit")
}

func fileDeltaRun(ctx context.Context, env *Env, p *fileDeltaParams) (*Result, error) {
	if len(p.Operations) == 0 {
		return Errorf("operations is empty; nothing to do"), nil
	}
	abs, shown, content, version, res := readForEdit(env, p.Path)
	if res != nil {
		return res, nil
	}
	out, added, removed, msg := applyDelta(string(content), p.Operations)
	if msg != "" {
		return Errorf("%s: %s. No operations were applied.", shown, msg), nil
	}
	if out == string(content) {
		return &Result{Content: fmt.Sprintf("%s: the operations leave the file unchanged.", shown)}, nil
	}
	change := FileChange{Op: OpModify, Path: abs, Old: content, Version: version, New: []byte(out)}
	summary := fmt.Sprintf("Applied %s to %s: +%d -%d lines (now %d lines).", plural(len(p.Operations), "operation"), shown, added, removed, ledger.CountLines(change.New))
	return applyChanges(ctx, env, "edit "+shown, []FileChange{change}, summary)
}

// splice replaces original lines [from, to) (0-based) with lines.
type splice struct {
	idx      int // position in the request, for messages and stable order
	from, to int
	lines    []string
}

// applyDelta validates ops against content and applies them. Every op is
// first turned into a splice on the original numbering; the splices are
// sorted and must not overlap, then the result is built in one forward
// pass, which is equivalent to applying them bottom-up.
func applyDelta(content string, ops []deltaOp) (out string, added, removed int, msg string) {
	lines := splitLines(content)
	splices := make([]splice, 0, len(ops))
	for i, op := range ops {
		s, msg := toSplice(i, op, len(lines))
		if msg != "" {
			return "", 0, 0, fmt.Sprintf("operation %d (%s at line %d): %s", i+1, op.Op, op.Line, msg)
		}
		splices = append(splices, s)
	}
	// Inserts at a position go before a range starting there; otherwise the
	// request order decides.
	slices.SortStableFunc(splices, func(a, b splice) int {
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to))
	})
	var result []string
	cursor := 0
	for k, s := range splices {
		if s.from < cursor {
			prev := splices[k-1]
			return "", 0, 0, fmt.Sprintf("operations %d and %d overlap (%s and %s)", prev.idx+1, s.idx+1, prev.where(), s.where())
		}
		result = append(result, lines[cursor:s.from]...)
		result = append(result, s.lines...)
		added += len(s.lines)
		removed += s.to - s.from
		cursor = s.to
	}
	result = append(result, lines[cursor:]...)
	return joinLines(result, content), added, removed, ""
}

func (s splice) where() string {
	switch {
	case s.from == s.to:
		return fmt.Sprintf("insert before line %d", s.from+1)
	case s.to == s.from+1:
		return fmt.Sprintf("line %d", s.to)
	}
	return fmt.Sprintf("lines %d-%d", s.from+1, s.to)
}

func toSplice(i int, op deltaOp, n int) (splice, string) {
	s := splice{idx: i}
	end := op.EndLine
	if end == 0 {
		end = op.Line
	}
	switch op.Op {
	case "insert":
		if op.EndLine != 0 {
			return s, "end_line does not apply to insert"
		}
		if op.Line > n+1 {
			return s, fmt.Sprintf("line must be between 1 and %d (the file has %d lines; %d appends)", n+1, n, n+1)
		}
		s.from, s.to = op.Line-1, op.Line-1
	case "delete", "replace":
		if op.Line > n {
			return s, fmt.Sprintf("line is past the end of the file (%d lines)", n)
		}
		if end < op.Line || end > n {
			return s, fmt.Sprintf("end_line must be between %d and %d", op.Line, n)
		}
		s.from, s.to = op.Line-1, end
	default:
		return s, "op must be insert, delete or replace"
	}
	switch {
	case op.Op == "delete" && op.Content != nil:
		return s, "content does not apply to delete"
	case op.Op != "delete" && op.Content == nil:
		return s, "content is required"
	case op.Content != nil:
		s.lines = splitContent(*op.Content)
	}
	return s, ""
}

// splitContent splits inserted text into lines: one trailing newline is
// dropped, and an empty string is one empty line.
func splitContent(c string) []string {
	c = strings.TrimSuffix(strings.TrimSuffix(c, "\n"), "\r")
	lines := strings.Split(c, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// joinLines joins lines with the original's line ending, keeping (or, for
// a file that was empty, adding) a final newline.
func joinLines(lines []string, original string) string {
	if len(lines) == 0 {
		return ""
	}
	eol := "\n"
	if i := strings.IndexByte(original, '\n'); i > 0 && original[i-1] == '\r' {
		eol = "\r\n"
	}
	out := strings.Join(lines, eol)
	if original == "" || strings.HasSuffix(original, "\n") {
		out += eol
	}
	return out
}
