package index

import (
	"bytes"
	"cmp"
	"slices"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
)

// TypeScript references beyond the index's identifier occurrences.
//
// tsserver counts a JSDoc link, `{@link map}` or `@see {@link map}`, as a
// reference to the declaration the name resolves to where the comment
// stands; the index does not record comments, so the file's comments are
// scanned once its tree is parsed.

// tsDocLinks adds to hits (the occurrences of p kept as references to
// pr.t) the JSDoc links of f that resolve to pr.t, in position order.
func (pr *pyRefs) tsDocLinks(f *pyFile, hits []RefHit) []RefHit {
	name := []byte(pr.t.Name)
	if !bytes.Contains(f.src, name) {
		return hits
	}
	n0 := len(hits)
	pyWalk(f.tree.Root(), func(n *ts.Node) bool {
		if f.typ(n) != "comment" {
			return true
		}
		text := f.src[n.StartByte():n.EndByte()]
		for i := 0; ; {
			k := bytes.Index(text[i:], []byte("@link"))
			if k < 0 {
				break
			}
			j := i + k + len("@link")
			for _, kw := range []string{"code", "plain"} { // @linkcode, @linkplain
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
			if !bytes.Equal(text[j:e], name) || e < len(text) && text[e] == '.' {
				continue
			}
			pr.r.steps = 0
			v := pr.r.tsLookup(f, n, pr.t.Name)
			if got, ok := v.target(); ok && pr.r.tsCanonical(got) == pr.t {
				hits = append(hits, RefHit{Path: f.rel, Name: pr.t.Name, Pos: tsPosOf(f, int(n.StartByte())+j)})
			}
		}
		return false
	})
	if len(hits) > n0 {
		slices.SortFunc(hits, func(a, b RefHit) int {
			return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
		})
	}
	return hits
}

// tsPosOf is the line and byte column of byte offset off of f.
func tsPosOf(f *pyFile, off int) extract.Pos {
	line := bytes.Count(f.src[:off], []byte("\n"))
	start := bytes.LastIndexByte(f.src[:off], '\n') + 1
	return extract.Pos{Line: uint32(line), Col: uint32(off - start)}
}
