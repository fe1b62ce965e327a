package mentions

// A small fuzzy matcher for file paths, in the manner of fzf's and VS
// Code's quick open: the query's characters must appear in the path in
// order (case-insensitively), and a match scores more where they start
// path segments or words, run on consecutively, or fall in the base name.
// Written here rather than taken from a library because the picker's
// latency bound (50 ms p95 over GOROOT/src's ~10,000 files on a shared
// two-core machine) wants lower-case paths and base-name offsets
// computed once per file list and a scratch buffer reused across the
// scan, and because path-aware bonuses (segment starts, the base name)
// decide the ranking; the libraries listed for this module (sahilm/fuzzy,
// lithammer/fuzzysearch) lower-case every candidate at each call and
// rank by generic word bonuses.

// Scores of the matcher.
const (
	scoreMatch       = 16
	bonusBoundary    = 10 // at the start of a segment or word
	bonusBaseStart   = 8  // at the start of the base name (on top of boundary)
	bonusConsecutive = 8  // right after the previous matched character
	bonusInBase      = 4  // anywhere in the base name
	bonusBasePrefix  = 32 // the base name starts with the whole query
	gapPenalty       = 1  // per character skipped between two matches
	noScore          = -1 << 30
)

// matcher scores paths against one query; its scratch rows are reused.
// Not safe for concurrent use.
type matcher struct {
	q         string // lower-case, without spaces
	prev, cur []int
}

func newMatcher(q string) *matcher {
	b := make([]byte, 0, len(q))
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c == ' ' || c == '\t' {
			continue
		}
		b = append(b, lowerByte(c))
	}
	return &matcher{q: string(b)}
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// subsequence reports whether q's bytes appear in lp in order.
func subsequence(q, lp string) bool {
	j := 0
	for i := 0; i < len(lp) && j < len(q); i++ {
		if lp[i] == q[j] {
			j++
		}
	}
	return j == len(q)
}

// boundary is the bonus for a match at j of path p.
func boundary(p string, j, base int) int {
	b := 0
	switch {
	case j == 0:
		b = bonusBoundary
	default:
		c, prev := p[j], p[j-1]
		switch {
		case prev == '/' || prev == '_' || prev == '-' || prev == '.' || prev == ' ':
			b = bonusBoundary
		case 'a' <= prev && prev <= 'z' && 'A' <= c && c <= 'Z':
			b = bonusBoundary // camelCase
		}
	}
	if j == base {
		b += bonusBaseStart
	}
	if j >= base {
		b += bonusInBase
	}
	return b
}

// score is the best score of the query against path p (lp its lower
// case, base the offset of its base name); ok is false when the query is
// not a subsequence of the path. An empty query scores 0.
func (m *matcher) score(p, lp string, base int) (int, bool) {
	q := m.q
	if q == "" {
		return 0, true
	}
	if !subsequence(q, lp) {
		return 0, false
	}
	n := len(lp)
	if cap(m.prev) < n {
		m.prev, m.cur = make([]int, n), make([]int, n)
	}
	prev, cur := m.prev[:n], m.cur[:n]
	for j := range n {
		prev[j] = noScore
		if lp[j] == q[0] {
			prev[j] = scoreMatch + boundary(p, j, base)
		}
	}
	for i := 1; i < len(q); i++ {
		gap := noScore // best prev[k] - gapPenalty*(j-1-k) over k < j
		for j := range n {
			cur[j] = noScore
			if j > 0 {
				gap = max(gap-gapPenalty, prev[j-1])
			}
			if lp[j] != q[i] || j == 0 {
				continue
			}
			best := gap
			if prev[j-1] > noScore {
				best = max(best, prev[j-1]+bonusConsecutive)
			}
			if best > noScore/2 {
				cur[j] = best + scoreMatch + boundary(p, j, base)
			}
		}
		prev, cur = cur, prev
	}
	best := noScore
	for _, s := range prev {
		best = max(best, s)
	}
	if len(lp)-base >= len(q) && lp[base:base+len(q)] == q {
		best += bonusBasePrefix
	}
	return best, best > noScore/2
}
