package complete

import (
	"strings"

	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/index"
)

// Defaults of the request's token budgets.
const (
	DefaultContextTokens = 1024
	DefaultPrefixTokens  = 1536
	DefaultSuffixTokens  = 512
	DefaultMaxTokens     = 128
)

// Source is the cursor a completion is built for.
type Source struct {
	// Store is the workspace's index; nil builds from the buffer alone.
	Store *index.Store
	// Path is the buffer's root-relative slash path, Language its
	// language (workspace.DetectLanguage), Text its content as the
	// editor has it and Offset the cursor's byte offset in it.
	Path     string
	Language string
	Text     []byte
	Offset   int
	// Read returns other files as the caller sees them (open buffers
	// first); nil reads nothing beyond the store's records.
	Read func(rel string) ([]byte, error)
	// Recent are the user's recent edits, newest first (EditRing).
	Recent []RecentEdit
}

// Budget is a request's token budgets and counter.
type Budget struct {
	Context, Prefix, Suffix, MaxTokens int
	// Count counts tokens (internal/tokcount); nil counts 4 bytes a token.
	Count func(string) int
}

func (b Budget) withDefaults() Budget {
	if b.Context <= 0 {
		b.Context = DefaultContextTokens
	}
	if b.Prefix <= 0 {
		b.Prefix = DefaultPrefixTokens
	}
	if b.Suffix <= 0 {
		b.Suffix = DefaultSuffixTokens
	}
	if b.MaxTokens <= 0 {
		b.MaxTokens = DefaultMaxTokens
	}
	if b.Count == nil {
		b.Count = func(s string) int { return (len(s) + 3) / 4 }
	}
	return b
}

// Prepared is a built request and what it costs.
type Prepared struct {
	Request fim.Request
	// Tokens counts the prefix, suffix and context as Budget.Count does;
	// ContextTokens the context alone.
	Tokens, ContextTokens int
}

// Report is a built request as `parley complete --context-only --json`
// prints it and parley/completionContext answers it.
type Report struct {
	Prefix  string        `json:"prefix"`
	Suffix  string        `json:"suffix"`
	Context []fim.Snippet `json:"context"`
	Tokens  int           `json:"tokens"`
}

// Report describes p.
func (p Prepared) Report() Report {
	ctx := p.Request.Context
	if ctx == nil {
		ctx = []fim.Snippet{}
	}
	return Report{Prefix: p.Request.Prefix, Suffix: p.Request.Suffix, Context: ctx, Tokens: p.Tokens}
}

// Build makes the fill-in-the-middle request for src within b: the
// prefix and suffix cut at line boundaries, then context snippets in this
// order while the budget lasts: the declarations the cursor needs as the
// index resolves them (after `x.` the members of x's type or the
// package's API, the callees of the calls around the cursor, the
// enclosing type's members), the user's recent edits in other places, and
// the declarations of the rarest names around the cursor (lexical
// fallback). A snippet is never cut mid-line, and one already covered is
// not repeated.
func Build(src Source, b Budget) Prepared {
	b = b.withDefaults()
	off := min(max(src.Offset, 0), len(src.Text))
	text := string(src.Text)
	prefix, prefixTokens := cutPrefix(text[:off], b.Prefix, b.Count)
	suffix, suffixTokens := cutSuffix(text[off:], b.Suffix, b.Count)
	req := fim.Request{
		Path: src.Path, Language: src.Language, Prefix: prefix, Suffix: suffix,
		MaxTokens: b.MaxTokens, Multiline: wantsMultiline(src.Language, text[:off], text[off:]),
	}
	ctx := &snippets{budget: b.Context, count: b.Count, seen: map[string]bool{}}
	for _, source := range []func(Source, *snippets){indexed, recentEdits, lexical} {
		if ctx.full() {
			break
		}
		source(src, ctx)
	}
	req.Context = ctx.list
	return Prepared{Request: req, ContextTokens: ctx.used, Tokens: ctx.used + prefixTokens + suffixTokens}
}

// cutPrefix keeps the last whole lines of s within budget (the cursor's
// own line always) and says how many tokens they count. It counts a line
// at a time from the cursor, never the whole text: a request is built at
// every keystroke, in files of any size.
func cutPrefix(s string, budget int, count func(string) int) (string, int) {
	start := strings.LastIndexByte(s, '\n') + 1
	used := count(s[start:])
	for start > 0 {
		prev := strings.LastIndexByte(s[:start-1], '\n') + 1
		n := count(s[prev:start])
		if used+n > budget {
			break
		}
		used += n
		start = prev
	}
	return s[start:], used
}

// cutSuffix keeps the first whole lines of s within budget (the rest of
// the cursor's line always), counted as cutPrefix counts.
func cutSuffix(s string, budget int, count func(string) int) (string, int) {
	end := strings.IndexByte(s, '\n')
	if end < 0 {
		return s, count(s)
	}
	used := count(s[:end+1])
	for end+1 < len(s) {
		stop := len(s)
		if next := strings.IndexByte(s[end+1:], '\n'); next >= 0 {
			stop = end + 1 + next
		}
		n := count(s[end+1 : min(stop+1, len(s))])
		if used+n > budget {
			break
		}
		used += n
		end = stop
	}
	return s[:min(end+1, len(s))], used
}

// snippets gathers context within the budget.
type snippets struct {
	list   []fim.Snippet
	used   int
	budget int
	count  func(string) int
	seen   map[string]bool // path and text of each line already included
}

func (c *snippets) full() bool { return c.budget-c.used < 8 }

// add appends sn, cut to the lines that fit (none: not added), dropping
// lines already included. It reports whether anything was added.
func (c *snippets) add(sn fim.Snippet) bool {
	lines := strings.Split(strings.TrimRight(sn.Text, "\n"), "\n")
	var kept []string
	room := c.budget - c.used
	for _, l := range lines {
		// A declaration two sources chose is shown once (short lines
		// such as `}` repeat without being the same).
		key := sn.Path + "\x00" + strings.TrimSpace(l)
		if len(strings.TrimSpace(l)) >= 4 && c.seen[key] {
			continue
		}
		n := c.count(l + "\n")
		if n > room {
			break
		}
		room -= n
		c.seen[key] = true
		kept = append(kept, l)
	}
	if len(kept) == 0 {
		return false
	}
	sn.Text = strings.Join(kept, "\n")
	if len(kept) < len(lines) && sn.EndLine > sn.StartLine {
		sn.EndLine = min(sn.EndLine, sn.StartLine+len(kept)-1)
	}
	c.used = c.budget - room
	c.list = append(c.list, sn)
	return true
}
