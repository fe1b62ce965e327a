package ledger

import (
	"slices"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// markerTokens is about what a marker line costs ("…\n" is 1 token in
// o200k, and the model reads the numbers of the lines around it to know
// which lines it stands for): a range is elided only when its lines cost
// more, so a lone blank line or "*/" stays.
const markerTokens = 3

// lineTokens estimates what a numbered line costs: its number, tab,
// indentation and newline, and about a token per four characters of text.
func lineTokens(line string) int {
	return 3 + len(strings.TrimSpace(line))/4
}

// worthMarker says whether eliding r saves more than its marker costs.
func worthMarker(lines []string) func(Range) bool {
	return func(r Range) bool {
		n := 0
		for i := r.Start; i <= r.End; i++ {
			n += lineTokens(lines[i-1])
			if n > markerTokens {
				return true
			}
		}
		return false
	}
}

// isData matches the symbols whose multi-line value an outline elides
// like a body: variables, constants, fields, properties and enum members
// (data tables, object literals, property accessors). Types are not: their
// members are the outline.
func isData(s extract.Symbol) bool {
	switch s.Kind {
	case extract.KindVariable, extract.KindConstant, extract.KindField, extract.KindProperty,
		extract.KindEnumMember, extract.KindKey, extract.KindObject, extract.KindArray, extract.KindEvent:
		return true
	}
	return false
}

// isValue matches the symbols whose multi-line value an outline elides
// like a body: variables, constants, fields, properties and enum members
// (isData), and a type with no members whose name line assigns it ("type
// U =" in TypeScript, "using T =" in C++), whose value is a union or a
// template over many lines.
func isValue(syms []extract.Symbol, lines []string) func(int) bool {
	parents := map[int32]bool{}
	for _, s := range syms {
		parents[s.Parent] = true
	}
	return func(i int) bool {
		s := syms[i]
		switch s.Kind {
		case extract.KindClass, extract.KindInterface, extract.KindStruct, extract.KindTypeParameter:
			n := int(s.Selection.Start.Line)
			return n < len(lines) && strings.Contains(lines[n], "=") && !parents[int32(i)]
		}
		return isData(s)
	}
}

// OutlineElisions returns the line ranges an outline of lines elides:
// function bodies (of any length, when they cost more than the marker
// that replaces them), the values of variables, constants, fields and
// properties spanning several lines (data tables), and in every comment
// block outside them, the lines after its summary (its first sentence, at
// most two lines), so that long doc comments and licence headers cost a
// line or two each; each range then takes in the blank lines and the
// comment lines without words next to it (absorbQuiet). No range covers
// the name line of a symbol outside a function body: every
// declaration's signature stays.
func OutlineElisions(lang string, lines []string, syms []extract.Symbol) []Range {
	worth := worthMarker(lines)
	// A body is worth its marker with the blank lines after it, which the
	// marker takes in (absorbQuiet): a Python property whose body is a
	// docstring's closing quotes.
	worthBody := func(r Range) bool {
		for r.End < len(lines) && strings.TrimSpace(lines[r.End]) == "" {
			r.End++
		}
		return worth(r)
	}
	fn := bodies(lines, syms, func(i int) bool { return isFunction(syms[i]) }, worthBody)
	elided := union(append(fn, bodies(lines, syms, isValue(syms, lines), worthBody)...))
	elided = union(append(elided, braceBodies(lang, lines, elided, worth)...))
	if lang == "cpp" {
		for _, r := range cppBodies(lines) {
			if worth(r) {
				elided = append(elided, r)
			}
		}
		elided = union(elided)
	}
	elided = withBraces(lines, elided)
	folds, folded := enumFolds(syms)
	elided = union(append(elided, folds...))
	names := nameLines(syms, folded)
	elided = spare(elided, names, worthBody)
	out := append(slices.Clone(elided), spare(commentTails(lang, lines, elided, worth), names, worth)...)
	return absorbQuiet(lang, lines, out, names)
}

// An enum of foldMin members or more shows its first foldHead members and
// its last one; the lines between, other members and their doc comments,
// are folded into a marker. The members are values, not signatures, and a
// long list of them (140 colour names, 40 error codes) would be most of
// an outline; the numbers around the marker say how many lines it hides.
const (
	foldMin  = 10
	foldHead = 3
)

// FoldedEnumMembers returns the indexes in syms of the enum members an
// outline folds (see foldMin).
func FoldedEnumMembers(syms []extract.Symbol) map[int]bool {
	_, folded := enumFolds(syms)
	return folded
}

// enumFolds returns the line ranges an outline folds in long enums, and
// the indexes of the members in them.
func enumFolds(syms []extract.Symbol) ([]Range, map[int]bool) {
	members := map[int32][]int{}
	for i, s := range syms {
		if s.Kind == extract.KindEnumMember && s.Parent >= 0 && syms[s.Parent].Kind == extract.KindEnum {
			members[s.Parent] = append(members[s.Parent], i)
		}
	}
	var folds []Range
	folded := map[int]bool{}
	line := func(i int) int { return int(syms[i].Selection.Start.Line) + 1 }
	for _, ms := range members {
		if len(ms) < foldMin {
			continue
		}
		slices.SortFunc(ms, func(a, b int) int { return line(a) - line(b) })
		r := Range{line(ms[foldHead-1]) + 1, line(ms[len(ms)-1]) - 1}
		if r.End <= r.Start {
			continue // several members a line
		}
		folds = append(folds, r)
		for _, i := range ms[foldHead : len(ms)-1] {
			if line(i) >= r.Start && line(i) <= r.End {
				folded[i] = true
			}
		}
	}
	return folds, folded
}

// union merges overlapping and adjacent ranges, sorted by start.
func union(rs []Range) []Range {
	slices.SortFunc(rs, func(a, b Range) int { return a.Start - b.Start })
	var out []Range
	for _, r := range rs {
		if n := len(out); n > 0 && r.Start <= out[n-1].End+1 {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}

// nameLines are the 1-based name lines of the symbols that are not
// declared inside a function body nor folded, sorted.
func nameLines(syms []extract.Symbol, folded map[int]bool) []int {
	var out []int
	for i, s := range syms {
		if folded[i] {
			continue
		}
		inBody := false
		for p := s.Parent; p >= 0 && int(p) < len(syms) && !inBody; p = syms[p].Parent {
			inBody = isFunction(syms[p])
		}
		if !inBody {
			out = append(out, int(s.Selection.Start.Line)+1)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// spare cuts the lines of keep out of the ranges, dropping the pieces not
// worth a marker.
func spare(rs []Range, keep []int, worth func(Range) bool) []Range {
	var out []Range
	for _, r := range rs {
		start := r.Start
		i, _ := slices.BinarySearch(keep, r.Start)
		for ; i < len(keep) && keep[i] <= r.End; i++ {
			if p := (Range{start, keep[i] - 1}); p.End >= p.Start && worth(p) {
				out = append(out, p)
			}
			start = keep[i] + 1
		}
		if p := (Range{start, r.End}); p.End >= p.Start && worth(p) {
			out = append(out, p)
		}
	}
	return out
}

// commentTails returns, for every comment block outside the elided
// ranges, the lines after its summary when they are worth a marker.
func commentTails(lang string, lines []string, elided []Range, worth func(Range) bool) []Range {
	cl := commentLines(lang, lines)
	var out []Range
	b := 0
	for n := 1; n <= len(lines); n++ {
		for b < len(elided) && elided[b].End < n {
			b++
		}
		if b < len(elided) && elided[b].Start <= n {
			n = elided[b].End
			continue
		}
		if !inComment(cl, n) {
			continue
		}
		end := n
		for end < len(lines) && inComment(cl, end+1) && (b >= len(elided) || end+1 < elided[b].Start) {
			end++
		}
		keep := summaryEnd(lines, n, end)
		if r := (Range{keep + 1, end}); r.End >= r.Start && worth(r) {
			out = append(out, r)
		}
		// The lines without words before the summary ("/**" and "\rst",
		// "/// <summary>"), when they cost more than a marker.
		head := n
		for head < keep && !hasWords(lines[head-1]) {
			head++
		}
		if r := (Range{n, head - 1}); head > n && head <= keep && hasWords(lines[head-1]) && worth(r) {
			out = append(out, r)
		}
		n = end
	}
	return out
}

// summaryEnd is the last line of a comment block's summary: from its
// first line with words (after any markup such as "/**" or "<summary>"),
// to the end of the first sentence, at most two lines.
func summaryEnd(lines []string, start, end int) int {
	keep := start
	for keep < end && !hasWords(lines[keep-1]) {
		keep++
	}
	t := strings.TrimRight(lines[keep-1], " \t*/")
	if keep < end && hasWords(lines[keep]) && !strings.Contains(t, ". ") &&
		!strings.HasSuffix(t, ".") && !strings.HasSuffix(t, ":") {
		keep++ // the sentence goes on
	}
	return keep
}

// hasWords says whether a comment line has words outside markup tags
// and documentation commands alone on their line (markupOnly).
func hasWords(line string) bool {
	if markupOnly(line) {
		return false
	}
	for {
		i := strings.IndexByte(line, '<')
		j := strings.IndexByte(line[max(i, 0):], '>')
		if i < 0 || j < 0 {
			break
		}
		line = line[:i] + " " + line[i+j+1:]
	}
	return strings.ContainsFunc(line, isWordRune)
}

// markupOnly says whether a comment line holds only a documentation
// command, such as fmt's "\rst" and "\endrst" around each doc comment
// or Boost's "//!\file": an outline took "\rst" for the summary of
// every such comment and kept it with the sentence after it.
func markupOnly(line string) bool {
	t := strings.TrimLeft(strings.TrimSpace(line), "/*!#")
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "*/"))
	f := strings.Fields(t)
	return len(f) == 1 && len(f[0]) > 1 && (f[0][0] == '\\' || f[0][0] == '@')
}

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// braceLanguages are the languages whose blocks are braces.
var braceLanguages = map[string]bool{
	"c": true, "cpp": true, "csharp": true, "java": true, "kotlin": true, "javascript": true,
	"typescript": true, "tsx": true, "rust": true, "go": true, "php": true, "swift": true, "scala": true,
}

// typeKeywords start declarations whose braces hold members, not a body.
var typeKeywords = []string{"class", "struct", "interface", "enum", "namespace", "object", "impl", "trait", "record", "union", "extern", "module", "package"}

// braceBodies returns the bodies of the function definitions the
// extractor did not report, found by their text: a line outside the
// elided ranges, ending in "{" after a ")", that does not declare a type
// or open a control statement, to the line before its matching "}". A
// parse the grammar could not finish (a C++ method whose signature ends
// in a macro, ABSL_ATTRIBUTE_LIFETIME_BOUND) still has its bodies elided.
func braceBodies(lang string, lines []string, elided []Range, worth func(Range) bool) []Range {
	if !braceLanguages[lang] {
		return nil
	}
	var out []Range
	b := 0
	for n := 1; n <= len(lines); n++ {
		for b < len(elided) && elided[b].End < n {
			b++
		}
		if b < len(elided) && elided[b].Start <= n {
			n = elided[b].End
			continue
		}
		if t := strings.TrimSpace(lines[n-1]); allmanHeaders[lang] && oneLineBody(t) && allmanHeader(lines, n) {
			// {  return m_ptr;  } under its function's header.
			if r := (Range{n, n}); worth(r) {
				out = append(out, r)
			}
			continue
		}
		if !opensBody(lines[n-1]) && !(allmanHeaders[lang] && strings.TrimSpace(lines[n-1]) == "{" && allmanHeader(lines, n)) {
			continue
		}
		depth, end := 0, 0
		for m := n; m <= len(lines) && end == 0; m++ {
			depth += braceDelta(lines[m-1])
			if depth <= 0 {
				end = m
			}
		}
		if end == 0 || end == n || !strings.HasPrefix(strings.TrimSpace(lines[end-1]), "}") {
			continue
		}
		if r := (Range{n + 1, end - 1}); r.End >= r.Start && worth(r) {
			out = append(out, r)
		}
		n = end
	}
	return out
}

// opensBody says whether a line looks like the header of a function
// definition whose body starts at its end.
func opensBody(line string) bool {
	t := strings.TrimSpace(line)
	if !strings.HasSuffix(t, "{") || strings.HasPrefix(t, "}") {
		return false
	}
	open := strings.IndexByte(t, '(')
	if open < 0 || strings.LastIndexByte(t, ')') < open || strings.Contains(t, "=>") {
		return false
	}
	// A declaration names a type or keyword before its name; a call with
	// a trailing block or callback (describe("x", () => {, tasks.register("x") {)
	// has one word, and its block holds what an outline must show.
	if len(strings.Fields(t[:open])) < 2 {
		return false
	}
	first := strings.FieldsFunc(t, func(r rune) bool { return !isWordRune(r) && r != '_' })
	if len(first) == 0 {
		return false
	}
	switch first[0] {
	case "if", "else", "for", "foreach", "while", "switch", "do", "try", "catch", "finally", "return", "when", "match", "loop", "using", "lock", "synchronized", "fixed", "unsafe":
		return false
	}
	for _, w := range first {
		if slices.Contains(typeKeywords, w) {
			return false
		}
	}
	return true
}

// braceDelta is the count of "{" less "}" in a line, outside string and
// character literals and line comments.
func braceDelta(line string) int {
	d := 0
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			return d
		case c == '{':
			d++
		case c == '}':
			d--
		}
	}
	return d
}

// withBraces widens each range over a lone "{" before it and a lone
// closing line after it: the marker stands for the whole block.
func withBraces(lines []string, rs []Range) []Range {
	out := make([]Range, 0, len(rs))
	for _, r := range rs {
		if r.Start > 1 && strings.TrimSpace(lines[r.Start-2]) == "{" {
			r.Start--
		}
		if r.End < len(lines) && lonelyCloser(lines[r.End]) {
			r.End++
		}
		out = append(out, r)
	}
	return union(out)
}

func lonelyCloser(line string) bool {
	switch strings.TrimSpace(line) {
	case "}", "};", "},", "})", "});", "end", "end,":
		return true
	}
	return false
}
