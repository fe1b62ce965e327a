package complete

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/nav"
)

// Next edits a chat model infers, for what the index cannot find (the
// matching change in a sibling branch, the next line of a pattern the
// user started): the model gets the user's recent edits as unified
// diffs, the references of the names the last edit touched, and an
// editable region around the cursor, and answers the region rewritten.
// Only when the configuration asks for it (completion.next_edit "model"):
// it costs a chat request per pause in editing.

// Ask sends one chat request and returns the answer's text.
type Ask func(ctx context.Context, system, user string, maxTokens int) (string, error)

// Bounds of the model's prompt and answer.
const (
	regionLines      = 12 // above and below the cursor's line
	maxPromptEdits   = 5
	maxPromptRefs    = 8
	nextEditTokens   = 1024
	cursorMarker     = "<|cursor|>"
	regionOpen       = "<region>"
	regionClose      = "</region>"
	noNextEditAnswer = "<none/>"
)

const nextEditSystem = `You predict the next edit a programmer makes, from the edits they just made. You get their recent edits as unified diffs (newest first), references elsewhere of the names the last edit touched, and an editable region of the file they are in, with ` + cursorMarker + ` at the cursor.
Answer with the whole editable region, rewritten with the next edit applied, between ` + regionOpen + ` and ` + regionClose + `, without the cursor marker, and nothing else. Change only what the recent edits clearly imply (the same change made elsewhere, the code an edit left unfinished); never undo a recent edit. If no edit is clearly implied, answer ` + noNextEditAnswer + ` only.`

// ModelNextEdit asks a chat model for the next edit in src at the
// cursor's line (0-based); recent are the user's edits, newest first.
func ModelNextEdit(ctx context.Context, src NextEditSource, recent []RecentEdit, cursorLine int, ask Ask) (Proposal, bool, error) {
	lines := strings.SplitAfter(string(src.Text), "\n")
	first, last := max(cursorLine-regionLines, 0), min(cursorLine+regionLines+1, len(lines))
	if first >= last {
		return Proposal{}, false, nil
	}
	region := strings.Join(lines[first:last], "")
	answer, err := ask(ctx, nextEditSystem, nextEditPrompt(src, recent, lines, first, last, cursorLine), nextEditTokens)
	if err != nil {
		return Proposal{}, false, err
	}
	rewritten, ok := regionOf(answer)
	if !ok {
		return Proposal{}, false, nil
	}
	if strings.HasSuffix(region, "\n") && !strings.HasSuffix(rewritten, "\n") {
		rewritten += "\n"
	}
	e, ok := regionEdit(src.Path, region, rewritten, first)
	if !ok {
		return Proposal{}, false, nil
	}
	if undoes(src.Last, region, rewritten) {
		return Proposal{}, false, nil
	}
	return Proposal{Edits: []Edit{e}, Why: "the next edit, as the model infers it from your recent edits"}, true, nil
}

func nextEditPrompt(src NextEditSource, recent []RecentEdit, lines []string, first, last, cursorLine int) string {
	var b strings.Builder
	b.WriteString("Recent edits:\n")
	for _, e := range recent[:min(len(recent), maxPromptEdits)] {
		b.WriteString(e.Diff())
	}
	if refs := touchedReferences(src); refs != "" {
		b.WriteString("\nReferences of the names the last edit touched:\n" + refs)
	}
	fmt.Fprintf(&b, "\nEditable region of %s (lines %d-%d):\n%s\n", src.Path, first+1, last, regionOpen)
	for i := first; i < last; i++ {
		if i == cursorLine {
			b.WriteString(cursorMarker)
		}
		b.WriteString(lines[i])
	}
	b.WriteString(regionClose + "\n")
	return b.String()
}

// touchedReferences lists, for the identifiers of the last edit's new
// text, the lines of other files that refer to them (as the index
// resolves the references), a few at most.
func touchedReferences(src NextEditSource) string {
	if src.Store == nil || src.Read == nil {
		return ""
	}
	var b strings.Builder
	n := 0
	seen := map[string]bool{}
	lines := strings.SplitAfter(string(src.Text), "\n")
	for _, m := range wordRE.FindAllStringIndex(src.Last.After, -1) {
		name := src.Last.After[m[0]:m[1]]
		if seen[name] || keywords[name] || len(name) < 3 || n >= maxPromptRefs {
			continue
		}
		seen[name] = true
		off := lineStart(lines, src.Last.StartLine-1) + m[0]
		hits, _, err := nav.ReferencesAt(src.Store, src.Path, src.Text, off, name, maxPromptRefs, src.Read)
		if err != nil {
			continue
		}
		for _, h := range hits {
			if h.Path == src.Path || h.Decl || n >= maxPromptRefs {
				continue
			}
			text, err := src.Read(h.Path)
			if err != nil {
				continue
			}
			fmt.Fprintf(&b, "%s:%d: %s\n", h.Path, h.Pos.Line+1, strings.TrimSpace(nthLine(string(text), int(h.Pos.Line))))
			n++
		}
	}
	return b.String()
}

func lineStart(lines []string, n int) int {
	off := 0
	for _, l := range lines[:min(n, len(lines))] {
		off += len(l)
	}
	return off
}

func nthLine(text string, n int) string {
	lines := strings.Split(text, "\n")
	if n < 0 || n >= len(lines) {
		return ""
	}
	return lines[n]
}

// regionOf takes the rewritten region out of the model's answer.
func regionOf(answer string) (string, bool) {
	if strings.Contains(answer, noNextEditAnswer) {
		return "", false
	}
	_, after, ok := strings.Cut(answer, regionOpen)
	if !ok {
		return "", false
	}
	body, _, ok := strings.Cut(after, regionClose)
	if !ok {
		return "", false
	}
	body = strings.TrimPrefix(body, "\n")
	return strings.ReplaceAll(body, cursorMarker, ""), true
}

// regionEdit is the edit that turns region (starting at line first) into
// rewritten: the lines between their common first and last lines.
func regionEdit(path, region, rewritten string, first int) (Edit, bool) {
	a, b := strings.SplitAfter(region, "\n"), strings.SplitAfter(rewritten, "\n")
	if slices.Equal(a, b) {
		return Edit{}, false
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	start, end := first+p, first+len(a)-s
	return Edit{Path: path, Start: extract.Pos{Line: uint32(start)}, End: extract.Pos{Line: uint32(end)}, NewText: strings.Join(b[p:len(b)-s], "")}, true
}

// undoes reports whether rewriting region gives the last edit's lines
// back what they held: the rewritten region has the old text and no
// longer the new one.
func undoes(last RecentEdit, region, rewritten string) bool {
	if strings.TrimSpace(last.After) == "" || !strings.Contains(region, last.After) {
		return false
	}
	return !strings.Contains(rewritten, last.After) && (last.Before == "" || strings.Contains(rewritten, last.Before))
}
