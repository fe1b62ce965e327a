package htmlmd

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func convert(t *testing.T, page string) (title, md string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	base, err := url.Parse("https://example.com/docs/page.html")
	if err != nil {
		t.Fatal(err)
	}
	title, md, err = Convert(doc, base)
	if err != nil {
		t.Fatalf("Convert(%q): %v", page, err)
	}
	return title, md
}

func TestConvert(t *testing.T) {
	tests := []struct {
		name, page, want string
	}{
		// The defects of the hand-written converter this package replaced.
		{"backtick in inline code", "<p>run <code>a`b</code> now</p>", "run ``a`b`` now"},
		{"fence in a pre", "<pre>x\n```\ny</pre>", "````\nx\n```\ny\n````"},
		{"paragraphs in list items", "<ul><li><p>one</p></li><li><p>two</p><p>more</p></li></ul>", "- one\n- two\n  \n  more"},

		{"headings and paragraphs", "<h1>Getting   started</h1><p>First.</p><h2>Next</h2><p>Second.</p>", "# Getting started\n\nFirst.\n\n## Next\n\nSecond."},
		{"emphasis and a break", "<p>Second <b>bold</b> paragraph.<br>After a break.</p>", "Second **bold** paragraph.  \nAfter a break."},
		{"nested and ordered lists", "<ul><li>one</li><li>two <ul><li>nested</li></ul></li></ul><ol><li>first</li><li>second</li></ol>", "- one\n- two\n  \n  - nested\n\n1. first\n2. second"},
		{"pre keeps its lines", "<pre>line 1\n    indented line 2</pre>", "```\nline 1\n    indented line 2\n```"},
		{"table rows", "<table><tr><th>Name</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table><p>after</p>", "Name | Value\na | 1\n\nafter"},
		{"spanned cells are not repeated", `<table><tr><td colspan="1000" rowspan="1000">x</td><td>y</td></tr></table>`, "x | y"},
		{"relative link resolved", `<p>see <a href="rel/page?q=1#f">the page</a></p>`, "see [the page](https://example.com/docs/rel/page?q=1#f)"},
		{"links that lead nowhere are text", `<a href="#top">anchor</a> <a href="javascript:void(0)">js</a> <a>none</a>`, "anchor js none"},
		{"links without text are dropped", `a<a href="/x"></a>b`, "ab"},
		{"images", `<img src="x.png" alt="diagram"> <img src="data:image/png;base64,AAAA" alt="inline"> <img src="data:x">`, "![diagram](https://example.com/docs/x.png) (image: inline)"},
		{"skipped elements", `<nav><a href="/">Home</a></nav><script>var s;</script><style>p{}</style><noscript>js</noscript><svg><text>t</text></svg><button>b</button><p>shown</p>`, "shown"},
		{"hidden elements", `<div hidden>secret</div><span aria-hidden="true">hidden</span><p>shown</p>`, "shown"},
		{"one main element only", `<header>site</header><main><p>the article</p></main><footer>f</footer>`, "the article"},
		{"two main elements: the whole body", `<main>one</main><main>two</main>`, "one\n\ntwo"},
		{"deep lists flattened", strings.Repeat("<ul><li>x", 10), "- x\n  \n  - x\n    \n    - x\n      \n      - x\n        \n        - x\n          \n          - x\n            \n            - x\n              \n              - x\n                \n                x\n                \n                x"},
		{"deep quotes flattened", strings.Repeat("<blockquote>", 6) + "q<br>r", "> > > > q  \n> > > > r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, got := convert(t, tt.page); got != tt.want {
				t.Errorf("Convert(%q)\n got  %q\n want %q", tt.page, got, tt.want)
			}
		})
	}
}

func TestConvertTitle(t *testing.T) {
	title, md := convert(t, `<html><head><title>  Guide &amp;
	Notes </title></head><body><p>text</p></body></html>`)
	if title != "Guide & Notes" || md != "text" {
		t.Errorf("title %q, text %q", title, md)
	}
}

// Deeply nested lists do not blow the text up: indentation is capped.
func TestConvertNestedListsBounded(t *testing.T) {
	page := strings.Repeat("<ul><li>", 250) + strings.Repeat("<li>x", 1000)
	if _, md := convert(t, page); len(md) > 20*len(page) {
		t.Errorf("%d bytes of HTML became %d bytes of text", len(page), len(md))
	}
}
