package index

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
	pr := newPyIdxRefs(r, t, all)
	out := make([]RefHit, 0, len(all))
	// A cancelled resolution stops at the next file (Store.CancelledSince
	// tells its caller the answer is cut).
	for i := 0; i < len(all) && r.gen > s.py.cancelled.Load(); {
		j := i
		for j < len(all) && all[j].Path == all[i].Path {
			j++
		}
		out = append(out, pr.file(all[i].Path, all[i:j])...)
		i = j
	}
	return out, nil
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
	return newPyIdxRefs(r, t, hits).file(p, hits), nil
}

func newPyIdxRefs(r *pyResolver, t PyTarget, all []RefHit) *pyRefs {
	pr := &pyRefs{r: r, t: t, via: t.Name, candidates: map[string]bool{}, leads: map[string]bool{}, indexed: true}
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
	sees := func() bool { return p == t.Path || pr.seesDeclaration(p) }
	if x == nil {
		// No descriptors (its extraction failed): nothing is known.
		if !sees() {
			return nil
		}
		for i := range hits {
			hits[i].Uncertain = true
		}
		return hits
	}
	var out []RefHit
	for _, h := range hits {
		d := x.desc(Occurrence{Operand: h.Operand})
		if d == "" {
			continue
		}
		pr.r.steps = 0 // each occurrence gets the full budget
		got, ok := pr.r.evalDesc(p, d, t.Name).target()
		switch {
		case ok && got.Path == t.Path && got.Selection.Start == t.Selection.Start && got.Module == t.Module:
			out = append(out, h)
		case !ok && pyAttrDesc(d) && sees():
			h.Uncertain = true
			out = append(out, h)
		}
	}
	return out
}
