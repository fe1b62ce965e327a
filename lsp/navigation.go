package lsp

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/workspace"
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
// at pos of d, in folder and path order; resolved is set when the use's
// syntax settled them (index.RankResolved or a member of x's type) rather
// than proximity.
func (s *Server) rankedDefinitions(ctx context.Context, d *doc, pos protocol.Position, name string) (defs []folderHit, resolved bool, err error) {
	from, err := d.f.store.DefinitionContext(d.rel)
	if err != nil && !errors.Is(err, index.ErrNotIndexed) {
		return nil, false, err
	}
	off, err := s.offset(d, pos)
	if err != nil {
		return nil, false, err
	}
	use := index.UseAt(d.content, off)
	if h, ok := s.pyDefinition(ctx, d, off); ok {
		return []folderHit{h}, true, nil
	}
	if use.Selector && strings.HasSuffix(d.rel, ".go") {
		// x.F where the syntax gives x's type: the members of that type.
		if hits, ok := d.f.store.GoMemberDefinitions(d.rel, d.content, off); ok && len(hits) > 0 {
			out := make([]folderHit, 0, len(hits))
			for _, h := range hits {
				out = append(out, folderHit{d.f, h.NameHit()})
			}
			return out[:min(len(out), maxDefinitions)], true, nil
		}
	}
	var all []folderHit
	for _, f := range s.allFolders() {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		hits, err := f.store.DefinitionSites(name)
		if err != nil {
			return nil, false, err
		}
		for _, h := range hits {
			all = append(all, folderHit{f, h})
		}
	}
	rank := func(h folderHit) index.DefinitionRank {
		if h.f != d.f {
			return index.RankElsewhere
		}
		return from.RankUse(use, h.Path, h.Container)
	}
	best := index.SortDefinitions(all, rank)
	resolved = best > 0 && rank(all[0]) == index.RankResolved
	return all[:min(best, maxDefinitions)], resolved, nil
}

// declarationAt returns the one declaration the identifier at pos means:
// the declaration whose name it is, or the single resolved definition of
// the use. ok is false when the syntax does not settle it.
func (s *Server) declarationAt(ctx context.Context, d *doc, pos protocol.Position, name string) (folderHit, bool, error) {
	off, err := s.offset(d, pos)
	if err != nil {
		return folderHit{}, false, err
	}
	start := index.IdentStart(d.content, off)
	sites, err := d.f.store.DefinitionSites(name)
	if err != nil {
		return folderHit{}, false, err
	}
	for _, h := range sites {
		if h.Path != d.rel || h.Name != name {
			continue
		}
		if o, err := d.lines.Offset(h.Selection.Start.Line, h.Selection.Start.Col, workspace.UTF8); err == nil && o == start {
			return folderHit{d.f, h}, true, nil
		}
	}
	defs, resolved, err := s.rankedDefinitions(ctx, d, pos, name)
	if err != nil || !resolved || len(defs) != 1 {
		return folderHit{}, false, err
	}
	return defs[0], true, nil
}

// References answers, when the syntax settles which declaration the
// identifier means (declarationAt), the references index.DeclReferences
// keeps for it in that declaration's folder: confirmed ones and those the
// syntax allows but cannot confirm (x.F with x of unknown type), which LSP
// has no way to mark. Otherwise every occurrence of the name, in every
// folder, as before resolution existed.
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
	if out, ok, err := s.pyReferences(ctx, d, p.Position, p.Context.IncludeDeclaration); ok || err != nil {
		return out, err
	}
	out := []protocol.Location{}
	decl, ok, err := s.declarationAt(ctx, d, p.Position, name)
	if err != nil {
		return nil, err
	}
	if ok {
		decl.f.awaitAll(ctx)
		hits, err := decl.f.store.DeclReferences(decl.NameHit, 0)
		if err != nil {
			return nil, err
		}
		return s.refLocations(ctx, decl.f, hits, name, p.Context.IncludeDeclaration, out)
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
	if pyOcc, py, err := s.pyHighlights(ctx, d, p.Position); err != nil {
		return nil, err
	} else if py {
		occ = pyOcc
	} else if decl, ok, err := s.declarationAt(ctx, d, p.Position, name); err != nil {
		return nil, err
	} else if ok && decl.f == d.f {
		occ, err = d.f.store.DeclFileReferences(decl.NameHit, d.rel)
		if err != nil && !errors.Is(err, index.ErrNotIndexed) {
			return nil, err
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
