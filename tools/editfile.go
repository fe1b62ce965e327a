package tools

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/agent/access"
	"github.com/parleyhq/parley/tools/ledger"
)

//go:embed desc/edit_file.md
var editFileDesc string

type editFileParams struct {
	Path       string `json:"path" jsonschema:"description=File to edit: relative to the workspace root, or absolute inside it."`
	OldString  string `json:"old_string" jsonschema:"description=Exact text to replace, including whitespace and indentation. It must occur exactly once unless replace_all is set."`
	NewString  string `json:"new_string" jsonschema:"description=Text to put in its place (may be empty to delete)."`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"description=Replace every occurrence instead of requiring exactly one."`
}

// editFileTool replaces an exact string in a file.
var editFileTool = New(
	Spec{Name: "edit_file", Description: editFileDesc},
	editFileAccess, editFileRun)

func editFileAccess(env *Env, p *editFileParams) (access.Access, error) {
	return pathAccess(env, access.Edit, p.Path, "edit")
}

func editFileRun(ctx context.Context, env *Env, p *editFileParams) (*Result, error) {
	abs, shown, content, version, res := readForEdit(env, p.Path)
	if res != nil {
		return res, nil
	}
	out, n, firstLine, msg := replaceText(string(content), p.OldString, p.NewString, p.ReplaceAll)
	if msg != "" {
		return Errorf("%s: %s", shown, msg), nil
	}
	if res := refuseElided(env, abs, shown, content, p.OldString); res != nil {
		return res, nil
	}
	change := FileChange{Op: OpModify, Path: abs, Old: content, Version: version, New: []byte(out)}
	summary := fmt.Sprintf("Edited %s: replaced %s starting at line %d.\n%s", shown, plural(n, "occurrence"), firstLine, snippet(out, firstLine, ledger.CountLines([]byte(p.NewString))))
	return applyChanges(ctx, env, "edit "+shown, []FileChange{change}, summary)
}

// replaceText replaces old with new in content. It returns the new text,
// the number of replacements and the 1-based line of the first; msg is
// non-empty when the edit cannot be made and says why.
func replaceText(content, old, new string, all bool) (out string, n, firstLine int, msg string) {
	switch {
	case old == "":
		return "", 0, 0, "old_string is empty; to create a file use write_file, to add lines use file_delta"
	case old == new:
		return "", 0, 0, "old_string and new_string are identical; nothing would change"
	}
	n = strings.Count(content, old)
	if n == 0 && strings.Contains(content, "\r\n") && strings.Contains(old, "\n") && !strings.Contains(old, "\r\n") {
		// The file uses CRLF line endings; the model almost always sends LF.
		old = strings.ReplaceAll(old, "\n", "\r\n")
		new = strings.ReplaceAll(strings.ReplaceAll(new, "\r\n", "\n"), "\n", "\r\n")
		n = strings.Count(content, old)
	}
	switch {
	case n == 0:
		return "", 0, 0, noMatch(content, old)
	case n > 1 && !all:
		return "", 0, 0, fmt.Sprintf("old_string matches %d times (at lines %s); include more surrounding context to make it unique, or set replace_all to replace every occurrence", n, matchLines(content, old, 10))
	}
	firstLine = strings.Count(content[:strings.Index(content, old)], "\n") + 1
	if all {
		return strings.ReplaceAll(content, old, new), n, firstLine, ""
	}
	return strings.Replace(content, old, new, 1), 1, firstLine, ""
}

// noMatch explains a failed match, pointing out near misses.
func noMatch(content, old string) string {
	msg := "old_string not found"
	if strings.Contains(collapseSpace(content), collapseSpace(old)) {
		return msg + "; it does match if whitespace is ignored, so check indentation (tabs versus spaces) and line breaks against read_file's output (without the line-number prefix)"
	}
	return msg + "; read the file again and copy the exact text (without the line-number prefix)"
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// matchLines lists the 1-based lines where old starts, at most limit.
func matchLines(content, old string, limit int) string {
	var lines []string
	line, from := 1, 0
	for len(lines) < limit {
		i := strings.Index(content[from:], old)
		if i < 0 {
			break
		}
		line += strings.Count(content[from:from+i], "\n")
		lines = append(lines, fmt.Sprint(line))
		line += strings.Count(old, "\n")
		from += i + len(old)
	}
	if strings.Count(content, old) > limit {
		lines = append(lines, "...")
	}
	return strings.Join(lines, ", ")
}

// snippet shows the changed region (from line, n lines long) with two
// lines of context, numbered, at most 20 lines.
func snippet(text string, line, n int) string {
	lines := splitLines(text)
	from := max(line-3, 0)
	to := min(line-1+max(n, 1)+2, len(lines), from+20)
	if from >= to {
		return ""
	}
	out, err := numberLines(lines[from:to], from+1, 1<<30)
	if err != nil {
		return ""
	}
	return out.text
}

// plural formats a count with a regular English noun ("2 entries").
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if stem, ok := strings.CutSuffix(what, "y"); ok && !strings.HasSuffix(stem, "e") {
		return fmt.Sprintf("%d %sies", n, stem)
	}
	return fmt.Sprintf("%d %ss", n, what)
}
