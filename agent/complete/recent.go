package complete

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/parleyhq/parley/agent/complete/fim"
)

// RecentEdit is one range the user changed lately: its file, its lines
// after the change (1-based, inclusive), the text they hold now and what
// they held before.
type RecentEdit struct {
	Path               string
	StartLine, EndLine int
	Before, After      string
	At                 time.Time
}

// Diff renders e as a unified-diff hunk.
func (e RecentEdit) Diff() string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n@@ -%d +%d @@\n", e.Path, e.Path, e.StartLine, e.StartLine)
	for _, l := range splitLines(e.Before) {
		b.WriteString("-" + l + "\n")
	}
	for _, l := range splitLines(e.After) {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// Ring bounds of the edit ring: how many edits, and how old.
const (
	ringSize = 32
	ringAge  = 10 * time.Minute
)

// EditRing keeps a workspace's recent edits, newest first: an edit that
// continues the newest one (the same lines, typed a keystroke at a time)
// replaces it rather than pushing another. Safe for concurrent use.
type EditRing struct {
	mu    sync.Mutex
	edits []RecentEdit
	now   func() time.Time
}

// NewEditRing returns an empty ring.
func NewEditRing() *EditRing { return &EditRing{now: time.Now} }

// Record notes that path's content went from before to after. Only the
// lines that differ are kept (with the text they replaced).
func (r *EditRing) Record(path string, before, after []byte) {
	e, ok := changedLines(path, before, after)
	if !ok {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	e.At = r.now()
	if len(r.edits) > 0 {
		top := &r.edits[0]
		if top.Path == e.Path && e.StartLine <= top.EndLine+1 && e.EndLine+1 >= top.StartLine && e.At.Sub(top.At) < time.Minute {
			// The same place, still being typed: one edit from the
			// first state to this one.
			merged, ok := mergeEdits(*top, e)
			if ok {
				*top = merged
				return
			}
		}
	}
	r.edits = slices.Insert(r.edits, 0, e)
	if len(r.edits) > ringSize {
		r.edits = r.edits[:ringSize]
	}
}

// mergeEdits joins a newer edit of the same lines to an older one when the
// newer lies within the lines the older produced.
func mergeEdits(old, e RecentEdit) (RecentEdit, bool) {
	if e.StartLine < old.StartLine || e.EndLine > old.EndLine+(len(splitLines(e.After))-len(splitLines(e.Before))) {
		return old, false
	}
	lines := splitLines(old.After)
	i, j := e.StartLine-old.StartLine, e.StartLine-old.StartLine+len(splitLines(e.Before))
	if i < 0 || j > len(lines) {
		return old, false
	}
	after := slices.Concat(lines[:i], splitLines(e.After), lines[j:])
	old.After = strings.Join(after, "\n")
	if len(after) > 0 {
		old.After += "\n"
	}
	old.EndLine = old.StartLine + max(len(after), 1) - 1
	old.At = e.At
	return old, true
}

// Recent returns the edits younger than the ring's age, newest first.
func (r *EditRing) Recent() []RecentEdit {
	r.mu.Lock()
	defer r.mu.Unlock()
	cut := r.now().Add(-ringAge)
	var out []RecentEdit
	for _, e := range r.edits {
		if e.At.After(cut) {
			out = append(out, e)
		}
	}
	return out
}

// changedLines finds the whole lines that differ between before and
// after (the common leading and trailing lines dropped). It compares
// bytes and counts newlines, no more: it runs at every keystroke.
func changedLines(path string, before, after []byte) (RecentEdit, bool) {
	if bytes.Equal(before, after) {
		return RecentEdit{}, false
	}
	p := 0
	for p < len(before) && p < len(after) && before[p] == after[p] {
		p++
	}
	p = bytes.LastIndexByte(before[:p], '\n') + 1 // back to a line start
	s := 0
	for s < len(before)-p && s < len(after)-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	// The common tail must start a line in both texts (or at p).
	lineStart := func(b []byte, i int) bool { return i == p || b[i-1] == '\n' }
	for s > 0 && !(lineStart(before, len(before)-s) && lineStart(after, len(after)-s)) {
		s--
	}
	old, cur := before[p:len(before)-s], after[p:len(after)-s]
	start := bytes.Count(before[:p], []byte{'\n'}) + 1
	return RecentEdit{Path: path, StartLine: start, EndLine: start + max(bytes.Count(cur, []byte{'\n'}), 1) - 1,
		Before: string(old), After: string(cur)}, true
}

// recentEdits adds the user's recent edits that the prefix and suffix do
// not already show, newest first, as the lines they produced.
func recentEdits(src Source, c *snippets) {
	curStart, curEnd := windowLines(src)
	for _, e := range src.Recent {
		if c.full() {
			return
		}
		if e.Path == src.Path && e.StartLine <= curEnd && e.EndLine >= curStart {
			continue // in view already
		}
		if strings.TrimSpace(e.After) == "" {
			continue
		}
		c.add(fim.Snippet{Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Text: e.After, Why: "recently edited"})
	}
}

// windowLines is the range of src's lines the prefix and suffix can show
// (1-based), wide enough not to repeat what the model sees anyway.
func windowLines(src Source) (int, int) {
	line := strings.Count(string(src.Text[:min(max(src.Offset, 0), len(src.Text))]), "\n") + 1
	return max(line-60, 1), line + 20
}
