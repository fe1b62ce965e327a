package index

import (
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// References to a Python declaration from the descriptors stored with
// each occurrence (resolve_pydesc.go): every occurrence of the name is
// evaluated against the index (resolve_pyidx.go) and kept when it
// resolves to the declaration, dropped when it resolves elsewhere or is
// a bare name the syntax leaves unbound (a builtin), and kept Uncertain
// when it is x.name with x unknown, in the declaration's file or a file
// whose imports lead to it. No file is parsed: a references query costs
// the reads of the name's occurrences and of the few files its
// descriptors lead to, whatever the number of candidate files.

// pyIndexedReferences is PyReferences for a Python declaration.
func (s *Store) pyIndexedReferences(t PyTarget, read SourceReader) ([]RefHit, error) {
	all, err := s.References(t.Name, 0)
	if err != nil {
		return nil, err
	}
	r := newPyResolver(s, read)
	defer r.release()
	r.indexOnly = true
	pr := newPyIdxRefs(r, t, all)
	return r.byFile(all, pr.indexedFile), nil
}

// pyIndexedFileReferences is pyIndexedReferences within file p.
func (s *Store) pyIndexedFileReferences(t PyTarget, p string, read SourceReader) ([]RefHit, error) {
	occ, err := s.FileReferences(p, t.Name)
	if err != nil {
		return nil, err
	}
	hits := make([]RefHit, len(occ))
	for i, o := range occ {
		hits[i] = RefHit{Path: p, Name: t.Name, Pos: o.Pos, Call: o.Call, Operand: o.Operand}
	}
	r := newPyResolver(s, read)
	defer r.release()
	r.indexOnly = true
	return newPyIdxRefs(r, t, hits).indexedFile(p, hits), nil
}

func newPyIdxRefs(r *pyResolver, t PyTarget, all []RefHit) *pyRefs {
	pr := &pyRefs{r: r, t: t, via: t.Name, candidates: map[string]bool{}, leads: map[string]bool{}}
	if t.Container != "" {
		pr.via = t.Container
	}
	for _, h := range all {
		pr.candidates[h.Path] = true
	}
	return pr
}

// indexedFile filters the occurrences hits of the Python file p by their
// descriptors.
func (pr *pyRefs) indexedFile(p string, hits []RefHit) []RefHit {
	t := pr.t
	if !isPyFile(p) || (t.Local && p != t.Path) {
		return nil
	}
	x := pr.r.idxFile(p)
	seen, sees := false, false
	seesDecl := func() bool { // once per file: it reads the file's imports
		if !seen {
			seen, sees = true, p == t.Path || pr.seesDeclaration(p)
		}
		return sees
	}
	if x == nil {
		// No descriptors (its extraction failed): nothing is known.
		if !seesDecl() {
			return nil
		}
		for i := range hits {
			hits[i].Uncertain = true
		}
		return hits
	}
	var out []RefHit
	type verdict struct {
		got PyTarget
		ok  bool
	}
	verdicts := map[uint32]verdict{} // occurrences share descriptors
	for _, h := range hits {
		d := x.desc(Occurrence{Operand: h.Operand})
		if d == "" {
			continue
		}
		v, done := verdicts[h.Operand]
		if !done {
			v.got, v.ok = pr.evalOccurrence(p, d)
			verdicts[h.Operand] = v
		}
		got, ok := v.got, v.ok
		switch {
		case ok && got.Path == t.Path && got.Selection.Start == t.Selection.Start && got.Module == t.Module:
			out = append(out, h)
		case !ok && pyAttrDesc(d) && seesDecl():
			h.Uncertain = true
			out = append(out, h)
		}
	}
	return out
}

// evalOccurrence resolves the descriptor d of an occurrence of the
// target's name in p. A bare binding of p is settled without reading
// anything: it is p's, at its position.
func (pr *pyRefs) evalOccurrence(p, d string) (PyTarget, bool) {
	if b := strings.TrimPrefix(d, "g"); strings.HasPrefix(b, "@") && !strings.ContainsAny(b, ".(") {
		pos, ok := pyParsePos(b[1:])
		return PyTarget{Path: p, Name: pr.t.Name, Selection: extract.Range{Start: pos}}, ok
	}
	pr.r.steps = 0 // each occurrence gets the full budget
	return pr.r.evalDesc(p, d, pr.t.Name).target()
}
