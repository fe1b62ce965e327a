package cregion

import (
	"sort"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/index/extract/internal/clex"
)

// Collector gathers a file's spans (the items a scanner declined) and
// the lines to keep around them: the directive lines of the
// conditionals, and in C++ the namespace heads and closing braces, that
// enclose a span, so that tree-sitter reads it nested as in the file.
// A block (Open) is kept only when a span was added inside it.
type Collector struct {
	Spans []extract.Span
	Keep  []extract.Span
	Why   string // why the first span was declined
	open  []*block
}

type block struct {
	lines   []extract.Span
	spanned bool
}

// Mark is a Collector's state, to Reset to when an enclosing item is
// declined after all.
type Mark struct{ spans, keep, open int }

func (c *Collector) Mark() Mark { return Mark{len(c.Spans), len(c.Keep), len(c.open)} }

func (c *Collector) Reset(m Mark) {
	c.Spans, c.Keep, c.open = c.Spans[:m.spans], c.Keep[:m.keep], c.open[:m.open]
}

// Add records a declined item's span.
func (c *Collector) Add(s extract.Span, why string) {
	if len(c.Spans) == 0 {
		c.Why = why
	}
	c.Spans = append(c.Spans, s)
	if n := len(c.open); n > 0 {
		c.open[n-1].spanned = true
	}
}

// Open starts a block with its first line (an #if's, a namespace's
// head); Line adds one (an #else); Close ends the innermost with its
// last (an #endif, a "}").
func (c *Collector) Open(s extract.Span) {
	c.open = append(c.open, &block{})
	c.Line(s)
}

func (c *Collector) Line(s extract.Span) {
	if n := len(c.open); n > 0 {
		c.open[n-1].lines = append(c.open[n-1].lines, s)
	}
}

func (c *Collector) Close(s extract.Span) {
	n := len(c.open)
	if n == 0 {
		return
	}
	c.Line(s)
	b := c.open[n-1]
	c.open = c.open[:n-1]
	if b.spanned {
		c.Keep = append(c.Keep, b.lines...)
		if n > 1 {
			c.open[n-2].spanned = true
		}
	}
}

// Regions is the scanner's answer when it declined an item (nil when
// it read them all): res holds its records, masked the bytes it read
// (the language's mask of the source), dedupe the kinds its walker
// records once per parent and name.
func (c *Collector) Regions(res *extract.Result, masked []byte, dedupe []extract.SymbolKind) *extract.Regions {
	if len(c.Spans) == 0 {
		return nil
	}
	return &extract.Regions{Res: res, Masked: masked, Spans: c.Spans, Keep: c.Keep, Dedupe: dedupe, Why: c.Why}
}

// SpanStart is where the span of an item whose first token is first
// starts: at the run of comments that ends on its line or the line
// before (the doc tree-sitter's walker gives its first symbol), else at
// the token, never before after, the end of what was read before it.
// Comments further up stay the scanner's: license headers and long
// comments between declarations were most of some spans' bytes.
func SpanStart(after uint32, first clex.Tok, comments []clex.Comment) uint32 {
	start, line := first.Start, first.Line
	i := sort.Search(len(comments), func(i int) bool { return comments[i].Start >= first.Start })
	for i--; i >= 0; i-- {
		c := comments[i]
		if c.Start < after || c.EndLine+1 < line {
			break
		}
		start, line = c.Start, c.Line
	}
	return start
}
