package index

import (
	"bytes"
	"path"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// References to one resolved Python declaration (PyTarget), decided with
// as little parsing as the answer allows; parsing every file that spells
// the name would cost about a second per hundred files.
//
//   - the declaration's own file is parsed and each occurrence resolved:
//     kept when it resolves to the declaration, dropped when it resolves
//     elsewhere, kept Uncertain when it is x.name with x unknown.
//   - a local (function, lambda or comprehension binding) has no other
//     file.
//   - another file can refer to a module-level declaration only when one
//     of its stored imports leads to it: imports the declaration's module,
//     or a module that binds the name to the declaration (a re-export,
//     which must itself spell the name, so only files among the
//     candidates are parsed to check). Such files are parsed and resolved
//     like the declaration's own while pyRefsParseBytes lasts; past it,
//     their occurrences are kept, x.name after a qualifier other than the
//     module's name Uncertain.
//   - a member of a class (method, field, self.x) is referred to by x.name
//     in files that can see the class (as above, by the class's name);
//     those are Uncertain, since x's type is not known without parsing.
//     Bare occurrences in other files are dropped.

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
	pr := &pyRefs{r: r, t: t, ts: isTSFile(t.Path), candidates: map[string]bool{}, leads: map[string]bool{}}
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
	// Not all[:0]: a file may answer more than its occurrences (doc links).
	out := make([]RefHit, 0, len(all))
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].Path == all[i].Path {
			j++
		}
		out = append(out, pr.file(all[i].Path, all[i:j])...)
		i = j
	}
	return out, nil
}

// PyFileReferences is PyReferences within file p (document highlights).
func (s *Store) PyFileReferences(t PyTarget, p string, read func(rel string) ([]byte, error)) ([]RefHit, error) {
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
}

// file filters the occurrences hits of one file.
func (pr *pyRefs) file(p string, hits []RefHit) []RefHit {
	t := pr.t
	if (pr.ts && !isTSFile(p)) || (!pr.ts && !isPyFile(p)) || (t.Local && p != t.Path) {
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
	if pr.r.parsed+len(src) <= pyRefsParseBytes {
		return pr.resolveEach(p, hits)
	}
	modName := moduleTarget(t.Path).Name
	var out []RefHit
	for _, h := range hits {
		off, ok := offsetOf(src, h.Pos)
		if !ok {
			continue
		}
		use := UseAt(src, off)
		switch {
		case t.Container != "":
			if !use.Selector {
				continue
			}
			h.Uncertain = true
		case use.Selector:
			h.Uncertain = use.Qualifier != modName
		}
		out = append(out, h)
	}
	return out
}

// resolveEach parses p and keeps the occurrences that resolve to the
// target (and, Uncertain, attributes of unknown values).
func (pr *pyRefs) resolveEach(p string, hits []RefHit) []RefHit {
	var f *pyFile
	if pr.ts {
		f = pr.r.tsFile(p, nil)
	} else {
		f = pr.r.file(p, nil)
	}
	if f == nil {
		for i := range hits {
			hits[i].Uncertain = true
		}
		return hits
	}
	var out []RefHit
	for _, h := range hits {
		off, ok := offsetOf(f.src, h.Pos)
		if !ok {
			continue
		}
		pr.r.steps = 0 // each occurrence gets the full budget
		got, ok := pr.resolveAt(f, off)
		switch {
		case ok && got.Path == pr.t.Path && got.Selection == pr.t.Selection:
			out = append(out, h)
		case !ok && UseAt(f.src, off).Selector:
			h.Uncertain = true
			out = append(out, h)
		}
	}
	if pr.ts {
		out = pr.tsDocLinks(f, out)
	}
	return out
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
		// import pkg.mod / from pkg import mod: the package's __init__.
		if strings.HasPrefix(pr.t.Path, strings.TrimSuffix(mod, "__init__.py")) && path.Base(mod) == "__init__.py" {
			return true
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
	if !pr.candidates[mod] && pr.via == pr.t.Name {
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

// resolveAt resolves the identifier at byte offset off of f.
func (pr *pyRefs) resolveAt(f *pyFile, off int) (PyTarget, bool) {
	if pr.ts {
		if id := tsIdentAt(f, off); id != nil {
			return pr.r.tsResolveIdent(f, id)
		}
		return PyTarget{}, false
	}
	if id := pyIdentAt(f, off); id != nil {
		return pr.r.resolveIdent(f, id)
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
