package htmlmd

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// skipped are elements whose content is never shown.
var skipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Svg: true, atom.Math: true, atom.Canvas: true, atom.Iframe: true,
	atom.Object: true, atom.Embed: true, atom.Head: true, atom.Select: true,
	atom.Button: true, atom.Dialog: true,
}

const (
	// maxListDepth is the deepest list rendered as a list: every level
	// indents every line below it, so a page of 500 nested lists would
	// grow quadratically.
	maxListDepth = 8
	// maxQuoteDepth is the deepest block quote rendered as one; every
	// level prefixes every line below it with "> ".
	maxQuoteDepth = 4
)

// prune prepares the tree below n for conversion (see the package doc).
// lists and quotes count the list and block-quote elements above n.
func prune(n *html.Node, base *url.URL, lists, quotes int) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == html.ElementNode {
			pruneElement(c, base, lists, quotes)
		}
		c = next
	}
}

func pruneElement(n *html.Node, base *url.URL, lists, quotes int) {
	if skipped[n.DataAtom] || hasAttr(n, "hidden") || attr(n, "aria-hidden") == "true" {
		n.Parent.RemoveChild(n)
		return
	}
	switch n.DataAtom {
	case atom.Ul, atom.Ol:
		if lists++; lists > maxListDepth {
			rename(n, atom.Div)
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.DataAtom == atom.Li {
					rename(c, atom.P)
				}
			}
		}
	case atom.Blockquote:
		if quotes++; quotes > maxQuoteDepth {
			rename(n, atom.Div)
		}
	case atom.A:
		setAttr(n, "href", resolve(base, attr(n, "href"), "http", "https", "mailto", "ftp"))
	case atom.Img:
		src := resolve(base, attr(n, "src"), "http", "https")
		if src == "" {
			// A data: or script image has nothing to follow; its
			// description is all the reader gets.
			if alt := strings.TrimSpace(attr(n, "alt")); alt != "" {
				n.Parent.InsertBefore(&html.Node{Type: html.TextNode, Data: "(image: " + alt + ")"}, n)
			}
			n.Parent.RemoveChild(n)
			return
		}
		setAttr(n, "src", src)
	}
	prune(n, base, lists, quotes)
}

// resolve makes ref absolute against base and returns it if its scheme
// is one of schemes, else "" (in-page anchors resolve to "" too).
func resolve(base *url.URL, ref string, schemes ...string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" || strings.HasPrefix(ref, "#") {
		return ""
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	for _, s := range schemes {
		if u.Scheme == s {
			return u.String()
		}
	}
	return ""
}

func rename(n *html.Node, a atom.Atom) {
	n.DataAtom, n.Data = a, a.String()
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return true
		}
	}
	return false
}

// setAttr sets key to val, or removes key when val is "".
func setAttr(n *html.Node, key, val string) {
	out := n.Attr[:0]
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != key {
			out = append(out, a)
		}
	}
	if val != "" {
		out = append(out, html.Attribute{Key: key, Val: val})
	}
	n.Attr = out
}

// nodeText is the concatenated text below n, skipping the content of
// skipped elements (but not of n itself, which may be a <title>).
func nodeText(n *html.Node) string {
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
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || !skipped[c.DataAtom] {
				walk(c)
			}
		}
	}
	walk(n)
	return b.String()
}

func find(n *html.Node, a atom.Atom) *html.Node {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == a {
			return d
		}
	}
	return nil
}

func findAll(n *html.Node, a atom.Atom) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.DataAtom == a {
			out = append(out, d)
		}
	}
	return out
}
