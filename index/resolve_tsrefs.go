package index

import (
	"bytes"
	"cmp"
	"slices"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
)

// TypeScript references.
//
// Occurrences count against one declaration (tsCanonical): an overloaded
// function's first signature, and for a member the topmost declaration it
// overrides or implements up the extends and implements clauses, as
// tsserver's references of a method list the interface's and every
// implementation's. (Object literals typed by an interface are not
// followed: they would need contextual types.)
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

// tsCanonical is the declaration references to t count against.
func (r *pyResolver) tsCanonical(t PyTarget) PyTarget {
	if t.Container != "" {
		t = r.tsRootMember(t)
	}
	if _, g := r.tsOverloadGroup(t); g != nil {
		t.Selection = pyRange(g[0])
	}
	return t
}

// tsRootMember is the topmost declaration of member t up its class's
// extends and implements clauses (the first one, depth first).
func (r *pyResolver) tsRootMember(t PyTarget) PyTarget {
	for range 16 {
		f, nm := r.tsDeclNode(t)
		if nm == nil {
			return t
		}
		c := tsMemberClass(f, nm)
		if c == nil {
			return t
		}
		var up *pyValue
		for _, sc := range r.tsSupers(&pyClass{f: f, node: c}) {
			if v := r.tsClassMember(sc, t.Name); v.ok {
				up = &v
				break
			}
		}
		if up == nil || up.decl == t {
			return t
		}
		t = up.decl
	}
	return t
}

// tsMemberClass is the class or interface declaring the member named nm,
// or nil.
func tsMemberClass(f *pyFile, nm *ts.Node) *ts.Node {
	m := nm.Parent()
	if m == nil || !sameNode(f.field(m, "name"), nm) {
		return nil
	}
	body := m.Parent()
	switch f.typ(body) {
	case "class_body", "interface_body":
	default:
		return nil
	}
	switch c := body.Parent(); f.typ(c) {
	case "class_declaration", "abstract_class_declaration", "class", "interface_declaration":
		return c
	}
	return nil
}
