package ledger

import "github.com/parleyhq/parley/index/extract"

// cppBodies returns the lines of a C++ file an outline elides whatever
// the grammar made of it, found by a scan of its text
// (extract.ScanCpp): the inside of every function body (from a
// constructor's initializer list on), the lines continuing a #define,
// the values of declarations after a "=" ending their line, and the
// branches of Doxygen conditionals that no build compiles. The
// grammar loses functions whose template parameters hold a macro, whose
// return type trails or whose initializer list spans lines, and
// braceBodies' line rules find none of them: their bodies were kept
// whole.
func cppBodies(lines []string) []Range {
	sp := extract.ScanCpp(lines)
	var out []Range
	for _, list := range [][]extract.LineSpan{sp.Bodies, sp.Macros, sp.Values, sp.DocOnly} {
		for _, r := range list {
			out = append(out, Range{r.Start, r.End})
		}
	}
	return out
}
