package pyscan

import "github.com/parleyhq/parley/index/extract"

// allStrings adds, as references, the strings of the module-level
// __all__ that name a module-level binding (describe.go allStrings).
func (d *describer) allStrings(w *walker, res *extract.Result) bool {
	t := d.t
	added := false
	for a := t.nodes[0].first; a >= 0; a = t.nodes[a].next {
		if typ := t.typ(a); (typ != nAssignment && typ != nAugAssignment) || !t.textIs(t.field(a, fLeft), "__all__") {
			continue
		}
		list := t.field(a, fRight)
		if typ := t.typ(list); typ != nList && typ != nTuple {
			continue
		}
		for m := t.nodes[list].first; m >= 0; m = t.nodes[m].next {
			s := t.text(m)
			if len(s) < 3 || !isPyIdent(s[1:len(s)-1]) {
				continue
			}
			name := s[1 : len(s)-1]
			if t.typ(m) != nString || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] {
				continue
			}
			desc := "g*"
			if b := d.tab.binding(0, name); b >= 0 {
				if st := t.enclosingImport(b); st >= 0 {
					desc = "g" + d.importValue(st, b)
				} else {
					desc = "g@" + d.posString(b, w)
				}
			}
			p := w.pos(t.nodes[m].start)
			p.Col++
			res.Refs = append(res.Refs, extract.Ref{Name: name, Pos: p, Operand: d.Intern(desc)})
			added = true
		}
	}
	return added
}

func isPyIdent(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') && c < 0x80 {
			return false
		}
	}
	return true
}
