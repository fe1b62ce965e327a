package extract

import (
	"bytes"
	"iter"
)

// DocLinks yields the JSDoc links of a comment's text ({@link name},
// @linkcode, @linkplain): each linked name's byte offset in text and the
// name. A dotted name (a.b) is skipped: it names no binding of the file
// by itself. The TypeScript describers, on tree-sitter's tree
// (index/typescript) and in the scanner (tsscan), add these as
// references, as tsserver counts them.
func DocLinks(text []byte) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for i := 0; ; {
			k := bytes.Index(text[i:], []byte("@link"))
			if k < 0 {
				return
			}
			j := i + k + len("@link")
			for _, kw := range []string{"code", "plain"} {
				if bytes.HasPrefix(text[j:], []byte(kw)) {
					j += len(kw)
				}
			}
			for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			e := j
			for e < len(text) && isIdentByte(text[e]) {
				e++
			}
			i = e
			if e == j || e < len(text) && text[e] == '.' {
				continue
			}
			if !yield(j, string(text[j:e])) {
				return
			}
		}
	}
}
