package htmlmd

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// fuzzScriptMarker replaces the text of every script and style element
// before rendering; it must never reach the output.
const fuzzScriptMarker = "PARLEY-FUZZ-SCRIPT-BODY"

// htmlExpansion bounds the text rendered from an HTML page relative to the
// page's size. Markup mostly shrinks; what may grow is a NUL or a byte
// escaped in a URL (three bytes), a relative link resolved against the base,
// a Markdown escape, and the indentation of nested lists and quotes.
const (
	htmlExpansion = 16
	htmlSlack     = 1024
)

// FuzzHTMLToText renders arbitrary pages the way fetch_url does. The text
// is valid UTF-8 when the page is, stays within htmlExpansion times the
// page's size, and never shows what a script or style element held.
// Conversion never fails.
func FuzzHTMLToText(f *testing.F) {
	for _, s := range []string{
		``, `plain text`, `<p>a<p>b`,
		`<html><head><title> The  title </title><script>var x = "<p>no</p>";</script><style>p{}</style></head>` +
			`<body><nav><a href="/">Home</a></nav><main><h1>Title</h1><p>Some <b>bold</b> and <code>code</code>.</p>` +
			`<ul><li>one<li>two<ol><li>a<li>b</ol></ul><pre>  x := 1
	y := 2</pre><table><tr><th>k<th>v<tr><td>1<td>2</table>` +
			`<a href="rel/page?q=1#f">link</a> <a href="#top">top</a> <a href="javascript:alert(1)">js</a>` +
			`<img alt="diagram" src="x.png"><hr><blockquote>quoted</blockquote></main><footer>f</footer></body></html>`,
		`<main>one</main><main>two</main>`,
		`<div hidden>secret</div><span aria-hidden="true">hidden</span><p>shown</p>`,
		`<svg><script>alert(1)</script></svg><math><mi>x</mi></math>`,
		`<noscript><p>enable js</p></noscript><template><p>t</p></template>`,
		`<textarea><script>not a script</script></textarea><title><script>t</script></title>`,
		`<ul><li><ul><li><ul><li>deep</ul></ul></ul>`,
		"<p>run <code>a`b</code></p><pre>x\n```\ny</pre><ul><li><p>one</p><p>two</p></ul>",
		`<table><tr><td colspan=1000 rowspan=1000>x<td>y</table>`,
		`<blockquote><blockquote><ol start=1000000000><li>x<br>y</ol></blockquote></blockquote>`,
		`<a href="https://example.com/a b">https://example.com/a b</a><a href=" mailto:x@y ">mail</a>`,
		"<p>\x00</p><img alt=\"\x00\x00\">&#0;&#x80;&NotEqualTilde;&amp",
		"<p>caf\xc3\xa9 \xff\xfe</p>",
		`<script>` + strings.Repeat("x", 100) + `</script><SCRIPT>y</SCRIPT><scrIpt type="module">z`,
	} {
		f.Add(s)
	}
	base, err := url.Parse("https://example.com/docs/page.html")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, page string) {
		if strings.Contains(page, fuzzScriptMarker) {
			return
		}
		doc, err := html.Parse(strings.NewReader(page))
		if err != nil {
			return // fetch_url then returns the page as it is
		}
		for n := range doc.Descendants() {
			if n.Type == html.ElementNode && (n.DataAtom == atom.Script || n.DataAtom == atom.Style) {
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.TextNode {
						c.Data = fuzzScriptMarker
					}
				}
			}
		}
		title, text, err := Convert(doc, base)
		if err != nil {
			t.Fatalf("Convert(%q): %v", page, err)
		}
		if utf8.ValidString(page) && (!utf8.ValidString(title) || !utf8.ValidString(text)) {
			t.Errorf("valid UTF-8 page %q rendered as invalid UTF-8: title %q, text %q", page, title, text)
		}
		if n := len(title) + len(text); n > htmlExpansion*len(page)+htmlSlack {
			t.Errorf("a page of %d bytes rendered as %d bytes (limit %d):\npage %q", len(page), n, htmlExpansion*len(page)+htmlSlack, clip(page, 2000))
		}
		if strings.Contains(title, fuzzScriptMarker) || strings.Contains(text, fuzzScriptMarker) {
			t.Errorf("script or style content shown for %q:\ntitle %q\ntext %q", page, title, text)
		}
	})
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
