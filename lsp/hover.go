package lsp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
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
	defs, err := s.rankedDefinitions(ctx, d, name)
	if err != nil || len(defs) == 0 {
		return nil, err
	}
	h := defs[0]
	lang := ""
	if hdr, ok := h.f.store.Header(h.Path); ok {
		lang = hdr.Lang
	}
	var b strings.Builder
	sig := h.Symbol.Signature
	if sig == "" {
		sig = h.Symbol.Name
	}
	md := s.caps.markdownHover
	if md {
		fmt.Fprintf(&b, "```%s\n%s\n```\n", lang, sig)
	} else {
		b.WriteString(sig + "\n")
	}
	if h.Symbol.Doc != "" {
		b.WriteString("\n" + h.Symbol.Doc + "\n")
	}
	where := fmt.Sprintf("%s:%d", h.Path, h.Symbol.Selection.Start.Line+1)
	if h.Symbol.Container != "" {
		where = h.Symbol.Container + " in " + where
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
