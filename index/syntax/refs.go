package index

import (
	"bytes"
	"path"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// References to one resolved declaration (PyTarget), judged from the
// descriptors stored with each occurrence: Python's in
// resolve_pyidxrefs.go, TypeScript's and JavaScript's in
// resolve_tsidxrefs.go. Neither parses a file: a references query costs
// the reads of the name's occurrences and of the few files their
// descriptors lead to, whatever the number of candidate files.

// PyReferences returns the references to t, a Python, TypeScript or
// JavaScript declaration (PyDefinitions, TSDefinitions), in path and
// position order; read returns the content of a file of the store.
func (s *Store) PyReferences(t PyTarget, read func(rel string) ([]byte, error)) ([]RefHit, error) {
	all, err := s.References(t.Name, 0)
	if err != nil {
		return nil, err
	}
	r := newPyResolver(s, read)
	defer r.release()
	r.indexOnly = true
	return r.byFile(all, newIdxRefs(r, t, all).judge), nil
}

// byFile answers the occurrences all, in path order, one file at a time
// with judge. A cancelled resolution stops at the next file: judging
// thousands of candidate files still takes the store's reads, and a late
// one holding the tree cache keeps the request that cancelled it waiting
// (Store.CancelledSince tells its caller the answer is cut).
func (r *pyResolver) byFile(all []RefHit, judge func(p string, hits []RefHit) []RefHit) []RefHit {
	// Not all[:0]: a file may answer more hits than it had occurrences
	// (__all__ strings).
	out := make([]RefHit, 0, len(all))
	for i := 0; i < len(all) && r.gen > r.st.py.cancelled.Load(); {
		j := i
		for j < len(all) && all[j].Path == all[i].Path {
			j++
		}
		out = append(out, judge(all[i].Path, all[i:j])...)
		i = j
	}
	return out
}

// PyFileReferences is PyReferences within file p (document highlights).
func (s *Store) PyFileReferences(t PyTarget, p string, read func(rel string) ([]byte, error)) ([]RefHit, error) {
	occ, err := s.FileReferences(p, t.Name)
	if err != nil {
		return nil, err
	}
	hits := make([]RefHit, len(occ))
	for i, o := range occ {
		hits[i] = RefHit{Path: p, Name: t.Name, Pos: o.Pos, Call: o.Call, Sel: o.Sel, Operand: o.Operand}
	}
	r := newPyResolver(s, read)
	defer r.release()
	r.indexOnly = true
	return newIdxRefs(r, t, hits).judge(p, hits), nil
}

// newIdxRefs judges the occurrences all (the candidates) of t's name by
// their descriptors; a TypeScript member is judged against the
// declaration it overrides or implements first (tsIdxCanonical).
func newIdxRefs(r *pyResolver, t PyTarget, all []RefHit) *pyRefs {
	pr := &pyRefs{r: r, t: t, ts: isTSFile(t.Path), via: t.Name, candidates: map[string]bool{}, leads: map[string]bool{}}
	if pr.ts {
		pr.t = r.tsIdxCanonical(t)
	}
	if t.Container != "" {
		pr.via = t.Container
	}
	for _, h := range all {
		pr.candidates[h.Path] = true
	}
	return pr
}

// unknownFile answers the occurrences hits of a file without descriptors
// (its extraction failed), where nothing is known: uncertain when the file
// can see the declaration (sees), left out otherwise.
func unknownFile(hits []RefHit, sees bool) []RefHit {
	if !sees {
		return nil
	}
	for i := range hits {
		hits[i].Uncertain = true
	}
	return hits
}

// byDescriptors keeps of hits, the occurrences in file p, those whose
// descriptor (desc of their operand) eval resolves to pr.t, and those it
// cannot resolve that are attribute uses (attr: x.name with x unknown)
// in a file that sees the declaration, marked Uncertain. Occurrences
// sharing a descriptor are evaluated once.
func (pr *pyRefs) byDescriptors(p string, hits []RefHit, desc func(op uint32) string,
	eval func(p, d string) (PyTarget, bool), attr func(d string) bool, sees func() bool) []RefHit {
	t := pr.t
	type verdict struct {
		got PyTarget
		ok  bool
	}
	verdicts := map[uint32]verdict{}
	var out []RefHit
	for _, h := range hits {
		d := desc(h.Operand)
		if d == "" {
			continue
		}
		v, done := verdicts[h.Operand]
		if !done {
			v.got, v.ok = eval(p, d)
			verdicts[h.Operand] = v
		}
		switch {
		case v.ok && v.got.Path == t.Path && v.got.Selection.Start == t.Selection.Start && v.got.Module == t.Module:
			out = append(out, h)
		case !v.ok && attr(d) && sees():
			h.Uncertain = true
			out = append(out, h)
		}
	}
	return out
}

// judge keeps of hits, the occurrences in file p, those that refer to
// pr.t (see indexedFile, tsIndexedFile).
func (pr *pyRefs) judge(p string, hits []RefHit) []RefHit {
	if pr.ts {
		return pr.tsIndexedFile(p, hits)
	}
	return pr.indexedFile(p, hits)
}

type pyRefs struct {
	ts         bool // TypeScript or JavaScript, not Python
	r          *pyResolver
	t          PyTarget
	via        string          // the name other files must import: t's, or its class's
	candidates map[string]bool // files that spell t.Name
	leads      map[string]bool // module file -> binds via to t's declaration
	viaFiles   map[string]bool // files that spell via, when it is not t.Name
}

// seesDeclaration reports whether one of p's imports leads to the target's
// module, or to a module that binds pr.via to the target's declaration.
func (pr *pyRefs) seesDeclaration(p string) bool {
	det, err := pr.r.st.Detail(p)
	if err != nil {
		return false
	}
	for _, im := range det.Imports {
		mod := pr.r.importModule(p, im.Path)
		if pr.ts {
			mod = pr.r.tsModuleFile(p, im.Path)
		}
		if mod == "" {
			continue
		}
		if mod == pr.t.Path || pr.reexports(mod) {
			return true
		}
		// from pkg import mod: the package's __init__, and p names the
		// module (any of pkg's modules would be too loose: importing
		// importlib would see all of importlib's files).
		owner := path.Dir(pr.t.Path) // the package holding the module
		if b := path.Base(pr.t.Path); b == "__init__.py" || b == "__init__.pyi" {
			owner = path.Dir(owner)
		}
		if path.Base(mod) == "__init__.py" && path.Dir(mod) == owner {
			if src, err := pr.r.read(p); err == nil && bytes.Contains(src, []byte(moduleTarget(pr.t.Path).Name)) {
				return true
			}
		}
	}
	return false
}

// reexports reports whether module file mod binds pr.via to the target's
// declaration (or its class). Only a module that spells the name can.
func (pr *pyRefs) reexports(mod string) bool {
	if v, ok := pr.leads[mod]; ok {
		return v
	}
	pr.leads[mod] = false
	if !pr.spellsVia(mod) {
		return false
	}
	pr.r.steps = 0
	var v pyValue
	if pr.ts {
		v = pr.r.tsIdxExport(mod, pr.via, 0)
	} else {
		v = pr.r.moduleMember(mod, pr.via)
	}
	got, ok := v.target()
	lead := ok && got.Path == pr.t.Path
	if pr.t.Container == "" {
		lead = lead && got.Selection == pr.t.Selection
	}
	pr.leads[mod] = lead
	return lead
}

// spellsVia reports whether file p spells pr.via: only such a module can
// bind it (a star import cannot be told without evaluating it, and only
// decides whether an unknown x.name is listed uncertain). For a Python
// member, via is its class's name, whose files are read once, on first
// use.
func (pr *pyRefs) spellsVia(p string) bool {
	switch {
	case pr.via == pr.t.Name:
		return pr.candidates[p]
	case pr.ts:
		// A TypeScript barrel re-exports a class without spelling it
		// (export * from).
		return true
	}
	if pr.viaFiles == nil {
		pr.viaFiles = map[string]bool{}
		hits, _ := pr.r.st.References(pr.via, 0)
		for _, h := range hits {
			pr.viaFiles[h.Path] = true
		}
	}
	return pr.viaFiles[p]
}

// importModule resolves an import as the extractor stored it ("a.b",
// ".x", "..") from file p to a module file, or "".
func (r *pyResolver) importModule(p, imp string) string {
	if !strings.HasPrefix(imp, ".") {
		return r.moduleValue(p, imp).module
	}
	dots := len(imp) - len(strings.TrimLeft(imp, "."))
	dir := path.Dir(p)
	for range dots - 1 {
		if dir == "." {
			return ""
		}
		dir = path.Dir(dir)
	}
	if rest := imp[dots:]; rest != "" {
		return r.moduleFile(path.Join(dir, strings.ReplaceAll(rest, ".", "/")))
	}
	return r.moduleFile(path.Join(dir, "__init__"))
}

// offsetOf is the byte offset of a 0-based line and byte column of src.
func offsetOf(src []byte, p extract.Pos) (int, bool) {
	line, off := uint32(0), 0
	for line < p.Line {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
		line++
	}
	off += int(p.Col)
	return off, off <= len(src)
}
