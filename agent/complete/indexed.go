package complete

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/golang"
	"github.com/parleyhq/parley/index/nav"
)

// indexed adds the declarations the cursor needs, as the index resolves
// them: Go through index/golang's type inference, the other languages
// through the navigation path (index/nav).
func indexed(src Source, c *snippets) {
	if src.Store == nil {
		return
	}
	if src.Language == "go" {
		goContext(src, c)
		return
	}
	syntaxContext(src, c)
}

func goContext(src Source, c *snippets) {
	cur := golang.CompletionAt(src.Store, src.Path, src.Text, src.Offset)
	if m := cur.Members; m != nil {
		why := fmt.Sprintf("members of %s's type %s", m.Operand, m.Type)
		if m.Package {
			why = fmt.Sprintf("exported API of package %s", m.Type)
		}
		addHits(c, m.Hits, why)
	}
	addHits(c, cur.Calls, "called near the cursor")
	if e := cur.Enclosing; e != nil {
		addHits(c, e.Hits, "members of the enclosing type "+e.Type)
	}
}

// fullHits is how many of a list's best hits are shown with their docs'
// first lines; the others show their signatures alone, so that a type or
// package with many members shows more of them within the budget.
const fullHits = 16

// maxListed bounds the hits addHits renders (a package like syscall has a
// thousand exported names; the budget holds a hundred signatures at most).
const maxListed = 128

// addHits adds hits as declaration snippets, one per file in the order of
// each file's best hit, each a list of signatures, the best fullHits
// under their docs' first lines.
func addHits(c *snippets, hits []index.SymbolHit, why string) {
	// No budget holds more than this many signatures.
	hits = hits[:min(len(hits), maxListed)]
	var order []string
	byPath := map[string][]int{} // indices into hits, in rank order
	for i, h := range hits {
		if _, ok := byPath[h.Path]; !ok {
			order = append(order, h.Path)
		}
		byPath[h.Path] = append(byPath[h.Path], i)
	}
	for _, p := range order {
		if c.full() {
			return
		}
		group := make([]index.SymbolHit, len(byPath[p]))
		docs := make([]bool, len(group))
		for j, i := range byPath[p] {
			group[j], docs[j] = hits[i], i < fullHits
		}
		c.add(declSnippet(p, group, docs, why))
	}
}

// declSnippet renders hits as signatures, under their docs' first lines
// where docs says so (nil: every one).
func declSnippet(p string, hits []index.SymbolHit, docs []bool, why string) fim.Snippet {
	var b strings.Builder
	first, last := uint32(1<<31), uint32(0)
	for i, h := range hits {
		s := h.Symbol
		first, last = min(first, s.Range.Start.Line), max(last, s.Range.Start.Line)
		if s.Doc != "" && (docs == nil || docs[i]) {
			fmt.Fprintf(&b, "%s %s\n", docMarker(p), s.Doc)
		}
		b.WriteString(s.Signature)
		b.WriteByte('\n')
	}
	return fim.Snippet{Path: p, StartLine: int(first) + 1, EndLine: int(last) + 1, Text: b.String(), Why: why}
}

// docMarker is the line comment a file's language writes a doc with.
func docMarker(p string) string {
	switch path.Ext(p) {
	case ".py", ".rb", ".sh", ".pl", ".r", ".yaml", ".yml", ".toml":
		return "#"
	case ".lua", ".sql", ".hs":
		return "--"
	}
	return "//"
}

// syntaxContext serves the languages other than Go: after `x.`, x's
// declaration and, when it is a class or names one in its annotation,
// that class's members; then the declarations of the calls around the
// cursor.
func syntaxContext(src Source, c *snippets) {
	text := string(src.Text)
	off := min(max(src.Offset, 0), len(text))
	start := off
	for start > 0 && isIdent(text[start-1]) {
		start--
	}
	if start > 0 && text[start-1] == '.' && !operandMembers(src, c, start-1, text[start:off]) {
		if xs, xe := identBefore(text, start-1); xs < xe {
			membersOf(src, c, xs, text[xs:xe], text[start:off])
		}
	}
	callsNear(src, c, off)
}

func isIdent(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// identBefore is the identifier that ends at end (`self` in `self.`).
func identBefore(s string, end int) (int, int) {
	i := end
	for i > 0 && isIdent(s[i-1]) {
		i--
	}
	return i, end
}

func (src Source) definitions(off int, name string) []index.SymbolHit {
	hits, err := nav.DefinitionSymbolsAt(src.Store, src.Path, src.Text, off, name, src.Read)
	if err != nil {
		return nil
	}
	return hits
}

var callee = regexp.MustCompile(`([A-Za-z_$][A-Za-z0-9_$]*)\s*\(`)

// callsNear adds the declarations, in other files, of the names called on
// the lines around off, the cursor's line first.
func callsNear(src Source, c *snippets, off int) {
	text := string(src.Text)
	ls := lineStarts(text)
	line := lineOf(ls, off)
	var hits []index.SymbolHit
	seen := map[string]bool{}
	for _, d := range []int{0, -1, 1, -2, 2} {
		l := line + d
		if l < 0 || l >= len(ls) || len(hits) >= 8 {
			continue
		}
		end := len(text)
		if l+1 < len(ls) {
			end = ls[l+1]
		}
		for _, m := range callee.FindAllStringSubmatchIndex(text[ls[l]:end], -1) {
			name := text[ls[l]+m[2] : ls[l]+m[3]]
			if seen[name] || keywords[name] {
				continue
			}
			seen[name] = true
			for _, h := range src.definitions(ls[l]+m[2], name) {
				if h.Path != src.Path && h.Symbol.Signature != "" {
					hits = append(hits, h)
					break
				}
			}
		}
	}
	addHits(c, hits, "called near the cursor")
}

func lineStarts(s string) []int {
	out := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

func lineOf(starts []int, off int) int {
	i, _ := slices.BinarySearch(starts, off+1)
	return i - 1
}

// keywords are words a call-like pattern finds that are not calls.
var keywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"function": true, "def": true, "class": true, "elif": true, "with": true,
	"not": true, "and": true, "or": true, "in": true, "typeof": true, "new": true, "await": true,
	"super": true, "sizeof": true, "func": true,
}

// warmLines bounds the lines Warm counts: a few files' worth fit in the
// count memo (memoMaxEntries) before it starts over, so opening one huge
// file must not evict what the file being typed in has counted.
const warmLines = 4000

// Warm builds ahead of the first request what Build reads for the file
// rel of the store, from its content as the editor opened it: for Go its
// package's and its imports' tables (golang.WarmCompletion); for every
// language its lines' token counts, which count (a MemoCount) keeps for
// the prefix and suffix of the requests to come. The language server
// calls it when a document is opened; other languages' parses are warmed
// by the navigation path (nav.WarmSyntax). count may be nil.
func Warm(st *index.Store, rel string, content []byte, count func(string) int) {
	if st != nil && path.Ext(rel) == ".go" {
		golang.WarmCompletion(st, rel, content)
	}
	if count == nil {
		return
	}
	text := string(content)
	for n := 0; text != "" && n < warmLines; n++ {
		end := strings.IndexByte(text, '\n') + 1
		if end == 0 {
			end = len(text)
		}
		count(text[:end]) // as cutPrefix and cutSuffix count: a line with its newline
		text = text[end:]
	}
}
