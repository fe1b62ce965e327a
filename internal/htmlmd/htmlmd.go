// Package htmlmd turns a web page into Markdown for the model (fetch_url).
//
// A pre-pass over the parsed document keeps the content: it drops scripts,
// styles, navigation, embedded media, forms' controls and hidden elements,
// renders only the page's <main> element when there is exactly one, makes
// links and images absolute against the page's address and unlinks those
// that lead nowhere a reader can follow (in-page anchors, javascript:,
// data:). It also bounds the structures whose Markdown grows faster than
// their HTML: lists nested deeper than maxListDepth and block quotes deeper
// than maxQuoteDepth are rendered as plain blocks at that depth, since every
// level indents or prefixes every line below it.
//
// github.com/JohannesKaufmann/html-to-markdown/v2 then writes the Markdown:
// inline code and fences sized to the backticks they contain, list items
// holding paragraphs, escapes where text would read as Markdown. Table rows
// are written by this package's small renderer (cells joined by " | ", one
// row per line) instead of the library's table plugin, which pads every row
// to the widest one and repeats spanned cells: a 55-byte table with a
// colspan and a rowspan of 1000 became 3 MB.
//
// Contracts: Convert changes the document it is given. Its output is valid
// UTF-8 when the page is, at most 16 times as long as the page plus 1 KiB
// (FuzzHTMLToText checks both), and never holds what a script or style element
// contained. Safe for concurrent use.
package htmlmd

import (
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Convert renders a parsed page; base, when not nil, is the page's address
// and resolves relative links. title is the page's <title>, whitespace
// collapsed. An error means the converter is misconfigured (a bug), never
// that the page is malformed.
func Convert(doc *html.Node, base *url.URL) (title, markdown string, err error) {
	title = strings.Join(strings.Fields(nodeText(find(doc, atom.Title))), " ")
	root := doc
	if mains := findAll(doc, atom.Main); len(mains) == 1 {
		root = mains[0]
	}
	prune(root, base, 0, 0)
	conv, err := newConverter()
	if err != nil {
		return "", "", err
	}
	out, err := conv.ConvertNode(root)
	if err != nil {
		return "", "", fmt.Errorf("html to markdown: %w", err)
	}
	return title, strings.TrimSpace(string(out)), nil
}

// newConverter is built once: a Converter is safe for concurrent use, and
// each conversion keeps its state in its own context.
var newConverter = sync.OnceValues(func() (*converter.Converter, error) {
	conv := converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(),
		commonmark.NewCommonmarkPlugin(
			// The comment separates adjacent lists for Markdown parsers;
			// the model reads the text and would only see noise.
			commonmark.WithListEndComment(false),
			// Unlinked anchors (see prune) render as their text, links
			// without text not at all.
			commonmark.WithLinkEmptyHrefBehavior(commonmark.LinkBehaviorSkip),
			commonmark.WithLinkEmptyContentBehavior(commonmark.LinkBehaviorSkip),
		),
	))
	conv.Register.RendererFor("tr", converter.TagTypeBlock, renderRow, converter.PriorityStandard)
	for _, cell := range []string{"td", "th"} {
		conv.Register.RendererFor(cell, converter.TagTypeInline, renderCell, converter.PriorityStandard)
	}
	return conv, nil
})

// renderRow writes a table row and ends its line; the table, a block,
// starts on a line of its own.
func renderRow(ctx converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
	ctx.RenderChildNodes(ctx, w, n)
	w.WriteString("\n")
	return converter.RenderSuccess
}

// renderCell writes a cell, separated from the cell before it by " | ".
func renderCell(ctx converter.Context, w converter.Writer, n *html.Node) converter.RenderStatus {
	for p := n.PrevSibling; p != nil; p = p.PrevSibling {
		if p.Type == html.ElementNode && (p.DataAtom == atom.Td || p.DataAtom == atom.Th) {
			w.WriteString(" | ")
			break
		}
	}
	ctx.RenderChildNodes(ctx, w, n)
	return converter.RenderSuccess
}
