package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// drive sends the workload and returns client-side workspace/symbol
// latencies (for comparison with gopls, measured the same way).
func (w *workload) drive(ctx context.Context, s *server, res *result) ([]time.Duration, error) {
	var client []time.Duration
	for _, q := range w.queries {
		t := time.Now()
		if _, err := s.srv.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: q}); err != nil {
			return nil, fmt.Errorf("workspace/symbol %q: %w", q, err)
		}
		client = append(client, time.Since(t))
		res.Requests["workspace/symbol"]++
	}
	for i := 0; i < len(w.queries); i++ {
		rel := w.files[w.rng.IntN(len(w.files))]
		p, ok := w.identPos(rel)
		if !ok {
			continue
		}
		tdpp := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(filepath.Join(w.root, rel))}, Position: p}
		if _, err := s.srv.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdpp}); err != nil {
			return nil, fmt.Errorf("definition %s: %w", rel, err)
		}
		res.Requests["textDocument/definition"]++
		if _, err := s.srv.References(ctx, &protocol.ReferenceParams{TextDocumentPositionParams: tdpp, Context: protocol.ReferenceContext{IncludeDeclaration: true}}); err != nil {
			return nil, fmt.Errorf("references %s: %w", rel, err)
		}
		res.Requests["textDocument/references"]++
	}
	return client, w.edit(ctx, s, res)
}

// identPos picks an identifier in a file and returns its position
// (UTF-16 and byte columns agree on the ASCII lines it picks).
func (w *workload) identPos(rel string) (protocol.Position, bool) {
	b, err := os.ReadFile(filepath.Join(w.root, rel))
	if err != nil {
		return protocol.Position{}, false
	}
	locs := identRE.FindAllIndex(b, -1)
	if len(locs) == 0 {
		return protocol.Position{}, false
	}
	off := locs[w.rng.IntN(len(locs))][0]
	line, col := 0, 0
	for i := 0; i < off; i++ {
		col++
		if b[i] == '\n' {
			line, col = line+1, 0
		} else if b[i] >= 0x80 {
			return protocol.Position{}, false
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col + 1)}, true
}

// edit opens Go files under 50 KB and types into them: each change is
// followed by documentSymbol, which waits for the index to catch up, so
// changes do not pile up; the server records change-to-stored latency.
func (w *workload) edit(ctx context.Context, s *server, res *result) error {
	for f := 0; f < 10; f++ {
		rel := w.files[w.rng.IntN(len(w.files))]
		b, err := os.ReadFile(filepath.Join(w.root, rel))
		if err != nil {
			return err
		}
		u := uri.File(filepath.Join(w.root, rel))
		if err := s.srv.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: "go", Version: 1, Text: string(b)}}); err != nil {
			return err
		}
		lines := uint32(countLines(b))
		for v := int32(2); v < 32; v++ {
			text := fmt.Sprintf("\nfunc benchEdit%d() {}\n", v)
			change := &protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: protocol.Position{Line: lines}, End: protocol.Position{Line: lines}}, Text: text}
			if err := s.srv.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
				TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: v},
				ContentChanges: []protocol.TextDocumentContentChangeEvent{change},
			}); err != nil {
				return err
			}
			lines += 2
			if _, err := s.srv.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
				return err
			}
			res.Requests["didChange"]++
		}
		if err := s.srv.DidClose(ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
			return err
		}
	}
	return nil
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// goplsSymbols times workspace/symbol in gopls on the same queries,
// client-side (gopls has no server-side statistics), after its initial
// workspace load.
func goplsSymbols(ctx context.Context, bin, root string, queries []string) (p50, p99 float64, err error) {
	s, err := start(ctx, bin, []string{"serve"}, nil)
	if err != nil {
		return 0, 0, err
	}
	defer s.stop(ctx)
	if err := s.initialize(ctx, root); err != nil {
		return 0, 0, err
	}
	// The first query waits for the workspace load; not counted.
	if _, err := s.srv.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: "Server"}); err != nil {
		return 0, 0, err
	}
	var d []time.Duration
	for _, q := range queries {
		t := time.Now()
		if _, err := s.srv.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: q}); err != nil {
			return 0, 0, err
		}
		d = append(d, time.Since(t))
	}
	return quantile(d, 0.5), quantile(d, 0.99), nil
}
