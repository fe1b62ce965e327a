package ledger

import (
	"slices"
	"strings"
)

// quiet says whether a line tells the model nothing an outline should
// show: a blank line, or a comment line without words (the "/**" or "*/"
// of a doc comment, "/// <summary>", a "// -----" rule).
func quiet(line string, comment bool) bool {
	t := strings.TrimSpace(line)
	return t == "" || comment && !hasWords(t)
}

// absorbQuiet widens each elided range over the quiet lines next to it,
// never over a symbol's name line (keep, sorted). The marker is there
// anyway, so the lines it takes in cost nothing more: a class of short
// members under doc comments shows "sig, marker, summary, marker, sig"
// instead of also a blank line and a "/// <summary>" or "/**" line per
// member, a few tokens each, which made such classes cost half their
// file (issue 27).
func absorbQuiet(lang string, lines []string, rs []Range, keep []int) []Range {
	cl := commentLines(lang, lines)
	kept := func(n int) bool { _, ok := slices.BinarySearch(keep, n); return ok }
	out := make([]Range, 0, len(rs))
	for _, r := range rs {
		for r.Start > 1 && quiet(lines[r.Start-2], cl[r.Start-2]) && !kept(r.Start-1) {
			r.Start--
		}
		for r.End < len(lines) && quiet(lines[r.End], cl[r.End]) && !kept(r.End+1) {
			r.End++
		}
		out = append(out, r)
	}
	return union(out)
}
