package lsp

import (
	"context"
	"errors"
	"path"
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

// Definition ranks the definitions of the identifier under the cursor:
// the same file, then the same directory (package), then files the
// document imports, then the rest; only the best non-empty class is
// returned.
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
	defs, err := s.rankedDefinitions(ctx, d, name)
	if err != nil {
		return nil, err
	}
	out := make(protocol.LocationSlice, 0, len(defs))
	for _, h := range defs {
		out = append(out, s.location(h.f, h.Path, h.Selection))
	}
	return out, nil
}

// rankedHit is a definition with the folder it lives in and its rank.
type rankedHit struct {
	f *folder
	index.NameHit
	rank int
}

const (
	rankSameFile = iota
	rankSameDir
	rankImported
	rankElsewhere
)

// rankedDefinitions returns the best class of definitions of name as seen
// from d, in path order.
func (s *Server) rankedDefinitions(ctx context.Context, d *doc, name string) ([]rankedHit, error) {
	var imports []extract.Import
	if det, err := d.f.store.Detail(d.rel); err == nil {
		imports = det.Imports
	}
	dir := path.Dir(d.rel)
	var all []rankedHit
	for _, f := range s.allFolders() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		hits, err := f.store.DefinitionSites(name)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			r := rankElsewhere
			switch {
			case f != d.f:
			case h.Path == d.rel:
				r = rankSameFile
			case path.Dir(h.Path) == dir:
				r = rankSameDir
			case importsFile(imports, dir, h.Path):
				r = rankImported
			}
			all = append(all, rankedHit{f, h, r})
		}
	}
	if len(all) == 0 {
		return nil, nil
	}
	best := slices.MinFunc(all, func(a, b rankedHit) int { return a.rank - b.rank }).rank
	all = slices.DeleteFunc(all, func(h rankedHit) bool { return h.rank != best })
	return all[:min(len(all), maxDefinitions)], nil
}

// importsFile reports whether one of a file's imports (written in the
// language's own syntax) plausibly names target, a root-relative file
// path: Go and JS paths match a directory or file suffix ("net/http",
// "./util"), dotted module names match as paths ("os.path",
// "com.acme.Widget"), Rust paths with "::" likewise. It is a heuristic on
// purpose: the full import graph costs tens of milliseconds to build,
// a definition answer must take a few.
func importsFile(imports []extract.Import, fromDir, target string) bool {
	targetDir := path.Dir(target)
	targetNoExt := strings.TrimSuffix(target, path.Ext(target))
	for _, imp := range imports {
		p := strings.Trim(imp.Path, "\"'<> ")
		switch {
		case p == "":
			continue
		case strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../"):
			p = path.Join(fromDir, p)
		case strings.Contains(p, "::"):
			p = strings.TrimPrefix(strings.ReplaceAll(p, "::", "/"), "crate/")
		case !strings.Contains(p, "/") && strings.Contains(p, "."):
			p = strings.ReplaceAll(p, ".", "/")
		}
		if hasPathSuffix(targetDir, p) || hasPathSuffix(targetNoExt, p) {
			return true
		}
	}
	return false
}

func hasPathSuffix(p, suffix string) bool {
	return p == suffix || strings.HasSuffix(p, "/"+suffix)
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
