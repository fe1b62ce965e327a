package tools

// HTML to readable text for fetch_url: the document's text with its
// structure kept as lightweight Markdown (headings, paragraphs, list items,
// preformatted blocks, table rows) and links written as [text](target), so
// the model can follow them. Scripts, styles, navigation and other
// non-content elements are dropped. When the page has exactly one <main>
// element, only that is rendered.

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlSkipped are elements whose content is never shown.
var htmlSkipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Svg: true, atom.Math: true, atom.Canvas: true, atom.Iframe: true,
	atom.Object: true, atom.Embed: true, atom.Head: true, atom.Select: true,
	atom.Button: true, atom.Dialog: true,
}

// htmlBlocks are elements that start and end on their own line.
var htmlBlocks = map[atom.Atom]bool{
	atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Header: true, atom.Footer: true, atom.Aside: true, atom.Form: true,
	atom.Fieldset: true, atom.Figure: true, atom.Figcaption: true, atom.Dl: true,
	atom.Dt: true, atom.Dd: true, atom.Address: true, atom.Details: true,
	atom.Summary: true, atom.Table: true, atom.Tr: true, atom.Caption: true,
	atom.Center: true, atom.Body: true, atom.Html: true, atom.Label: true,
}

// htmlParagraphs are blocks separated by a blank line.
var htmlParagraphs = map[atom.Atom]bool{
	atom.P: true, atom.Blockquote: true, atom.Ul: true, atom.Ol: true,
	atom.Table: true, atom.Pre: true, atom.Hr: true,
}

// htmlToText renders a parsed document; base resolves relative links.
func htmlToText(doc *html.Node, base *url.URL) (title, text string) {
	title = strings.Join(strings.Fields(htmlNodeText(htmlFind(doc, atom.Title))), " ")
	root := doc
	if mains := htmlFindAll(doc, atom.Main); len(mains) == 1 {
		root = mains[0]
	}
	w := &htmlWriter{base: base}
	w.node(root)
	return title, w.String()
}

// htmlWriter accumulates text, collapsing whitespace and owing line breaks
// until the next visible text so that empty elements add nothing.
type htmlWriter struct {
	b      strings.Builder
	base   *url.URL
	breaks int  // line breaks owed before the next text (at most 2)
	space  bool // a space is owed before the next text
	pre    int  // depth inside <pre>
	lists  []int
}

func (w *htmlWriter) String() string { return strings.TrimSpace(w.b.String()) }

// lineBreak owes n line breaks (1: new line, 2: blank line).
func (w *htmlWriter) lineBreak(n int) {
	w.breaks = max(w.breaks, n)
	w.space = false
}

// write emits s verbatim after what is owed.
func (w *htmlWriter) write(s string) {
	if s == "" {
		return
	}
	if w.b.Len() > 0 {
		if w.breaks > 0 {
			w.b.WriteString(strings.Repeat("\n", w.breaks))
		} else if w.space {
			w.b.WriteByte(' ')
		}
	}
	w.breaks, w.space = 0, false
	w.b.WriteString(s)
}

// text writes a text node, collapsing whitespace outside <pre>.
func (w *htmlWriter) text(s string) {
	if w.pre > 0 {
		w.write(s)
		return
	}
	words := strings.Fields(s)
	if len(words) == 0 {
		w.space = w.space || s != ""
		return
	}
	if htmlIsSpace(s[0]) && w.breaks == 0 {
		w.space = true
	}
	w.write(strings.Join(words, " "))
	w.space = htmlIsSpace(s[len(s)-1])
}

func htmlIsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func (w *htmlWriter) children(n *html.Node) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.node(c)
	}
}

func (w *htmlWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return
	case html.DocumentNode:
		w.children(n)
		return
	case html.ElementNode:
	default:
		return
	}
	if htmlSkipped[n.DataAtom] || htmlHasAttr(n, "hidden") || htmlAttr(n, "aria-hidden") == "true" {
		return
	}
	switch a := n.DataAtom; {
	case htmlHeadingLevel(a) > 0:
		w.lineBreak(2)
		w.write(strings.Repeat("#", htmlHeadingLevel(a)) + " ")
		w.children(n)
		w.lineBreak(2)
	case a == atom.Br:
		w.lineBreak(1)
	case a == atom.Hr:
		w.lineBreak(2)
		w.write("---")
		w.lineBreak(2)
	case a == atom.Ul || a == atom.Ol:
		w.list(n)
	case a == atom.Li:
		w.item(n)
	case a == atom.Pre:
		w.lineBreak(2)
		w.write("```\n")
		w.pre++
		w.children(n)
		w.pre--
		w.write("\n```")
		w.lineBreak(2)
	case a == atom.Code && w.pre == 0:
		w.inline("`", n, "`")
	case a == atom.A:
		w.link(n)
	case a == atom.Img:
		if alt := strings.TrimSpace(htmlAttr(n, "alt")); alt != "" {
			w.write("[image: " + alt + "]")
		}
	case a == atom.Td || a == atom.Th:
		if n.PrevSibling != nil {
			w.write(" |")
			w.space = true
		}
		w.children(n)
	default:
		w.block(n)
	}
}

// block renders elements that may need line breaks around them.
func (w *htmlWriter) block(n *html.Node) {
	br := 0
	switch {
	case htmlParagraphs[n.DataAtom]:
		br = 2
	case htmlBlocks[n.DataAtom]:
		br = 1
	}
	if br > 0 {
		w.lineBreak(br)
	}
	if n.DataAtom == atom.Blockquote {
		w.write("> ")
	}
	w.children(n)
	if br > 0 {
		w.lineBreak(br)
	}
}

func (w *htmlWriter) list(n *html.Node) {
	if len(w.lists) == 0 {
		w.lineBreak(2)
	} else {
		w.lineBreak(1)
	}
	start := 0
	if n.DataAtom == atom.Ol {
		start = 1
	}
	w.lists = append(w.lists, start)
	w.children(n)
	w.lists = w.lists[:len(w.lists)-1]
	if len(w.lists) == 0 {
		w.lineBreak(2)
	} else {
		w.lineBreak(1)
	}
}

// maxListIndent caps the indentation levels of nested lists.
const maxListIndent = 8

func (w *htmlWriter) item(n *html.Node) {
	w.lineBreak(1)
	indent := ""
	bullet := "- "
	if d := len(w.lists); d > 0 {
		// Deeper nesting is flattened: a page of 500 nested lists would
		// otherwise grow quadratically in indentation.
		indent = strings.Repeat("  ", min(d-1, maxListIndent))
		if w.lists[d-1] > 0 {
			bullet = strconv.Itoa(w.lists[d-1]) + ". "
			w.lists[d-1]++
		}
	}
	w.write(indent + bullet)
	w.children(n)
	w.lineBreak(1)
}

func (w *htmlWriter) inline(open string, n *html.Node, close string) {
	t := strings.Join(strings.Fields(htmlNodeText(n)), " ")
	if t == "" {
		return
	}
	w.write(open + t + close)
}

// link writes [text](target) for links that lead somewhere.
func (w *htmlWriter) link(n *html.Node) {
	href := strings.TrimSpace(htmlAttr(n, "href"))
	t := strings.Join(strings.Fields(htmlNodeText(n)), " ")
	target := w.resolve(href)
	switch {
	case target == "":
		w.children(n)
	case t == "":
		return
	case t == target:
		w.write("<" + target + ">")
	default:
		w.write("[" + t + "](" + target + ")")
	}
}

// resolve makes href absolute; in-page anchors and scripts resolve to "".
func (w *htmlWriter) resolve(href string) string {
	if href == "" || strings.HasPrefix(href, "#") {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if w.base != nil {
		u = w.base.ResolveReference(u)
	}
	switch u.Scheme {
	case "http", "https", "mailto", "ftp":
		return u.String()
	}
	return ""
}

func htmlHeadingLevel(a atom.Atom) int {
	switch a {
	case atom.H1:
		return 1
	case atom.H2:
		return 2
	case atom.H3:
		return 3
	case atom.H4:
		return 4
	case atom.H5:
		return 5
	case atom.H6:
		return 6
	}
	return 0
}

func htmlAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func htmlHasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// nodeText is the concatenated text below n, skipping hidden elements.
func htmlNodeText(n *html.Node) string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			return
		}
		if n.Type == html.ElementNode && n.DataAtom != atom.Title && htmlSkipped[n.DataAtom] {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func htmlFind(n *html.Node, a atom.Atom) *html.Node {
	if all := htmlFindAll(n, a); len(all) > 0 {
		return all[0]
	}
	return nil
}

func htmlFindAll(n *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == a {
			out = append(out, d)
		}
	}
	return out
}
