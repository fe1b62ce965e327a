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
	defs, err := s.rankedDefinitions(ctx, d, p.Position, name)
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
// at pos of d, in folder and path order.
func (s *Server) rankedDefinitions(ctx context.Context, d *doc, pos protocol.Position, name string) ([]folderHit, error) {
	from, err := d.f.store.DefinitionContext(d.rel)
	if err != nil && !errors.Is(err, index.ErrNotIndexed) {
		return nil, err
	}
	off, err := s.offset(d, pos)
	if err != nil {
		return nil, err
	}
	use := index.UseAt(d.content, off)
	if use.Selector && strings.HasSuffix(d.rel, ".go") {
		// x.F where the syntax gives x's type: the members of that type.
		if hits, ok := d.f.store.GoMemberDefinitions(d.rel, d.content, off); ok && len(hits) > 0 {
			out := make([]folderHit, 0, len(hits))
			for _, h := range hits {
				out = append(out, folderHit{d.f, h.NameHit()})
			}
			return out[:min(len(out), maxDefinitions)], nil
		}
	}
	var all []folderHit
	for _, f := range s.allFolders() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		hits, err := f.store.DefinitionSites(name)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			all = append(all, folderHit{f, h})
		}
	}
	best := index.SortDefinitions(all, func(h folderHit) index.DefinitionRank {
		if h.f != d.f {
			return index.RankElsewhere
		}
		return from.RankUse(use, h.Path, h.Container)
	})
	return all[:min(best, maxDefinitions)], nil
}

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
	out := []protocol.Location{}
	for _, f := range s.allFolders() {
		f.awaitAll(ctx)
		hits, err := f.store.References(name, 0)
		if err != nil {
			return nil, err
		}
		out = slices.Grow(out, len(hits))
		// Hits come grouped by file: resolve each file's URI and line
		// table once.
		var lastPath string
		var u uri.URI
		var lines columns
		for _, h := range hits {
			if h.Decl && !p.Context.IncludeDeclaration {
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
	occ, err := d.f.store.FileReferences(d.rel, name)
	if err != nil && !errors.Is(err, index.ErrNotIndexed) {
		return nil, err
	}
	out := make([]protocol.DocumentHighlight, 0, len(occ))
	for _, o := range occ {
		out = append(out, protocol.DocumentHighlight{Range: s.toRange(d.lines, nameRange(o.Pos, name)), Kind: protocol.DocumentHighlightKindText})
	}
	return out, nil
}
