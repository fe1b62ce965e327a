package complete

import (
	"regexp"
	"slices"

	"github.com/parleyhq/parley/index"
)

// The lexical fallback: with budget left after what the index resolves,
// the declarations of the names used around the cursor, the rarest first
// (a name declared once says more about the code at hand than one
// declared in every package) — the inverse-document-frequency half of
// BM25, over the index's declarations instead of windows of text, so it
// costs a few name-index reads rather than a scan of the workspace.

// lexicalLines is how far around the cursor names are gathered.
const lexicalLines = 12

// lexicalNames bounds the names looked up.
const lexicalNames = 24

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]{2,}`)

func lexical(src Source, c *snippets) {
	if src.Store == nil {
		return
	}
	text := string(src.Text)
	ls := lineStarts(text)
	line := lineOf(ls, min(max(src.Offset, 0), len(text)))
	from, to := ls[max(line-lexicalLines, 0)], len(text)
	if line+lexicalLines+1 < len(ls) {
		to = ls[line+lexicalLines+1]
	}
	type cand struct {
		name    string
		entries []index.NameEntry // declared elsewhere than the buffer
		decls   int
		dist    int
	}
	// The nearest names first, and only so many of them: each costs a
	// read of the name index, at every keystroke.
	dist := map[string]int{}
	var names []string
	for _, m := range identRE.FindAllStringIndex(text[from:to], -1) {
		name := text[from+m[0] : from+m[1]]
		if keywords[name] {
			continue
		}
		d := lineOf(ls, from+m[0]) - line
		d = max(d, -d)
		if old, ok := dist[name]; !ok || d < old {
			if !ok {
				names = append(names, name)
			}
			dist[name] = d
		}
	}
	slices.SortStableFunc(names, func(a, b string) int { return dist[a] - dist[b] })
	var cands []cand
	for _, name := range names[:min(len(names), lexicalNames)] {
		entries, err := src.Store.NameEntries(name)
		if err != nil || len(entries) == 0 || len(entries) > 50 {
			continue
		}
		n := len(entries)
		entries = slices.DeleteFunc(entries, func(e index.NameEntry) bool { return e.Path == src.Path })
		// Declared only in the buffer itself: the model sees it.
		if len(entries) == 0 {
			continue
		}
		cands = append(cands, cand{name, entries, n, dist[name]})
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.decls != b.decls {
			return a.decls - b.decls
		}
		return a.dist - b.dist
	})
	for _, cd := range cands {
		if c.full() {
			return
		}
		hits, err := src.Store.SymbolsOf(cd.entries[:min(len(cd.entries), 3)])
		if err != nil {
			continue
		}
		addHits(c, hits, "declares "+cd.name+", used near the cursor")
	}
}
