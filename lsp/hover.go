package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index/extract"
)

// Hover shows the signature, doc line and location of the best-ranked
// definition of the identifier under the cursor.
func (s *Server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	d, err := s.document(ctx, p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	name, err := s.identOf(d, p.Position)
	if errors.Is(err, errNoIdent) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defs, _, err := s.rankedDefinitions(ctx, d, p.Position, name)
	if err != nil || len(defs) == 0 {
		return nil, err
	}
	h := defs[0]
	lang := ""
	if hdr, ok := h.f.store.Header(h.Path); ok {
		lang = hdr.Lang
	}
	sym := extract.Symbol{Name: h.Name, Container: h.Container, Selection: h.Selection}
	if syms, err := h.f.store.Symbols(h.Path); err == nil {
		for _, cand := range syms {
			if cand.Selection.Start == h.Selection.Start && cand.Name == h.Name {
				sym = cand
				break
			}
		}
	}
	var b strings.Builder
	sig := sym.Signature
	if sig == "" {
		sig = sym.Name
	}
	md := s.caps.markdownHover
	if md {
		fmt.Fprintf(&b, "```%s\n%s\n```\n", lang, sig)
	} else {
		b.WriteString(sig + "\n")
	}
	if sym.Doc != "" {
		b.WriteString("\n" + sym.Doc + "\n")
	}
	where := fmt.Sprintf("%s:%d", h.Path, sym.Selection.Start.Line+1)
	if sym.Container != "" {
		where = sym.Container + " in " + where
	}
	if md {
		where = "`" + where + "`"
	}
	b.WriteString("\nDefined in " + where)
	if n := len(defs) - 1; n > 0 {
		fmt.Fprintf(&b, " (and %d more)", n)
	}
	kind := protocol.MarkupKindPlainText
	if md {
		kind = protocol.MarkupKindMarkdown
	}
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: kind, Value: b.String()}}, nil
}
