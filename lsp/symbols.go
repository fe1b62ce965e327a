package lsp

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// workspaceSymbolLimit caps workspace/symbol answers, as gopls does: the
// client filters further as the user types.
const workspaceSymbolLimit = 256

func (s *Server) DocumentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	d, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	syms, err := d.f.store.Symbols(d.rel)
	if err != nil {
		return nil, err
	}
	if !s.caps.hierarchicalSymbols {
		out := make(protocol.SymbolInformationSlice, 0, len(syms))
		for _, sym := range syms {
			out = append(out, s.symbolInformation(d.abs, d.lines, sym))
		}
		return out, nil
	}
	return protocol.DocumentSymbolSlice(s.documentSymbols(d, index.BuildOutline(syms))), nil
}

func (s *Server) documentSymbols(d *doc, nodes []*index.OutlineNode) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, 0, len(nodes))
	for _, n := range nodes {
		sym := n.Symbol
		ds := protocol.DocumentSymbol{
			Name:           sym.Name,
			Kind:           protocol.SymbolKind(sym.Kind),
			Range:          s.toRange(d.lines, sym.Range),
			SelectionRange: s.toRange(d.lines, sym.Selection),
		}
		if sym.Signature != "" {
			ds.Detail = ptr(sym.Signature)
		}
		if len(n.Children) > 0 {
			ds.Children = s.documentSymbols(d, n.Children)
		}
		out = append(out, ds)
	}
	return out
}

func (s *Server) symbolInformation(abs string, lines columns, sym extract.Symbol) protocol.SymbolInformation {
	si := protocol.SymbolInformation{
		BaseSymbolInformation: protocol.BaseSymbolInformation{Name: sym.Name, Kind: protocol.SymbolKind(sym.Kind)},
		Location:              protocol.Location{URI: uri.File(abs), Range: s.toRange(lines, sym.Selection)},
	}
	if sym.Container != "" {
		si.ContainerName = ptr(sym.Container)
	}
	return si
}

// Symbols answers workspace/symbol from every folder's index, ranked by
// the index's match classes (exact, prefix, camel-case, substring,
// fuzzy), while indexing is still running if need be.
func (s *Server) Symbols(ctx context.Context, p *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	type hit struct {
		f *folder
		index.NameHit
	}
	var hits []hit
	for _, f := range s.allFolders() {
		f.awaitAll(ctx)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hs, err := f.store.SearchNames(p.Query, workspaceSymbolLimit)
		if err != nil {
			return nil, err
		}
		for _, h := range hs {
			hits = append(hits, hit{f, h})
		}
	}
	// Folders are ranked together: by match class, then as each store
	// ordered them.
	slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(a.Match, b.Match) })
	hits = hits[:min(len(hits), workspaceSymbolLimit)]
	out := make(protocol.SymbolInformationSlice, 0, len(hits))
	for _, h := range hits {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		abs := filepath.Join(h.f.root, filepath.FromSlash(h.Path))
		sym := extract.Symbol{Name: h.Name, Kind: h.Kind, Container: h.Container, Selection: h.Selection}
		out = append(out, s.symbolInformation(abs, s.linesOf(h.f, h.Path, abs), sym))
	}
	return out, nil
}
