package mentions

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/parleyhq/parley/index"
)

// DefaultLimit is the number of picker items without a limit.
const DefaultLimit = 50

// Root is a workspace folder whose indexed files the picker lists.
type Root struct {
	Dir   string
	Store *index.Store
}

// Source is what Candidates draws from.
type Source struct {
	Roots []Root
	// Symbols returns up to limit workspace symbols matching query, best
	// first, as picker items (nil: no symbols).
	Symbols func(ctx context.Context, query string, limit int) ([]Item, error)
}

// Query is a picker's request: the text typed after "@", the editor's
// active document (a URI, for @diagnostics of that file) and the most
// items wanted (0: DefaultLimit).
type Query struct {
	Text  string
	URI   string
	Limit int
}

// Candidates returns the picker's items for q, best first: the special
// mentions whose name starts with the query, the files that match it
// (fuzzy), then the symbols. incomplete says more would match. Safe for
// concurrent use.
func Candidates(ctx context.Context, src Source, q Query) (items []Item, incomplete bool, err error) {
	limit := cmp.Or(q.Limit, DefaultLimit)
	text := strings.TrimPrefix(q.Text, "@")
	items = specials(text, q.URI)
	if len(items) >= limit {
		return items[:limit], true, nil
	}
	room := limit - len(items)
	var syms []Item
	if text != "" && src.Symbols != nil {
		// Symbols get a fifth of the room, files the rest and what the
		// symbols leave.
		share := max(room/5, 1)
		if syms, err = src.Symbols(ctx, text, share+1); err != nil {
			return nil, false, fmt.Errorf("symbols: %w", err)
		}
		if len(syms) > share {
			syms, incomplete = syms[:share], true
		}
	}
	files, more := matchFiles(src.Roots, text, room-len(syms))
	items = append(items, files...)
	items = append(items, syms...)
	return items, incomplete || more, ctx.Err()
}

// specials are the special mentions whose name starts with text.
func specials(text, docURI string) []Item {
	lt := strings.ToLower(text)
	var out []Item
	add := func(name string, it Item) {
		if strings.HasPrefix(name, lt) || (name == "url" && strings.HasPrefix(lt, "url:")) {
			out = append(out, it)
		}
	}
	if docURI != "" {
		add("diagnostics", Item{Label: "diagnostics", Detail: "errors and warnings of the current file",
			Mention: Mention{Kind: KindDiagnostics, Text: "@diagnostics", Scope: ScopeFile, URI: docURI}})
	}
	add("diagnostics", Item{Label: "diagnostics", Detail: "errors and warnings of the workspace's changed and open files",
		Mention: Mention{Kind: KindDiagnostics, Text: "@diagnostics", Scope: ScopeWorkspace}})
	add("changes", Item{Label: "changes", Detail: "git diff of the working tree, and untracked files",
		Mention: Mention{Kind: KindChanges, Text: "@changes"}})
	add("selection", Item{Label: "selection", Detail: "the code selected in the editor",
		Mention: Mention{Kind: KindSelection, Text: "@selection"}})
	add("url", Item{Label: "url", Detail: "a web page: type its address after @url:",
		Mention: Mention{Kind: KindURL, Text: "@url:"}})
	return out
}

// fileMatch is one scored file of a scan.
type fileMatch struct {
	dir   string
	list  *fileList
	i     int
	score int
}

// matchFiles ranks the roots' files against text and returns the best
// limit as items; more says others matched too.
func matchFiles(roots []Root, text string, limit int) ([]Item, bool) {
	if limit <= 0 {
		return nil, true
	}
	m := newMatcher(text)
	var all []fileMatch
	for _, r := range roots {
		l := filesOf(r.Store)
		for i := range l.paths {
			if s, ok := m.score(l.paths[i], l.lower[i], l.base[i]); ok {
				all = append(all, fileMatch{r.Dir, l, i, s})
			}
		}
	}
	// A full sort: about 10,000 matches for a one-character query on
	// GOROOT/src take a few milliseconds (docs/performance.md).
	slices.SortFunc(all, cmpMatch)
	more := len(all) > limit
	if more {
		all = all[:limit]
	}
	out := make([]Item, len(all))
	for k, fm := range all {
		p := fm.list.paths[fm.i]
		it := Item{Label: p, Mention: Mention{Kind: KindFile, Text: "@" + p, Path: p}}
		if len(roots) > 1 {
			it.Detail = baseName(fm.dir)
		}
		out[k] = it
	}
	return out, more
}

func cmpMatch(a, b fileMatch) int {
	pa, pb := a.list.paths[a.i], b.list.paths[b.i]
	return cmp.Or(-cmp.Compare(a.score, b.score), cmp.Compare(len(pa), len(pb)), cmp.Compare(pa, pb))
}

// fileList is a store's paths as the matcher wants them, for one
// PathGen of the store. Read-only once built.
type fileList struct {
	gen   uint64
	paths []string // root-relative, slash-separated
	lower []string
	base  []int // offset of each path's base name
}

type fileListKey struct{}

// fileListHolder is kept with the store (index.Store.Attach).
type fileListHolder struct {
	mu  sync.Mutex // serialises rebuilds
	cur atomic.Pointer[fileList]
}

// WarmFiles builds the store's file list for the picker now, so the
// first keystroke finds it warm, and returns how many files it holds.
// Safe for concurrent use.
func WarmFiles(st *index.Store) int { return len(filesOf(st).paths) }

// filesOf returns the store's file list for the picker, built on first
// use and rebuilt when the store's set of paths changed since; content
// edits keep it.
func filesOf(st *index.Store) *fileList {
	h := st.Attach(fileListKey{}, func() any { return &fileListHolder{} }).(*fileListHolder)
	gen := st.PathGen()
	if l := h.cur.Load(); l != nil && l.gen == gen {
		return l
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if l := h.cur.Load(); l != nil && l.gen == gen {
		return l
	}
	// gen is read before the files: a change between the two is seen by
	// the next call as a newer generation.
	files := st.Files()
	l := &fileList{gen: gen, paths: make([]string, len(files)), lower: make([]string, len(files)), base: make([]int, len(files))}
	for i, f := range files {
		l.paths[i] = f.Path
		l.lower[i] = strings.ToLower(f.Path)
		l.base[i] = strings.LastIndexByte(f.Path, '/') + 1
	}
	h.cur.Store(l)
	return l
}
