package ledger

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// OutlineView is a first read of a large file with function bodies elided:
// Text is what the model gets, Kept the lines it shows.
type OutlineView struct {
	Text string
	Kept []Range
}

// minElided is the fewest body lines worth a marker (a marker costs about
// as much as two short lines).
const minElided = 3

// Elisions returns the body line ranges (1-based, inclusive) an outline of
// lines elides, given the file's symbols: the inside of every function,
// method and constructor body, from the line after its header (the lines
// up to the one where the parentheses opened on the name's line close,
// plus a lone opening brace and the first line of a Python docstring) to the line before a closing "}" or "end"
// line (to its last line in languages without one). Bodies nested in an
// elided body go with it. Everything else (imports, type declarations and
// their fields, doc comments, signatures, top-level statements) is kept.
func Elisions(lines []string, syms []extract.Symbol) []Range {
	return bodies(lines, syms, func(i int) bool { return isFunction(syms[i]) }, func(r Range) bool { return r.End-r.Start+1 >= minElided })
}

// bodies returns the inside of the bodies of the symbols that match, each
// kept when worth says so, outermost first, nested bodies dropped.
func bodies(lines []string, syms []extract.Symbol, match func(i int) bool, worth func(Range) bool) []Range {
	var cand []Range
	for i, s := range syms {
		if !match(i) {
			continue
		}
		first, last := int(s.Selection.Start.Line)+1, int(s.Range.End.Line)+1
		if s.Range.End.Col == 0 && last > first {
			last-- // a range ending at column 0 ends on the line before
		}
		if last > len(lines) || first < 1 {
			continue
		}
		h := headerEnd(lines, int(s.Range.Start.Line)+1, first, last)
		end := last
		if closes(lines[last-1]) {
			end = last - 1
		}
		if r := (Range{h + 1, end}); r.End >= r.Start && worth(r) {
			cand = append(cand, r)
		}
	}
	slices.SortFunc(cand, func(a, b Range) int { return cmp.Or(a.Start-b.Start, b.End-a.End) })
	var out []Range
	for _, r := range cand {
		if len(out) > 0 && r.Start <= out[len(out)-1].End {
			continue // nested in (or overlapping) the previous body
		}
		out = append(out, r)
	}
	return out
}

// headerEnd is the last line of a definition's header: from the name's
// line on, the first line where the parentheses opened since start are
// closed, then a following line holding only "{".
func headerEnd(lines []string, start, name, last int) int {
	depth := 0
	h := name
	for n := start; n <= last; n++ {
		depth += strings.Count(lines[n-1], "(") - strings.Count(lines[n-1], ")")
		if n >= name && depth <= 0 {
			h = n
			break
		}
	}
	if h < last && strings.TrimSpace(lines[h]) == "{" {
		h++
	}
	return docstringEnd(lines, h, last)
}

// docstringEnd extends a header ending at line h over a Python docstring
// opening the body: the function's doc comment stays in the outline.
func docstringEnd(lines []string, h, last int) int {
	if h >= last {
		return h
	}
	t := strings.TrimSpace(lines[h])
	for _, q := range []string{`"""`, "QQQ"} {
		rest, ok := strings.CutPrefix(t, q)
		if !ok {
			continue
		}
		if strings.TrimSpace(rest) == "" && h+2 <= last {
			// The summary is on the line after the quotes.
			return h + 2
		}
		// The docstring's first line is its summary; the rest goes with
		// the body.
		return h + 1
	}
	return h
}

// commentPrefixes are the line-comment and block-comment line starts of a
// language, for Outline's summary of long comments.
func commentPrefixes(lang string) []string {
	switch lang {
	case "python", "ruby", "bash":
		return []string{"#"}
	case "lua":
		return []string{"--"}
	case "php":
		return []string{"//", "#", "/*", "*"}
	}
	return []string{"//", "/*", "*"}
}

func isFunction(s extract.Symbol) bool {
	switch s.Kind {
	case extract.KindFunction, extract.KindMethod, extract.KindConstructor:
		return true
	}
	return false
}

func isComment(line string, prefixes []string) bool {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "#!") {
		return false
	}
	for _, p := range prefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// closes says whether a body's last line only closes it.
func closes(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "}") || t == "end" || t == "end;" || strings.HasPrefix(t, "end ") || t == "fi"
}

// RenderOutline numbers the lines of a file with the elided ranges
// replaced by one marker line each.
func RenderOutline(shown string, lines []string, elided []Range) OutlineView {
	var b strings.Builder
	fmt.Fprintf(&b, "[outline of %s (%d lines): function bodies, long values and the rest of long comments are elided, a line \"…\" stands for the lines between the numbers around it; read_file with start_line/end_line or get_symbol shows them, full: true the whole file]\n", shown, len(lines))
	var kept []Range
	next := 1
	keep := func(to int) {
		for n := next; n <= to; n++ {
			if strings.TrimSpace(lines[n-1]) == "" {
				// A blank line goes without its number, which cost two
				// tokens of the three it took: a class of documented
				// members keeps one between each member and the next.
				b.WriteByte('\n')
				continue
			}
			// Numbers are not padded to one width: the spaces cost a
			// token on most lines of a file of a few hundred.
			fmt.Fprintf(&b, "%d\t%s\n", n, lines[n-1])
		}
		if to >= next {
			kept = append(kept, Range{next, to})
		}
	}
	for _, e := range elided {
		keep(e.Start - 1)
		// The numbers of the lines around a marker say which lines it
		// stands for: with them a marker cost 8 tokens, without 2; and
		// without the tab that kept its column, 1.
		b.WriteString("…\n")
		next = e.End + 1
	}
	keep(len(lines))
	return OutlineView{Text: b.String(), Kept: kept}
}
