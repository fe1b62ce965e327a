package index

// References to a TypeScript or JavaScript declaration from the
// descriptors stored with each occurrence (resolve_tsdesc.go), as
// Python's (resolve_pyidxrefs.go): every occurrence of the name is
// evaluated against the index (resolve_tsidx.go), its result taken to the
// declaration references count against (tsIdxCanonical: a member's
// topmost declaration up the extends and implements clauses, an overload
// group's first signature), and kept when that is the target's. A
// property access x.name whose x the syntax does not type is kept
// Uncertain in a file that can see the declaration: its own, any file for
// a member (whose values flow in without an import of its class), or one
// whose imports lead to it. No file is parsed.

// tsIndexedFile filters the occurrences hits of file p by their
// descriptors.
func (pr *pyRefs) tsIndexedFile(p string, hits []RefHit) []RefHit {
	t := pr.t
	if !isTSFile(p) || (t.Local && p != t.Path) {
		return nil
	}
	seen, sees := false, false
	seesDecl := func() bool { // once per file: it reads the file's imports
		if !seen {
			seen, sees = true, p == t.Path || t.Container != "" || pr.seesDeclaration(p)
		}
		return sees
	}
	x := pr.r.tsIdxFile(p)
	if x == nil {
		return unknownFile(hits, seesDecl())
	}
	return pr.byDescriptors(p, hits, x.desc, pr.tsEvalOccurrence, func(d string) bool { return d[0] == '.' }, seesDecl)
}

// tsEvalOccurrence resolves the descriptor d of an occurrence of the
// target's name in p to the declaration it counts against.
func (pr *pyRefs) tsEvalOccurrence(p, d string) (PyTarget, bool) {
	pr.r.steps = 0 // each occurrence gets the full budget
	v := pr.r.tsEvalDesc(p, d, pr.t.Name)
	if !v.ok {
		return PyTarget{}, false
	}
	if v.decl.Module {
		return v.decl, true
	}
	return pr.r.tsIdxCanonical(v.decl), true
}
