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
		return unknownFile(hits, seesDecl())
	}
	desc := func(op uint32) string { return x.desc(Occurrence{Operand: op}) }
	return pr.byDescriptors(p, hits, desc, pr.evalOccurrence, pyAttrDesc, seesDecl)
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
