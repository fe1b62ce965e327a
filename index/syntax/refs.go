package syntax

import (
	"bytes"
	"path"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// References is nav.SyntaxReferences for a declaration of language lang.
func References(s *index.Store, lang *RefsLang, t Target, read func(rel string) ([]byte, error)) ([]index.RefHit, error) {
	all, err := s.References(t.Name, 0)
	if err != nil {
		return nil, err
	}
	r := NewResolver(s, read)
	defer r.Release()
	r.IndexOnly = true
	return r.ByFile(all, NewRefs(r, lang, t, all).judge), nil
}

// ByFile answers the occurrences all, in path order, one file at a time
// with judge. A cancelled resolution stops at the next file: judging
// thousands of candidate files still takes the store's reads, and a late
// one holding the tree cache keeps the request that cancelled it waiting
// (nav.CancelledSince tells its caller the answer is cut).
func (r *Resolver) ByFile(all []index.RefHit, judge func(p string, hits []index.RefHit) []index.RefHit) []index.RefHit {
	// Not all[:0]: a file may answer more hits than it had occurrences
	// (__all__ strings).
	out := make([]index.RefHit, 0, len(all))
	for i := 0; i < len(all) && !r.Cancelled(); {
		j := i
		for j < len(all) && all[j].Path == all[i].Path {
			j++
		}
		out = append(out, judge(all[i].Path, all[i:j])...)
		i = j
	}
	return out
}

// FileReferences is syntaxReferences within file p.
func FileReferences(s *index.Store, lang *RefsLang, t Target, p string, read func(rel string) ([]byte, error)) ([]index.RefHit, error) {
	occ, err := s.FileReferences(p, t.Name)
	if err != nil {
		return nil, err
	}
	hits := make([]index.RefHit, len(occ))
	for i, o := range occ {
		hits[i] = index.RefHit{Path: p, Name: t.Name, Pos: o.Pos, Call: o.Call, Sel: o.Sel, Operand: o.Operand}
	}
	r := NewResolver(s, read)
	defer r.Release()
	r.IndexOnly = true
	return NewRefs(r, lang, t, hits).judge(p, hits), nil
}

// NewRefs judges the occurrences all (the candidates) of t's name by
// their descriptors; a TypeScript member is judged against the
// declaration it overrides or implements first (lang.canonical).
func NewRefs(r *Resolver, lang *RefsLang, t Target, all []index.RefHit) *Refs {
	pr := &Refs{R: r, T: t, Lang: lang, Via: t.Name, candidates: map[string]bool{}, leads: map[string]bool{}}
	if lang.Canonical != nil {
		pr.T = lang.Canonical(r, t)
	}
	if t.Container != "" {
		pr.Via = t.Container
	}
	for _, h := range all {
		pr.candidates[h.Path] = true
	}
	return pr
}

// UnknownFile answers the occurrences hits of a file without descriptors
// (its extraction failed), where nothing is known: uncertain when the file
// can see the declaration (sees), left out otherwise.
func UnknownFile(hits []index.RefHit, sees bool) []index.RefHit {
	if !sees {
		return nil
	}
	for i := range hits {
		hits[i].Uncertain = true
	}
	return hits
}

// ByDescriptors keeps of hits, the occurrences in file p, those whose
// descriptor (desc of their operand) eval resolves to pr.t, and those it
// cannot resolve that are attribute uses (attr: x.name with x unknown)
// in a file that sees the declaration, marked Uncertain. Occurrences
// sharing a descriptor are evaluated once.
func (pr *Refs) ByDescriptors(p string, hits []index.RefHit, desc func(op uint32) string,
	eval func(p, d string) (Target, bool), attr func(d string) bool, sees func() bool) []index.RefHit {
	t := pr.T
	type verdict struct {
		got Target
		ok  bool
	}
	verdicts := map[uint32]verdict{}
	var out []index.RefHit
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
// pr.t (the language's judge).
func (pr *Refs) judge(p string, hits []index.RefHit) []index.RefHit {
	return pr.Lang.Judge(pr, p, hits)
}

// RefsLang is what a language gives the shared judge of references
// (Refs).
type RefsLang struct {
	// TS: a barrel re-exports a class without spelling it (export *).
	TS bool
	// Canonical is the declaration references to t count against; nil
	// for t itself.
	Canonical func(r *Resolver, t Target) Target
	// ModuleFile resolves an import of file p, as the extractor stored
	// it, to a module file, or "".
	ModuleFile func(r *Resolver, p, imp string) string
	// Export is what module file mod binds the name via to.
	Export func(r *Resolver, mod, via string) Value
	// Judge keeps of hits, the occurrences in file p, those that refer
	// to pr.t.
	Judge func(pr *Refs, p string, hits []index.RefHit) []index.RefHit
}

// Refs judges the occurrences of one declaration's name (T) by their
// descriptors, for one request: NewRefs makes it, its language's Judge
// keeps a file's references.
type Refs struct {
	Lang       *RefsLang
	R          *Resolver
	T          Target
	Via        string          // the name other files must import: t's, or its class's
	candidates map[string]bool // files that spell t.Name
	leads      map[string]bool // module file -> binds via to t's declaration
	viaFiles   map[string]bool // files that spell via, when it is not t.Name
}

// SeesDeclaration reports whether one of p's imports leads to the target's
// module, or to a module that binds pr.via to the target's declaration.
func (pr *Refs) SeesDeclaration(p string) bool {
	det, err := pr.R.St.Detail(p)
	if err != nil {
		return false
	}
	for _, im := range det.Imports {
		mod := pr.Lang.ModuleFile(pr.R, p, im.Path)
		if mod == "" {
			continue
		}
		if mod == pr.T.Path || pr.reexports(mod) {
			return true
		}
		// from pkg import mod: the package's __init__, and p names the
		// module (any of pkg's modules would be too loose: importing
		// importlib would see all of importlib's files).
		owner := path.Dir(pr.T.Path) // the package holding the module
		if b := path.Base(pr.T.Path); b == "__init__.py" || b == "__init__.pyi" {
			owner = path.Dir(owner)
		}
		if path.Base(mod) == "__init__.py" && path.Dir(mod) == owner {
			if src, err := pr.R.Read(p); err == nil && bytes.Contains(src, []byte(ModuleTarget(pr.T.Path).Name)) {
				return true
			}
		}
	}
	return false
}

// reexports reports whether module file mod binds pr.via to the target's
// declaration (or its class). Only a module that spells the name can.
func (pr *Refs) reexports(mod string) bool {
	if v, ok := pr.leads[mod]; ok {
		return v
	}
	pr.leads[mod] = false
	if !pr.spellsVia(mod) {
		return false
	}
	pr.R.Steps = 0
	got, ok := pr.Lang.Export(pr.R, mod, pr.Via).Target()
	lead := ok && got.Path == pr.T.Path
	if pr.T.Container == "" {
		lead = lead && got.Selection == pr.T.Selection
	}
	pr.leads[mod] = lead
	return lead
}

// spellsVia reports whether file p spells pr.via: only such a module can
// bind it (a star import cannot be told without evaluating it, and only
// decides whether an unknown x.name is listed uncertain). For a Python
// member, via is its class's name, whose files are read once, on first
// use.
func (pr *Refs) spellsVia(p string) bool {
	switch {
	case pr.Via == pr.T.Name:
		return pr.candidates[p]
	case pr.Lang.TS:
		// A TypeScript barrel re-exports a class without spelling it
		// (export * from).
		return true
	}
	if pr.viaFiles == nil {
		pr.viaFiles = map[string]bool{}
		hits, _ := pr.R.St.References(pr.Via, 0)
		for _, h := range hits {
			pr.viaFiles[h.Path] = true
		}
	}
	return pr.viaFiles[p]
}

// OffsetOf is the byte offset of a 0-based line and byte column of src.
func OffsetOf(src []byte, p extract.Pos) (int, bool) {
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
