package repomap

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/parleyhq/parley/index"
)

// Mapper builds maps of one store. It keeps the expanded import graph of
// the last index generation it saw (a fingerprint of every file header:
// any re-indexed, added or removed file changes it) and the rankings
// computed on it, so a warm map costs a header scan, one PageRank for a
// new focus, and the symbols of the files shown. Safe for concurrent use.
type Mapper struct {
	st   *index.Store
	root string

	mu    sync.Mutex
	gen   uint64
	names nameCache
	fg    *fileGraph
	ranks map[string][]Ranked // by focus key, for the current generation
}

// maxRankings bounds the rankings kept per generation (one per distinct
// focus set; a session's focus changes slowly).
const maxRankings = 16

// New returns a Mapper of st, whose workspace root is root (needed to
// resolve imports, see index.Store.Graph).
func New(st *index.Store, root string) *Mapper {
	return &Mapper{st: st, root: root}
}

var seed = maphash.MakeSeed()

// generation fingerprints the store's headers; it is order-independent
// so it needs no sort.
func generation(hs []index.FileHeader) uint64 {
	var sum uint64
	for _, h := range hs {
		var m maphash.Hash
		m.SetSeed(seed)
		m.WriteString(h.Path)
		fmt.Fprint(&m, h.ID, h.Hash, h.Size, h.ModTime, h.Status)
		sum += m.Sum64()
	}
	return sum + uint64(len(hs))
}

// Rank returns every indexed file ranked, personalised toward focus
// (store-relative paths).
func (m *Mapper) Rank(focus []string) ([]Ranked, error) {
	hs := m.st.Files()
	gen := generation(hs)
	key := strings.Join(slices.Sorted(slices.Values(focus)), "\x00")
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fg == nil || gen != m.gen {
		g, err := m.st.Graph(m.root)
		if err != nil {
			return nil, fmt.Errorf("repo map: %w", err)
		}
		if err := m.names.update(m.st, hs); err != nil {
			return nil, fmt.Errorf("repo map: %w", err)
		}
		m.fg, m.gen, m.ranks = newFileGraph(&m.names, hs, g), gen, map[string][]Ranked{}
	}
	if r, ok := m.ranks[key]; ok {
		return r, nil
	}
	r := m.fg.ranked(focus)
	if len(m.ranks) >= maxRankings {
		clear(m.ranks)
	}
	m.ranks[key] = r
	return r, nil
}

// ranked runs the ranking and sorts the files, best first.
func (fg *fileGraph) ranked(focus []string) []Ranked {
	var fi []int32
	for _, f := range focus {
		if i, ok := fg.byPath[f]; ok {
			fi = append(fi, i)
		}
	}
	pr := fg.global
	if len(fi) > 0 {
		pr = fg.rank(fi, fg.global)
	}
	out := make([]Ranked, len(pr))
	for i, s := range pr {
		out[i] = Ranked{fg.paths[i], s}
	}
	slices.SortFunc(out, func(a, b Ranked) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.Path, b.Path)
	})
	return out
}

// Mentioned returns the indexed files that text names, in order of first
// mention, for Options.Focus: by their path from the root ("see
// model/model.go:12", "`./cart/cart.go`"), then through the code
// identifiers it names ("`Total`", "cart.Add", "ParseConfig()",
// "parse_config"), each of which names the files declaring it when at
// most maxDeclarers do. Plain words ("Please", "report") are not
// identifiers here, even when something declares them.
func (m *Mapper) Mentioned(text string) []string {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("./_-+@", r)
	})
	for _, w := range words {
		w = strings.TrimRight(strings.TrimPrefix(w, "./"), ".")
		if _, ok := m.st.Header(w); ok {
			add(w)
		}
	}
	for _, id := range identifiers(text) {
		hits, err := m.st.DefinitionSites(id)
		if err != nil {
			continue // a mention is a hint; the map works without it
		}
		var files []string
		for _, h := range hits {
			if h.Name == id && !slices.Contains(files, h.Path) {
				files = append(files, h.Path)
			}
		}
		if len(files) <= maxDeclarers {
			for _, p := range files {
				add(p)
			}
		}
	}
	return out
}

// identifierRE finds candidate identifiers with what marks them as code:
// backquotes around, a qualifier before, or a call's parenthesis after.
var identifierRE = regexp.MustCompile("(`?)((?:[A-Za-z_][A-Za-z0-9_]*\\.)*)([A-Za-z_][A-Za-z0-9_]*)(`?)(\\(?)")

// identifiers returns the code identifiers text names, each once: in
// backquotes, qualified (pkg.F, T.M), called (F()), or spelled like no
// English word is (snake_case, camelCase, PascalCase with two humps).
func identifiers(text string) []string {
	var out []string
	for _, sm := range identifierRE.FindAllStringSubmatch(text, -1) {
		id := sm[3]
		code := sm[1] == "`" && sm[4] == "`" || sm[2] != "" || sm[5] == "(" || looksLikeCode(id)
		if code && len(id) >= 3 && !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

func looksLikeCode(id string) bool {
	if strings.Contains(strings.Trim(id, "_"), "_") {
		return true
	}
	for i, r := range id {
		if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rune(id[i-1])) {
			return true
		}
	}
	return false
}
