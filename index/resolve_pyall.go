package index

import (
	"cmp"
	"slices"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
)

// exported adds to hits, the references resolveEach kept in the parsed
// Python file f, the strings of f's module-level __all__ that name the
// target when f's own binding of the name is the target (its module, or
// one importing it to re-export it): `from m import *` binds what __all__
// lists, so pyright, and a rename, count them. The index stores no
// occurrences in strings, so they are found here.
func (pr *pyRefs) exported(f *pyFile, hits []RefHit) []RefHit {
	t := pr.t
	if t.Container != "" || t.Local || t.Module {
		return hits
	}
	strs := pyAllStrings(f, t.Name)
	if len(strs) == 0 {
		return hits
	}
	if f.rel != t.Path {
		pr.r.steps = 0
		got, ok := pr.r.moduleMember(f.rel, t.Name).target()
		if !ok || got.Path != t.Path || got.Selection != t.Selection {
			return hits
		}
	}
	for _, p := range strs {
		hits = append(hits, RefHit{Path: f.rel, Name: t.Name, Pos: p})
	}
	slices.SortFunc(hits, func(a, b RefHit) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return hits
}

// pyAllStrings returns the positions of the names inside the strings that
// spell name in the lists assigned or added to __all__ at f's top level.
func pyAllStrings(f *pyFile, name string) []extract.Pos {
	var out []extract.Pos
	root := f.tree.Root()
	for i, n := 0, root.NamedChildCount(); i < n; i++ {
		// The grammar may or may not wrap an assignment in an
		// expression_statement.
		a := root.NamedChild(i)
		if f.typ(a) == "expression_statement" && a.NamedChildCount() > 0 {
			a = a.NamedChild(0)
		}
		if t := f.typ(a); t != "assignment" && t != "augmented_assignment" {
			continue
		}
		if f.text(f.field(a, "left")) != "__all__" {
			continue
		}
		list := f.field(a, "right")
		if t := f.typ(list); t != "list" && t != "tuple" {
			continue
		}
		for j, m := 0, list.NamedChildCount(); j < m; j++ {
			if p, ok := pyStringNaming(f, list.NamedChild(j), name); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// pyStringNaming reports whether n is a plain string literal 'name' or
// "name", and where name starts in it.
func pyStringNaming(f *pyFile, n *ts.Node, name string) (extract.Pos, bool) {
	s := f.text(n)
	if f.typ(n) != "string" || len(s) != len(name)+2 || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] || s[1:len(s)-1] != name {
		return extract.Pos{}, false
	}
	p := n.StartPoint()
	return extract.Pos{Line: p.Row, Col: p.Column + 1}, true
}
