package ledger

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// DiffGate decides when a diff replaces the file: it must have at most
// MaxHunks hunks, change at most MaxChanged of the lines (deleted plus
// inserted over the larger version) and be shorter than the new file.
// A diff scattered over the whole file costs the model more effort to
// apply in its head than reading the file again.
type DiffGate struct {
	MaxHunks   int
	MaxChanged float64
	Context    int // lines of context around each hunk
}

// DefaultGate is the gate a new Ledger uses.
var DefaultGate = DiffGate{MaxHunks: 8, MaxChanged: 0.4, Context: 2}

// diff returns the unified diff from old to new and whether it passes.
func (g DiffGate) diff(shown string, old, new []byte) (string, bool) {
	o, n := string(old), string(new)
	u, err := udiff.ToUnifiedDiff("a/"+shown, "b/"+shown, o, udiff.Lines(o, n), g.Context)
	if err != nil || len(u.Hunks) == 0 || len(u.Hunks) > g.MaxHunks {
		return "", false
	}
	changed := 0
	for _, h := range u.Hunks {
		for _, l := range h.Lines {
			if l.Kind != udiff.Equal {
				changed++
			}
		}
	}
	if float64(changed) > g.MaxChanged*float64(max(CountLines(old), CountLines(new))) {
		return "", false
	}
	d := u.String()
	if !strings.HasSuffix(d, "\n") {
		d += "\n"
	}
	return d, len(d) < len(new)
}

// changedRanges lists the lines of new that differ from old, in new's
// numbering; a pure deletion is an empty range at the line after it.
func changedRanges(old, new []byte) []Range {
	o, n := string(old), string(new)
	u, err := udiff.ToUnifiedDiff("", "", o, udiff.Lines(o, n), 0)
	if err != nil {
		return nil
	}
	out := []Range{}
	for _, h := range u.Hunks {
		ins := 0
		for _, l := range h.Lines {
			if l.Kind == udiff.Insert {
				ins++
			}
		}
		out = append(out, Range{h.ToLine, h.ToLine + ins - 1})
	}
	return out
}

// since names how and when the model got f: "your read at turn 3",
// "your edit at turn 4"; turn 0 (reads outside a conversation, by parley
// read) has no number.
func since(f *file) string {
	s := "your read"
	if f.fromEdit {
		s = "your edit"
	}
	if f.turn > 0 {
		s += fmt.Sprintf(" at turn %d", f.turn)
	}
	return s
}

// The stubs stay short (a session re-reads the same files many times):
// read_file's description says once what they mean and that full: true,
// a line range or get_symbol show the text.
func stub(r Request, f *file, whole bool) string {
	if whole {
		return fmt.Sprintf("[%s unchanged since %s (lines 1–%d); full: true shows it]\n", r.Shown, since(f), f.lines)
	}
	return fmt.Sprintf("[%s lines %d–%d unchanged since %s; full: true shows them]\n", r.Shown, r.Start, r.End, since(f))
}

func outlineStub(r Request, f *file) string {
	return fmt.Sprintf("[%s unchanged since %s (%d lines); full: true shows it]\n", r.Shown, strings.Replace(since(f), "your read", "your outline read", 1), f.lines)
}

// mapSeen carries the seen ranges of old over to new through the line
// diff: unchanged lines keep their state, inserted lines are seen (the
// edit wrote them), deleted lines go.
func mapSeen(seen []Range, old, new []byte) []Range {
	o, n := string(old), string(new)
	u, err := udiff.ToUnifiedDiff("", "", o, udiff.Lines(o, n), CountLines(old)+CountLines(new))
	if err != nil {
		return nil
	}
	var out []Range
	mark := func(line int) {
		if len(out) > 0 && out[len(out)-1].End == line-1 {
			out[len(out)-1].End = line
			return
		}
		out = append(out, Range{line, line})
	}
	oldLine, newLine := 1, 1
	for _, h := range u.Hunks {
		for ; oldLine < h.FromLine; oldLine, newLine = oldLine+1, newLine+1 {
			if covered(seen, oldLine, oldLine) {
				mark(newLine)
			}
		}
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Equal:
				if covered(seen, oldLine, oldLine) {
					mark(newLine)
				}
				oldLine, newLine = oldLine+1, newLine+1
			case udiff.Delete:
				oldLine++
			case udiff.Insert:
				mark(newLine)
				newLine++
			}
		}
	}
	for ; oldLine <= CountLines(old); oldLine, newLine = oldLine+1, newLine+1 {
		if covered(seen, oldLine, oldLine) {
			mark(newLine)
		}
	}
	return out
}

// certContext is how many lines around each change a certificate shows;
// certMaxLines caps the lines it shows in all.
const (
	certContext  = 1
	certMaxLines = 40
)

// certificate confirms that the file is what the agent's edit made it,
// showing the changed lines with a little context.
func certificate(r Request, f *file) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s is as %s left it: %d lines, hash %s; changed: %s]\n", r.Shown, since(f), f.lines, f.hash, rangeList(f.edited))
	lines := strings.Split(strings.TrimSuffix(string(r.Content), "\n"), "\n")
	var spans []Range
	for _, e := range f.edited {
		spans = addRange(spans, Range{max(e.Start-certContext, 1), min(max(e.End, e.Start)+certContext, len(lines))})
	}
	total := 0
	for _, s := range spans {
		total += s.End - s.Start + 1
	}
	if total > certMaxLines {
		b.WriteString("[the changes are too large to show; read those lines to see them]\n")
		return b.String()
	}
	width := len(strconv.Itoa(len(lines)))
	for i, s := range spans {
		if i > 0 {
			b.WriteString("…\n")
		}
		for n := s.Start; n <= s.End; n++ {
			fmt.Fprintf(&b, "%*d\t%s\n", width, n, strings.TrimSuffix(lines[n-1], "\r"))
		}
	}
	return b.String()
}

func rangeList(rs []Range) string {
	if len(rs) == 0 {
		return "nothing"
	}
	parts := make([]string, len(rs))
	for i, r := range rs {
		switch {
		case r.End < r.Start:
			parts[i] = fmt.Sprintf("lines deleted before line %d", r.Start)
		case r.End == r.Start:
			parts[i] = fmt.Sprintf("line %d", r.Start)
		default:
			parts[i] = fmt.Sprintf("lines %d–%d", r.Start, r.End)
		}
	}
	return strings.Join(parts, ", ")
}

// covered says whether the sorted, merged ranges hold every line of
// start..end.
func covered(rs []Range, start, end int) bool {
	for _, r := range rs {
		if r.Start <= start && end <= r.End {
			return true
		}
	}
	return false
}

// addRange returns a new sorted, merged list of rs plus r (adjacent
// ranges merge).
func addRange(rs []Range, r Range) []Range {
	out := append(slices.Clone(rs), r)
	slices.SortFunc(out, func(a, b Range) int { return a.Start - b.Start })
	merged := out[:1]
	for _, x := range out[1:] {
		last := &merged[len(merged)-1]
		if x.Start <= last.End+1 {
			last.End = max(last.End, x.End)
			continue
		}
		merged = append(merged, x)
	}
	return merged
}

// CountLines counts lines as the read tool numbers them: a final newline
// does not start another line.
func CountLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := bytes.Count(b, []byte{'\n'}) // strings.Count(string(b)) copied the whole content per call
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}
