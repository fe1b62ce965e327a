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
	var cand []Range
	for _, s := range syms {
		switch s.Kind {
		case extract.KindFunction, extract.KindMethod, extract.KindConstructor:
		default:
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
		if end-h >= minElided {
			cand = append(cand, Range{h + 1, end})
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

// OutlineElisions returns the line ranges an outline of lines elides: the function
// bodies of Elisions, and in every comment block outside them of more than
// two lines, the lines after its first line with words (its summary), so
// that long doc comments and licence headers cost one line each.
func OutlineElisions(lang string, lines []string, syms []extract.Symbol) []Range {
	bodies := Elisions(lines, syms)
	prefixes := commentPrefixes(lang)
	out := slices.Clone(bodies)
	b := 0
	for n := 1; n <= len(lines); n++ {
		for b < len(bodies) && bodies[b].End < n {
			b++
		}
		if b < len(bodies) && bodies[b].Start <= n {
			n = bodies[b].End
			continue
		}
		if !isComment(lines[n-1], prefixes) {
			continue
		}
		end := n
		for end < len(lines) && isComment(lines[end], prefixes) && (b >= len(bodies) || end+1 < bodies[b].Start) {
			end++
		}
		keep := n
		for keep < end && !strings.ContainsFunc(lines[keep-1], isWordRune) {
			keep++
		}
		if end-keep >= 2 {
			out = append(out, Range{keep + 1, end})
		}
		n = end
	}
	slices.SortFunc(out, func(a, b Range) int { return a.Start - b.Start })
	return out
}

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// closes says whether a body's last line only closes it.
func closes(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "}") || t == "end" || t == "end;" || strings.HasPrefix(t, "end ") || t == "fi"
}

// RenderOutline numbers the lines of a file with the elided ranges
// replaced by one marker line each.
func RenderOutline(shown string, lines []string, elided []Range) OutlineView {
	width := len(fmt.Sprint(len(lines)))
	var b strings.Builder
	fmt.Fprintf(&b, "[outline of %s (%d lines): function bodies and the rest of long comments are elided, \"⋯ a–b\" marks lines a to b; read_file with start_line/end_line or get_symbol shows them, full: true the whole file]\n", shown, len(lines))
	var kept []Range
	next := 1
	keep := func(to int) {
		for n := next; n <= to; n++ {
			fmt.Fprintf(&b, "%*d\t%s\n", width, n, lines[n-1])
		}
		if to >= next {
			kept = append(kept, Range{next, to})
		}
	}
	for _, e := range elided {
		keep(e.Start - 1)
		fmt.Fprintf(&b, "%*s\t⋯ %d–%d\n", width, "", e.Start, e.End)
		next = e.End + 1
	}
	keep(len(lines))
	return OutlineView{Text: b.String(), Kept: kept}
}
