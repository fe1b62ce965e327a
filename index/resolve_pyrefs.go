package index

import (
	"bytes"
	"path"
	"strings"
	"time"

	"github.com/parleyhq/parley/index/extract"
)

// References to one resolved declaration (PyTarget). Python's are judged
// from the descriptors stored with each occurrence (resolve_pyidxrefs.go)
// and parse nothing. TypeScript's and JavaScript's are decided here with
// as little parsing as the answer allows; parsing every file that spells
// the name would cost about a second per hundred files.
//
//   - the declaration's own file is parsed and each occurrence resolved:
//     kept when it resolves to the declaration, dropped when it resolves
//     elsewhere, kept Uncertain when it is x.name with x unknown.
//   - a local has no other file.
//   - another file can refer to a module-level declaration only when one
//     of its stored imports leads to it: imports the declaration's module,
//     or a module that binds the name to the declaration (a re-export,
//     which must itself spell the name, so only files among the
//     candidates are parsed to check). Such files are parsed and resolved
//     like the declaration's own (files whose tree is at hand always)
//     while pyRefsParseBytes lasts, and, for PyReferencesBy, while a parse
//     at the speed seen lately would end before its deadline (from then
//     on no other file is parsed, also not for an occurrence's
//     resolution; such an occurrence is judged as below); past that, they
//     are judged by their text: their occurrences are kept, x.name after
//     a qualifier other than the module's name Uncertain.
//   - a member of a class is used through values whose type flows in
//     without an import of its class: every file spelling it is a
//     candidate, and unparsed, its x.name uses are Uncertain.

// PyReferences returns the references to t, a Python, TypeScript or
// JavaScript declaration (PyDefinitions, TSDefinitions), in path and
// position order; read returns the content of a file of the store.
func (s *Store) PyReferences(t PyTarget, read func(rel string) ([]byte, error)) ([]RefHit, error) {
	return s.PyReferencesBy(t, read, time.Time{})
}

// PyReferencesBy is PyReferences answering by deadline (none when zero):
// past it, occurrences of TypeScript and JavaScript in other files than
// the declaration's are judged by their file's imports and their text,
// without parsing. Python's parse nothing and need no deadline.
func (s *Store) PyReferencesBy(t PyTarget, read func(rel string) ([]byte, error), deadline time.Time) ([]RefHit, error) {
	if !isTSFile(t.Path) {
		return s.pyIndexedReferences(t, read)
	}
	all, err := s.References(t.Name, 0)
	if err != nil {
		return nil, err
	}
	r := newPyResolver(s, read)
	defer r.release()
	pr := &pyRefs{r: r, t: t, ts: isTSFile(t.Path), candidates: map[string]bool{}, leads: map[string]bool{}}
	// Past the deadline, resolving an occurrence parses nothing new: in a
	// file with a hundred occurrences each may lead to other modules, which
	// took references seconds past their budget. Such occurrences are
	// judged as unparsed files' are (judge).
	r.parseBy, r.except = deadline, t.Path
	if pr.ts {
		pr.t = r.tsCanonical(t) // what uses resolve to: an overload group's first, a member's root
	}
	for _, h := range all {
		pr.candidates[h.Path] = true
	}
	// Members are found through their class: files that see it.
	pr.via = t.Name
	if t.Container != "" {
		pr.via = t.Container
	}
	return r.byFile(all, pr.file), nil
}

// byFile answers the occurrences all, in path order, one file at a time
// with judge. A cancelled resolution stops at the next file: judging
// thousands of candidate files still takes the store's reads, and a late
// one holding the tree cache keeps the request that cancelled it waiting
// (Store.CancelledSince tells its caller the answer is cut).
func (r *pyResolver) byFile(all []RefHit, judge func(p string, hits []RefHit) []RefHit) []RefHit {
	// Not all[:0]: a file may answer more hits than it had occurrences
	// (__all__ strings, doc links).
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
	if !isTSFile(t.Path) {
		return s.pyIndexedFileReferences(t, p, read)
	}
	occ, err := s.FileReferences(p, t.Name)
	if err != nil {
		return nil, err
	}
	hits := make([]RefHit, len(occ))
	for i, o := range occ {
		hits[i] = RefHit{Path: p, Name: t.Name, Pos: o.Pos, Call: o.Call, Sel: o.Sel}
	}
	r := newPyResolver(s, read)
	defer r.release()
	pr := &pyRefs{r: r, t: t, ts: isTSFile(t.Path), via: t.Name, candidates: map[string]bool{p: true}, leads: map[string]bool{}}
	if pr.ts {
		pr.t = r.tsCanonical(t)
	}
	if t.Container != "" {
		pr.via = t.Container
	}
	return pr.file(p, hits), nil
}

// pyRefsParseBytes is the part of pyParseBytes a references query may
// spend on parsing files that see the declaration to resolve their
// occurrences one by one; the rest are judged by their imports and text
// alone, and the remainder of the budget is left for what resolving
// needs (the modules and classes the occurrences lead to).
const pyRefsParseBytes = 256 << 10

type pyRefs struct {
	ts         bool // TypeScript or JavaScript, not Python
	r          *pyResolver
	t          PyTarget
	via        string          // the name other files must import: t's, or its class's
	candidates map[string]bool // files that spell t.Name
	leads      map[string]bool // module file -> binds via to t's declaration
	indexed    bool            // Python: judged by descriptors (indexedFile)
	viaFiles   map[string]bool // files that spell via, when it is not t.Name
}

// file filters the occurrences hits of one file.
func (pr *pyRefs) file(p string, hits []RefHit) []RefHit {
	if pr.indexed {
		return pr.indexedFile(p, hits)
	}
	t := pr.t
	if !isTSFile(p) || (t.Local && p != t.Path) {
		return nil
	}
	if p == t.Path {
		return pr.resolveEach(p, hits)
	}
	// A TypeScript member is used through values whose type flows in
	// without an import of its class (callback parameters, call results):
	// every file spelling it is a candidate.
	if !(pr.ts && t.Container != "") && !pr.seesDeclaration(p) {
		return nil
	}
	src, err := pr.r.read(p)
	if err != nil {
		return nil
	}
	if pr.parsedBefore(p, src) || (pr.r.parsed+len(src) <= pyRefsParseBytes && pr.r.parseFits(len(src))) {
		return pr.resolveEach(p, hits)
	}
	judge := pr.judge(p, src)
	var out []RefHit
	for _, h := range hits {
		if h, ok := judge(h); ok {
			out = append(out, h)
		}
	}
	return out
}

// judge returns how an occurrence in file p (content src), a file that
// sees the declaration, is judged without resolving it: kept or not, and
// uncertain when the text allows another meaning.
func (pr *pyRefs) judge(p string, src []byte) func(h RefHit) (RefHit, bool) {
	t := pr.t
	modName := moduleTarget(t.Path).Name
	return func(h RefHit) (RefHit, bool) {
		off, ok := offsetOf(src, h.Pos)
		if !ok {
			return h, false
		}
		use := UseAt(src, off)
		switch {
		case t.Container != "":
			if !use.Selector {
				return h, false
			}
			h.Uncertain = true
		case use.Selector:
			h.Uncertain = use.Qualifier != modName
		}
		return h, true
	}
}

// resolveEach parses p and keeps the occurrences that resolve to the
// target (and, Uncertain, attributes of unknown values).
func (pr *pyRefs) resolveEach(p string, hits []RefHit) []RefHit {
	f := pr.r.tsFile(p, nil)
	if f == nil {
		for i := range hits {
			hits[i].Uncertain = true
		}
		return hits
	}
	var out []RefHit
	var judge func(RefHit) (RefHit, bool)
	for _, h := range hits {
		off, ok := offsetOf(f.src, h.Pos)
		if !ok {
			continue
		}
		pr.r.steps = 0 // each occurrence gets the full budget
		pr.r.hitWall = false
		got, ok := pr.resolveAt(f, off)
		switch {
		case ok && got.Path == pr.t.Path && got.Selection == pr.t.Selection:
			out = append(out, h)
		case !ok && pr.r.hitWall && p != pr.t.Path:
			// Not settled for want of a parse past the deadline.
			if judge == nil {
				judge = pr.judge(p, f.src)
			}
			if h, ok := judge(h); ok {
				out = append(out, h)
			}
		case !ok && UseAt(f.src, off).Selector:
			h.Uncertain = true
			out = append(out, h)
		}
	}
	return pr.tsDocLinks(f, out)
}

// parsedBefore reports whether the tree of p, whose content is src, is at
// hand (this request's, or the cache's): resolving its occurrences then
// costs no parsing, so it is done whatever the budgets say. The buffer a
// request comes from is one.
func (pr *pyRefs) parsedBefore(p string, src []byte) bool {
	key := pr.treeKey(p)
	if f, ok := pr.r.files[key]; ok {
		return f != nil
	}
	f, _ := pr.r.st.py.get(key, src)
	return f != nil
}

// treeKey is p's key in the tree cache.
func (pr *pyRefs) treeKey(p string) string { return tsGrammar(p) + ":" + p }

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
		v = pr.r.tsExport(mod, pr.via)
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

// resolveAt resolves the TypeScript or JavaScript identifier at byte
// offset off of f.
func (pr *pyRefs) resolveAt(f *pyFile, off int) (PyTarget, bool) {
	if id := tsIdentAt(f, off); id != nil {
		return pr.r.tsResolveIdent(f, id)
	}
	return PyTarget{}, false
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
