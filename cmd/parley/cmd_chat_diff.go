package main

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/parleyhq/parley/tools"
	"github.com/parleyhq/parley/workspace"
)

// diffStyle says how renderDiff lays a diff out.
type diffStyle struct {
	color bool
	// perFile and total cap the diff lines shown (hunk headers count);
	// what is cut is counted in a "… N more lines" line.
	perFile, total int
	// shortPath shows an absolute path (relative to the root).
	shortPath func(abs string) string
}

// Diff sizes shown before an approval question: enough for a typical edit,
// little enough that the question stays on the screen.
const (
	diffLinesPerFile = 40
	diffLinesTotal   = 120
	// maxDiffLineRunes clips a long line (a minified file).
	maxDiffLineRunes = 240
	diffContext      = 3
)

// ANSI colours of the diff.
const (
	red   = "\x1b[31m"
	green = "\x1b[32m"
	cyan  = "\x1b[36m"
	bold  = "\x1b[1m"
)

// renderDiff shows changes as a unified diff: per file a header with the
// operation, the path(s) and +added/-removed line counts, then its hunks,
// truncated to the style's limits.
func renderDiff(changes []tools.FileChange, st diffStyle) string {
	var b strings.Builder
	budget := st.total
	for _, c := range changes {
		fd := diffOf(c)
		header := fileHeader(c, st.shortPath)
		if fd.binary != "" {
			header += "  " + fd.binary
		} else if fd.added+fd.removed > 0 {
			header += fmt.Sprintf("  +%d -%d", fd.added, fd.removed)
		}
		b.WriteString(st.paint(bold, header) + "\n")
		limit := min(st.perFile, budget)
		for i, l := range fd.lines {
			if i == limit {
				more := len(fd.lines) - i
				fmt.Fprintf(&b, "  … %d more %s\n", more, plural(more, "line"))
				break
			}
			b.WriteString(st.line(l) + "\n")
		}
		budget -= min(limit, len(fd.lines))
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// fileHeader names the operation and its path(s).
func fileHeader(c tools.FileChange, short func(string) string) string {
	switch c.Op {
	case tools.OpCreate:
		return "create " + short(c.Path)
	case tools.OpDelete:
		return "delete " + short(c.Path)
	case tools.OpRename:
		return "move " + short(c.Path) + " → " + short(c.NewPath)
	}
	return "modify " + short(c.Path)
}

// fileDiff is one change as diff lines ("@@ ...", "-x", "+y", " z").
type fileDiff struct {
	lines          []string
	added, removed int
	binary         string // set instead of lines for binary content
}

func diffOf(c tools.FileChange) fileDiff {
	var before, after []byte
	switch c.Op {
	case tools.OpCreate:
		after = c.New
	case tools.OpDelete:
		before = c.Old
	case tools.OpModify:
		before, after = c.Old, c.New
	case tools.OpRename:
		return fileDiff{} // the content moves unchanged
	}
	if workspace.IsBinary(before) || workspace.IsBinary(after) {
		return fileDiff{binary: fmt.Sprintf("(binary, %d → %d bytes)", len(before), len(after))}
	}
	var fd fileDiff
	for _, h := range hunks(string(before), string(after)) {
		from, to := 0, 0
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Delete:
				from++
				fd.removed++
			case udiff.Insert:
				to++
				fd.added++
			default:
				from++
				to++
			}
		}
		fd.lines = append(fd.lines, fmt.Sprintf("@@ -%s +%s @@", hunkRange(h.FromLine, from), hunkRange(h.ToLine, to)))
		for _, l := range h.Lines {
			prefix := " "
			switch l.Kind {
			case udiff.Delete:
				prefix = "-"
			case udiff.Insert:
				prefix = "+"
			}
			fd.lines = append(fd.lines, prefix+l.Content)
			if !strings.HasSuffix(l.Content, "\n") {
				fd.lines = append(fd.lines, `\ No newline at end of file`)
			}
		}
	}
	return fd
}

// hunkRange formats one side of a hunk header as diff(1) does: an empty
// side names the line before it.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// hunks diffs before and after line by line with go-udiff, the diff the
// language server's minimal edits use: its search is bounded, so a huge
// change costs time linear in the texts and comes out coarser, never
// quadratic.
func hunks(before, after string) []*udiff.Hunk {
	u, err := udiff.ToUnifiedDiff("", "", before, udiff.Lines(before, after), diffContext)
	if err != nil {
		// Edits computed from before always apply to it; should the
		// library fail anyway, show the whole replacement rather than
		// nothing.
		h := &udiff.Hunk{FromLine: 1, ToLine: 1}
		for _, l := range splitKeep(before) {
			h.Lines = append(h.Lines, udiff.Line{Kind: udiff.Delete, Content: l})
		}
		for _, l := range splitKeep(after) {
			h.Lines = append(h.Lines, udiff.Line{Kind: udiff.Insert, Content: l})
		}
		return []*udiff.Hunk{h}
	}
	return u.Hunks
}

// splitKeep splits text into lines that keep their "\n".
func splitKeep(text string) []string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// line renders one diff line, coloured by its kind, with control
// characters made visible (a file must not be able to drive the terminal
// that asks about it) and a long line clipped.
func (st diffStyle) line(l string) string {
	body := visible(strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r"))
	if utf8.RuneCountInString(body) > maxDiffLineRunes {
		body = string([]rune(body)[:maxDiffLineRunes-1]) + "…"
	}
	switch {
	case strings.HasPrefix(l, "@@"):
		return st.paint(cyan, body)
	case strings.HasPrefix(l, "-"):
		return st.paint(red, body)
	case strings.HasPrefix(l, "+"):
		return st.paint(green, body)
	}
	return body
}

func (st diffStyle) paint(color, s string) string {
	if !st.color {
		return s
	}
	return color + s + reset
}

// visible replaces control characters (C0 but tab, DEL, C1) with \xNN.
func visible(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return r != '\t' && unicode.IsControl(r) }
