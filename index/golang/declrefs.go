package golang

import (
	"path"
	"strings"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// References to one Go declaration. The scan pass stores, with each
// occurrence, whether it follows a "." and which import its qualifier
// names (Occurrence.Sel, Occurrence.Import); that and the importing
// file's stored imports are enough to tell, without parsing anything at
// query time:
//
//   - a package-level declaration in directory D is referred to by pkg.F
//     where pkg is an import naming D, and by a bare F in D's files (or in
//     a file that dot-imports D); x.F after a value is never it.
//   - a method or field is referred to by x.F after a value whose type
//     is the declaration's, embeds it or corresponds to it through an
//     interface (declrefs_operand.go judges x's stored operand descriptor);
//     x.F whose operand the syntax does not describe is Uncertain, and
//     so is, for a field, a bare F in a composite literal key; pkg.F is
//     never it, and an unexported one is never used outside its package.
//
// Occurrences in files whose name or //go:build line excludes them from
// the build the declaration's file is checked in (index.GoPort.Admits) are
// Uncertain: a
// type checker configured for one platform does not see them, but a
// rename must.

// refFilter decides, occurrence by occurrence, whether a reference can
// mean one declaration. Not safe for concurrent use (it caches imports).
type refFilter struct {
	st      *index.Store
	def     index.NameHit
	dir     string
	pkg     string // the package clause of def's file
	imports map[string][]index.ImportPath
	members *memberFilter // for a method or field, made on first use
	port    index.GoPort  // the build def's file is checked in
}

// newRefFilter returns the filter for references to def, a declaration in
// this store; ok is false when def is not a Go declaration, whose
// references are then not filtered.
func newRefFilter(s *index.Store, def index.NameHit) (*refFilter, bool) {
	if !strings.HasSuffix(def.Path, ".go") {
		return nil, false
	}
	f := &refFilter{st: s, def: def, dir: path.Dir(def.Path), imports: map[string][]index.ImportPath{}}
	if det, err := s.Detail(def.Path); err == nil {
		f.pkg = det.Package
	}
	f.port = index.PortOf(def.Path, buildOf(s, def.Path))
	return f, true
}

// namesDir reports whether an import names the declaration's directory.
// The root directory has no path to match (the module path is in go.mod,
// which the index does not read), so there an import binding the root
// package's name counts.
func (f *refFilter) namesDir(ip index.ImportPath) bool {
	if f.dir == "." {
		return !ip.Relative && f.pkg != "" && ip.Name == f.pkg
	}
	return index.ImportNamesDir(ip, f.dir)
}

// fileImports returns p's imports with the names they bind.
func (f *refFilter) fileImports(p string) []index.ImportPath {
	if ips, ok := f.imports[p]; ok {
		return ips
	}
	var ips []index.ImportPath
	if det, err := f.st.Detail(p); err == nil {
		ips = make([]index.ImportPath, len(det.Imports))
		for i, im := range det.Imports {
			ips[i] = index.ImportPath{Path: im.Path, Name: extract.GoImportName(im.Path, im.Name)}
		}
	}
	f.imports[p] = ips
	return ips
}

// keep reports whether the occurrence o in file p can refer to the
// declaration, whether that is uncertain, and whether it is ambiguous
// (RefHit.Ambiguous).
func (f *refFilter) keep(p string, o index.Occurrence) (keep, uncertain, ambiguous bool) {
	if p == f.def.Path && o.Pos == f.def.Selection.Start {
		return true, false, false
	}
	if !strings.HasSuffix(p, ".go") {
		return false, false, false
	}
	keep, uncertain = f.keepGo(p, o)
	if uncertain && f.def.Container != "" {
		ambiguous = !f.memberFilter().alone()
	}
	// A file for another platform is in a build with another variant of
	// the declaration (or none): a rename still has to see it.
	return keep, uncertain || !f.port.Admits(p, buildOf(f.st, p)), ambiguous
}

func (f *refFilter) memberFilter() *memberFilter {
	if f.members == nil {
		f.members = newMemberFilter(f.st, f.def)
	}
	return f.members
}

func (f *refFilter) keepGo(p string, o index.Occurrence) (keep, uncertain bool) {
	if f.def.Container == "" {
		switch {
		case o.Import > 0:
			ips := f.fileImports(p)
			i := int(o.Import) - 1
			return i < len(ips) && f.namesDir(ips[i]), false
		case o.Sel:
			return false, false
		case path.Dir(p) == f.dir:
			return true, false
		}
		for _, ip := range f.fileImports(p) {
			if ip.Name == "." && f.namesDir(index.ImportPath{Path: ip.Path, Name: extract.GoImportName(ip.Path, "")}) {
				return true, false
			}
		}
		return false, false
	}
	switch {
	case o.Import > 0:
		return false, false
	case !f.def.Exported && path.Dir(p) != f.dir:
		// An unexported member is only reachable from its own package.
		return false, false
	case o.Sel, o.Operand > 0 && f.def.Kind == extract.KindField:
		// x.F, or the key F of a literal T{F: v} whose type the
		// extractor wrote down (index/extract/golang_keys.go).
		switch f.memberFilter().verdict(p, o.Operand) {
		case verdictKeep:
			return true, false
		case verdictDrop:
			return false, false
		}
		return true, true
	}
	return f.def.Kind == extract.KindField, true
}

// DeclReferences returns the references to def, a declaration of this
// store (from DefinitionSites), in path and position order: those the
// syntax confirms, and those it allows but cannot confirm, marked
// Uncertain. A declaration outside Go files gets every occurrence of its
// name, all Uncertain. limit <= 0 means no limit.
func DeclReferences(s *index.Store, def index.NameHit, limit int) ([]index.RefHit, error) {
	all, err := s.References(def.Name, 0)
	if err != nil {
		return nil, err
	}
	f, ok := newRefFilter(s, def)
	out := all[:0]
	for _, h := range all {
		if limit > 0 && len(out) == limit {
			break
		}
		if !ok {
			h.Uncertain = true
			out = append(out, h)
			continue
		}
		if h.Decl && def.Container != "" && (h.Path != def.Path || h.Pos != def.Selection.Start) {
			continue // another member's declaration (Circle's Name for Square's)
		}
		keep, unc, amb := f.keep(h.Path, index.Occurrence{Pos: h.Pos, Call: h.Call, Sel: h.Sel, Import: h.Import, Operand: h.Operand})
		if keep {
			h.Uncertain, h.Ambiguous = unc, amb
			out = append(out, h)
		}
	}
	return out, nil
}

// DeclFileReferences is DeclReferences within one file, from a single
// point lookup (document highlights).
func DeclFileReferences(s *index.Store, def index.NameHit, p string) ([]index.RefHit, error) {
	occ, err := s.FileReferences(p, def.Name)
	if err != nil {
		return nil, err
	}
	f, ok := newRefFilter(s, def)
	out := make([]index.RefHit, 0, len(occ))
	for _, o := range occ {
		h := index.RefHit{Path: p, Name: def.Name, Pos: o.Pos, Call: o.Call, Sel: o.Sel, Import: o.Import, Operand: o.Operand, Uncertain: true}
		if ok {
			keep, unc, amb := f.keep(p, o)
			if !keep {
				continue
			}
			h.Uncertain, h.Ambiguous = unc, amb
		}
		out = append(out, h)
	}
	return out, nil
}

// QualifiedDeclarations returns the declarations a qualified name written
// as in source selects: "Server.Serve" (a method or field Serve of a type
// Server, or of a container ending in ".Server") or "http.Get" (a
// package-level Get in a Go file of package http). It is how the CLI and the agent, which have no cursor, name
// one declaration.
func QualifiedDeclarations(s *index.Store, qualifier, name string) ([]index.NameHit, error) {
	sites, err := s.DefinitionSites(name)
	if err != nil {
		return nil, err
	}
	var out []index.NameHit
	for _, h := range sites {
		if h.Name != name {
			continue
		}
		switch {
		case h.Container != "":
			if h.Container == qualifier || strings.HasSuffix(h.Container, "."+qualifier) {
				out = append(out, h)
			}
		case strings.HasSuffix(h.Path, ".go"):
			if det, err := s.Detail(h.Path); err == nil && det.Package == qualifier {
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// ReferencesTo answers a references query by name, as `parley refs` and
// the agent's find_references do: a qualified name that selects exactly
// one declaration (QualifiedDeclarations) gets DeclReferences, the
// language server's answer for that declaration; anything else gets every
// occurrence of the last part (References), none marked Uncertain.
// resolved says which it was.
func ReferencesTo(s *index.Store, qualified string, limit int) (hits []index.RefHit, resolved bool, err error) {
	name := qualified
	if i := strings.LastIndexByte(qualified, '.'); i > 0 && i < len(qualified)-1 {
		name = qualified[i+1:]
		decls, err := QualifiedDeclarations(s, qualified[:i], name)
		if err != nil {
			return nil, false, err
		}
		if len(decls) == 1 {
			hits, err := DeclReferences(s, decls[0], limit)
			return hits, err == nil, err
		}
	}
	hits, err = s.References(name, limit)
	return hits, false, err
}
