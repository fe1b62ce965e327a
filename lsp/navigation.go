package lsp

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/nav"
)

// maxDefinitions caps a definition answer; a name defined in hundreds of
// places (Close, String) is better searched than listed.
const maxDefinitions = 50

// Definition ranks the definitions of the identifier under the cursor
// (index.DefinitionRank: what the use's syntax resolves to, then the same
// file, the same directory, files the document imports, the rest); only
// the best non-empty class is returned.
func (s *Server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	d, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	name, err := s.identOf(d, p.Position)
	if errors.Is(err, errNoIdent) {
		return protocol.LocationSlice{}, nil
	}
	if err != nil {
		return nil, err
	}
	defs, _, err := s.rankedDefinitions(ctx, d, p.Position, name)
	if err != nil {
		return nil, err
	}
	out := make(protocol.LocationSlice, 0, len(defs))
	for _, h := range defs {
		out = append(out, s.location(h.f, h.Path, h.Selection))
	}
	return out, nil
}

// folderHit is a definition with the folder it lives in.
type folderHit struct {
	f *folder
	index.NameHit
}

// rankedDefinitions returns the best class of definitions of name, used
// at pos of d (nav.Definitions, the one order of attempts the CLI and the
// agent's tools share, each resolution from syntax within the resolve
// budget), in folder and path order; resolved is set
// when the use's syntax settled them. Other folders only matter when d's
// own folder has nothing closer than RankElsewhere.
func (s *Server) rankedDefinitions(ctx context.Context, d *doc, pos protocol.Position, name string) (defs []folderHit, resolved bool, err error) {
	off, err := s.offset(d, pos)
	if err != nil {
		return nil, false, err
	}
	hits, rank, err := nav.Definitions(d.f.store, nav.Position{From: d.rel, Src: d.content, Off: off, Name: name}, s.navOptions(ctx, d))
	if err != nil {
		return nil, false, err
	}
	for _, h := range hits {
		defs = append(defs, folderHit{d.f, h})
	}
	if rank == index.RankElsewhere || len(hits) == 0 {
		for _, f := range s.allFolders() {
			if ctx.Err() != nil {
				return nil, false, ctx.Err()
			}
			if f == d.f {
				continue
			}
			other, err := f.store.DefinitionSites(name)
			if err != nil {
				return nil, false, err
			}
			for _, h := range other {
				defs = append(defs, folderHit{f, h})
			}
		}
	}
	return defs[:min(len(defs), maxDefinitions)], len(hits) > 0 && rank == index.RankResolved, nil
}

// declarationAt returns the one declaration the identifier at pos means
// (nav.DeclarationAt); ok is false when the syntax does not
// settle it.
func (s *Server) declarationAt(_ context.Context, d *doc, pos protocol.Position, name string) (folderHit, bool, error) {
	off, err := s.offset(d, pos)
	if err != nil {
		return folderHit{}, false, err
	}
	h, ok, err := nav.DeclarationAt(d.f.store, d.rel, d.content, off, name)
	return folderHit{d.f, h}, ok, err
}

// References answers what nav.References settles in the document's
// folder, each resolution from syntax within the resolve budget
// (navOptions): a local's occurrences in its buffer; the references to a
// Python, TypeScript or JavaScript declaration, without those the syntax
// cannot confirm (pyCertain); none for a Go predeclared name, a member of
// unsafe, a keyword or a word in a comment or string, as gopls; the
// references to the one declaration the syntax settles, limited to what
// a rename must change (goReferences). Otherwise, for Go, the references
// to each of a few candidates (candidateReferences), else every
// occurrence of the name, in every folder, as before resolution existed.
func (s *Server) References(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	d, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	name, err := s.identOf(d, p.Position)
	if errors.Is(err, errNoIdent) {
		return []protocol.Location{}, nil
	}
	if err != nil {
		return nil, err
	}
	off, err := s.offset(d, p.Position)
	if err != nil {
		return nil, err
	}
	o := s.navOptions(ctx, d)
	o.Settle = func() { d.f.awaitAll(ctx) }
	o.NoNames = true
	r, err := nav.References(d.f.store, nav.Position{From: d.rel, Src: d.content, Off: off, Name: name}, o)
	out := []protocol.Location{}
	switch {
	case errors.Is(err, nav.ErrNoReferences):
		// nil, len, unsafe.Pointer, a keyword, a word in a comment or
		// string: nothing to rename, and gopls answers none.
		return out, nil
	case err != nil:
		return nil, err
	case r.Step == nav.StepLocal:
		return s.refLocations(ctx, d.f, r.Hits, r.Local.Name, p.Context.IncludeDeclaration, out)
	case r.Step == nav.StepSyntax:
		return s.refLocations(ctx, d.f, pyCertain(r.Target, r.Hits), r.Target.Name, p.Context.IncludeDeclaration, out)
	case r.Step == nav.StepGoBuffer:
		return s.refLocations(ctx, d.f, r.Hits, name, p.Context.IncludeDeclaration, out)
	case r.Step == nav.StepDeclaration:
		hits := r.Hits
		if strings.HasSuffix(d.rel, ".go") {
			hits = goReferences(d.f.store, d.rel, r.Decl, hits)
		}
		return s.refLocations(ctx, d.f, hits, name, p.Context.IncludeDeclaration, out)
	}
	if strings.HasSuffix(d.rel, ".go") {
		// The syntax leaves a few candidates (x.F with x of unknown
		// type): the references to each of them, rather than every
		// occurrence of the name.
		if hits, ok, err := s.candidateReferences(ctx, d, p.Position, name); err != nil || ok {
			if err != nil {
				return nil, err
			}
			return s.refLocations(ctx, d.f, hits, name, p.Context.IncludeDeclaration, out)
		}
	}
	for _, f := range s.allFolders() {
		f.awaitAll(ctx)
		hits, err := f.store.References(name, 0)
		if err != nil {
			return nil, err
		}
		if out, err = s.refLocations(ctx, f, hits, name, p.Context.IncludeDeclaration, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// maxCandidates bounds the declarations candidateReferences unites.
const maxCandidates = 8

// candidateReferences answers references for a Go use the syntax does not
// settle to one declaration but to a best class of a few (rankedDefinitions
// in d's folder): the union of each one's references as References gives
// them, in path and position order. ok is false when there are none or
// too many, and every occurrence of the name is then the answer.
func (s *Server) candidateReferences(ctx context.Context, d *doc, pos protocol.Position, name string) ([]index.RefHit, bool, error) {
	defs, _, err := s.rankedDefinitions(ctx, d, pos, name)
	if err != nil || len(defs) == 0 || len(defs) > maxCandidates {
		return nil, false, err
	}
	d.f.awaitAll(ctx)
	seen := map[string]bool{}
	var out []index.RefHit
	for _, def := range defs {
		if def.f != d.f {
			return nil, false, nil
		}
		hits, err := nav.DeclReferences(d.f.store, def.NameHit, 0)
		if err != nil {
			return nil, false, err
		}
		for _, h := range goReferences(d.f.store, d.rel, def.NameHit, hits) {
			k := h.Path + ":" + strconv.Itoa(int(h.Pos.Line)) + ":" + strconv.Itoa(int(h.Pos.Col))
			if !seen[k] {
				seen[k] = true
				out = append(out, h)
			}
		}
	}
	slices.SortFunc(out, func(a, b index.RefHit) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	return out, true, nil
}

// goReferences keeps, of the references to decl found from the Go file
// from, those in the build from is compiled in (nav.BuildScope:
// its platform, its module, not testdata), the declaration itself
// wherever it is, and drops the ambiguous ones: x.F of unknown type where
// another type's F could be meant. LSP has no way to mark a location
// uncertain, and an editor's rename applies every location it gets, so
// the server answers what a type checker configured for from would; the
// CLI and the agent's tool keep the rest, marked uncertain.
func goReferences(st *index.Store, from string, decl index.NameHit, hits []index.RefHit) []index.RefHit {
	inBuild := nav.BuildScope(st, from, decl.Path)
	out := hits[:0]
	for _, h := range hits {
		isDecl := h.Path == decl.Path && h.Pos == decl.Selection.Start
		if isDecl || (!h.Ambiguous && inBuild(h.Path)) {
			out = append(out, h)
		}
	}
	return out
}

// refLocations appends the locations of hits, references in folder f.
func (s *Server) refLocations(ctx context.Context, f *folder, hits []index.RefHit, name string, includeDecl bool, out []protocol.Location) ([]protocol.Location, error) {
	out = slices.Grow(out, len(hits))
	// Hits come grouped by file: resolve each file's URI and line table
	// once.
	var lastPath string
	var u uri.URI
	var lines columns
	for _, h := range hits {
		if h.Decl && !includeDecl {
			continue
		}
		if h.Path != lastPath {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			abs := filepath.Join(f.root, filepath.FromSlash(h.Path))
			lastPath, u, lines = h.Path, uri.File(abs), s.linesOf(f, h.Path, abs)
		}
		out = append(out, protocol.Location{URI: u, Range: s.toRange(lines, nameRange(h.Pos, name))})
	}
	return out, nil
}

// nameRange is the range of an occurrence of name starting at p.
func nameRange(p extract.Pos, name string) extract.Range {
	return extract.Range{Start: p, End: extract.Pos{Line: p.Line, Col: p.Col + uint32(len(name))}}
}

func (s *Server) DocumentHighlight(ctx context.Context, p *protocol.DocumentHighlightParams) ([]protocol.DocumentHighlight, error) {
	d, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	name, err := s.identOf(d, p.Position)
	if errors.Is(err, errNoIdent) {
		return []protocol.DocumentHighlight{}, nil
	}
	if err != nil {
		return nil, err
	}
	var occ []index.RefHit
	if l, local, err := s.localAt(ctx, d, p.Position); err != nil {
		return nil, err
	} else if local {
		occ, name = l.RefHits(), l.Name
	} else if pyOcc, py, err := s.pyHighlights(ctx, d, p.Position); err != nil {
		return nil, err
	} else if py {
		occ = pyOcc
	} else if decl, ok, err := s.declarationAt(ctx, d, p.Position, name); err != nil {
		return nil, err
	} else if ok && decl.f == d.f {
		occ, err = nav.DeclFileReferences(d.f.store, decl.NameHit, d.rel)
		if err != nil && !errors.Is(err, index.ErrNotIndexed) {
			return nil, err
		}
		if strings.HasSuffix(d.rel, ".go") {
			occ = goReferences(d.f.store, d.rel, decl.NameHit, occ)
		}
	} else if !ok {
		all, err := d.f.store.FileReferences(d.rel, name)
		if err != nil && !errors.Is(err, index.ErrNotIndexed) {
			return nil, err
		}
		for _, o := range all {
			occ = append(occ, index.RefHit{Pos: o.Pos})
		}
	}
	out := make([]protocol.DocumentHighlight, 0, len(occ))
	for _, o := range occ {
		out = append(out, protocol.DocumentHighlight{Range: s.toRange(d.lines, nameRange(o.Pos, name)), Kind: protocol.DocumentHighlightKindText})
	}
	return out, nil
}
