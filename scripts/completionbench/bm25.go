package main

import (
	"container/heap"
	"math"
	"strings"
	"unicode"

	"github.com/parleyhq/parley/agent/complete/fim"
)

// The baseline retriever, as CrossCodeEval retrieves: windows of
// windowLines lines every windowStride lines over the corpus's files,
// ranked by BM25 (k1 1.2, b 0.75; idf log(1 + (N-n+0.5)/(n+0.5)), which
// is never negative) against the last queryLines lines of the prefix.
// Terms are identifiers split on non-identifier characters and at
// camelCase and snake_case boundaries, lower-cased; an identifier of
// several parts is a term too (`createOperatorSubscriber` and `create`,
// `operator`, `subscriber`), which only helps the baseline.
const (
	windowLines  = 20
	windowStride = 10
	queryLines   = 20
	bm25K1       = 1.2
	bm25B        = 0.75
	// topWindows bounds how many ranked windows are kept per query: far
	// more than a 1,024-token budget holds.
	topWindows = 64
)

type posting struct {
	win uint32
	tf  uint16
}

// windowIndex is the inverted index of a corpus's windows.
type windowIndex struct {
	paths    []string
	lines    [][]string // per file
	fileOf   []uint32   // per window
	startOf  []uint32   // per window, 0-based first line
	docLen   []float32  // per window, terms
	avgLen   float64
	postings map[string][]posting
	byPath   map[string]uint32
	// acc and touched are rank's accumulators (rank is not safe for
	// concurrent use).
	acc     []float64
	touched []uint32
}

// newWindowIndex windows the files read returns (those it fails to read
// are left out).
func newWindowIndex(paths []string, read func(string) ([]byte, error)) *windowIndex {
	x := &windowIndex{postings: map[string][]posting{}, byPath: map[string]uint32{}}
	var total float64
	for _, p := range paths {
		b, err := read(p)
		if err != nil {
			continue
		}
		fi := uint32(len(x.paths))
		x.paths = append(x.paths, p)
		x.byPath[p] = fi
		lines := strings.Split(string(b), "\n")
		x.lines = append(x.lines, lines)
		terms := make([][]string, len(lines))
		for i, l := range lines {
			terms[i] = tokenize(l)
		}
		for start := 0; start < len(lines); start += windowStride {
			end := min(start+windowLines, len(lines))
			tf := map[string]int{}
			n := 0
			for _, ts := range terms[start:end] {
				for _, t := range ts {
					tf[t]++
					n++
				}
			}
			w := uint32(len(x.fileOf))
			x.fileOf = append(x.fileOf, fi)
			x.startOf = append(x.startOf, uint32(start))
			x.docLen = append(x.docLen, float32(n))
			total += float64(n)
			for t, c := range tf {
				x.postings[t] = append(x.postings[t], posting{w, uint16(min(c, math.MaxUint16))})
			}
			if end == len(lines) {
				break
			}
		}
	}
	if len(x.fileOf) > 0 {
		x.avgLen = total / float64(len(x.fileOf))
	}
	x.acc = make([]float64, len(x.fileOf))
	return x
}

// retrieve ranks the windows of every file but exclude against query and
// returns them as snippets within budget tokens (whole lines, a line
// already included not repeated), best first.
func (x *windowIndex) retrieve(query, exclude string, budget int, count func(string) int) []fim.Snippet {
	ranked := x.rank(query, exclude)
	f := filler{budget: budget, count: count, seen: map[[2]uint32]bool{}}
	for _, w := range ranked {
		if f.full() {
			break
		}
		f.add(x, w)
	}
	return f.list
}

// rank scores the windows against the query's terms and returns the top
// ones, best first.
func (x *windowIndex) rank(query, exclude string) []uint32 {
	skip, hasSkip := x.byPath[exclude]
	qtf := map[string]int{}
	for _, t := range tokenize(query) {
		qtf[t]++
	}
	n := float64(len(x.fileOf))
	for t, q := range qtf {
		ps := x.postings[t]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			if hasSkip && x.fileOf[p.win] == skip {
				continue
			}
			tf := float64(p.tf)
			norm := bm25K1 * (1 - bm25B + bm25B*float64(x.docLen[p.win])/x.avgLen)
			if x.acc[p.win] == 0 {
				x.touched = append(x.touched, p.win)
			}
			x.acc[p.win] += float64(q) * idf * tf * (bm25K1 + 1) / (tf + norm)
		}
	}
	h := &topHeap{}
	for _, w := range x.touched {
		s := x.acc[w]
		x.acc[w] = 0
		if h.Len() < topWindows {
			heap.Push(h, scored{w, s})
		} else if s > (*h)[0].score || s == (*h)[0].score && w < (*h)[0].win {
			(*h)[0] = scored{w, s}
			heap.Fix(h, 0)
		}
	}
	x.touched = x.touched[:0]
	out := make([]uint32, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(scored).win
	}
	return out
}

type scored struct {
	win   uint32
	score float64
}

// topHeap is a min-heap by score (ties: the later window is smaller, so
// the earlier one is kept).
type topHeap []scored

func (h topHeap) Len() int { return len(h) }
func (h topHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].win > h[j].win
}
func (h topHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *topHeap) Push(v any)   { *h = append(*h, v.(scored)) }
func (h *topHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

// filler fills a token budget with windows as agent/complete fills it
// with snippets: whole lines while they fit, full when fewer than 8
// tokens are left.
type filler struct {
	list   []fim.Snippet
	used   int
	budget int
	count  func(string) int
	seen   map[[2]uint32]bool // file, line
}

func (f *filler) full() bool { return f.budget-f.used < 8 }

func (f *filler) add(x *windowIndex, w uint32) {
	fi, start := x.fileOf[w], int(x.startOf[w])
	lines := x.lines[fi]
	end := min(start+windowLines, len(lines))
	var kept []string
	first, last := -1, -1
	for i := start; i < end; i++ {
		if f.seen[[2]uint32{fi, uint32(i)}] {
			continue
		}
		n := f.count(lines[i] + "\n")
		if f.used+n > f.budget {
			break
		}
		f.used += n
		f.seen[[2]uint32{fi, uint32(i)}] = true
		if first < 0 {
			first = i
		}
		last = i
		kept = append(kept, lines[i])
	}
	if len(kept) == 0 {
		return
	}
	f.list = append(f.list, fim.Snippet{Path: x.paths[fi], StartLine: first + 1, EndLine: last + 1,
		Text: strings.Join(kept, "\n"), Why: "BM25 window"})
}

// tokenize splits s into BM25 terms (see the comment at the top).
func tokenize(s string) []string {
	var out []string
	isID := func(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return !isID(r) }) {
		parts := splitIdent(word)
		for _, p := range parts {
			if len(p) > 1 && !isNumber(p) {
				out = append(out, p)
			}
		}
		if len(parts) > 1 {
			out = append(out, strings.ToLower(strings.Trim(word, "_$")))
		}
	}
	return out
}

// splitIdent splits an identifier at underscores, dollars and case
// changes (HTTPServer: http, server; parseURL2: parse, url2), lower-cased.
func splitIdent(w string) []string {
	var out []string
	rs := []rune(w)
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, strings.ToLower(string(rs[start:end])))
		}
	}
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == '_' || r == '$' {
			flush(i)
			start = i + 1
			continue
		}
		if i > start && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && nextLower {
				flush(i)
				start = i
			}
		}
	}
	flush(len(rs))
	return out
}

func isNumber(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
