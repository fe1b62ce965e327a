package ledger

// commentLines says, for each line, whether it is all comment: it starts
// with one of the language's comment prefixes, or it starts inside a
// block comment ("/* ... */"). A block comment's inner lines need not
// start with "*": Boost.Beast writes its doc comments as indented text
// between "/**" and "*/", which an outline kept whole when only prefixed
// lines counted.
func commentLines(lang string, lines []string) []bool {
	prefixes := commentPrefixes(lang)
	out := make([]bool, len(lines))
	block := blockComments(prefixes)
	in := false
	for i, l := range lines {
		out[i] = in || isComment(l, prefixes)
		if block {
			in = endsInBlock(l, in)
		}
	}
	return out
}

func blockComments(prefixes []string) bool {
	for _, p := range prefixes {
		if p == "/*" {
			return true
		}
	}
	return false
}

// endsInBlock says whether a line that starts inside a block comment
// (in) or not ends inside one. Quotes and line comments are skipped, so
// a glob in a string ("src/**/*.ts") opens nothing.
func endsInBlock(line string, in bool) bool {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case in:
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				in = false
				i++
			}
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			return false
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			in = true
			i++
		}
	}
	return in
}

// inComment reports commentLines' answer for 1-based line n.
func inComment(cl []bool, n int) bool { return n >= 1 && n <= len(cl) && cl[n-1] }
