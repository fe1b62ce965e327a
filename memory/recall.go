package memory

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// BM25 parameters: the usual defaults (Robertson et al.).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Hit is a recalled memory with its BM25 score (higher is better; scores
// of different queries are not comparable), or a listed one (Select,
// Show: no score).
type Hit struct {
	Memory
	Score float64 `json:"score,omitempty"`
	// Matched is how many distinct query terms the memory contains.
	Matched int `json:"matched,omitempty"`
	// Stale says why the memory's anchors no longer match the code
	// (Set.Stale); empty when they do or were not checked.
	Stale []string `json:"stale,omitempty"`
}

// Recall returns up to k memories matching query, best first, keeping only
// the given types (all when none are given). Ranking is BM25 over content
// and tags; equal scores go to the more important memory, then the more
// recently used or created one. A query with no indexable term (only stop
// words or punctuation) recalls nothing.
func (s *Store) Recall(query string, k int, types ...Type) ([]Hit, error) {
	if k <= 0 {
		return nil, nil
	}
	var hits []Hit
	err := s.with(false, func(db *pebble.DB) (err error) {
		hits, err = recall(db, query, k, types)
		return err
	})
	return hits, err
}

// recall is Recall on an open database.
func recall(db pebble.Reader, query string, k int, types []Type) ([]Hit, error) {
	st, err := readStats(db.Get)
	if err != nil || st.Docs == 0 {
		return nil, err
	}
	var cands []cand
	if len(types) == 0 {
		cands, err = topK(db, st, uniqueTerms(query), k)
	} else {
		// A type filter may drop the best candidates: every candidate is
		// scored, and the filter applies before the cut to k.
		cands, err = bm25Scores(db, st, uniqueTerms(query))
		cands = topCandidates(cands, len(cands))
	}
	if err != nil {
		return nil, err
	}
	var hits []Hit
	// Candidates of equal score are read together so the tie-breaks,
	// which need the records, order the whole group.
	for i := 0; i < len(cands) && len(hits) < k; {
		j := i + 1
		for j < len(cands) && sameScore(cands[j].score, cands[i].score) {
			j++
		}
		var group []Hit
		for _, c := range cands[i:j] {
			m, err := getRecord(db.Get, c.id)
			if err != nil {
				return nil, err
			}
			if wantType(m.Type, types) {
				group = append(group, Hit{Memory: m, Score: c.score, Matched: c.n})
			}
		}
		slices.SortFunc(group, tieBreak)
		hits = append(hits, group[:min(len(group), k-len(hits))]...)
		i = j
	}
	return hits, nil
}

func sameScore(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a)) }

// tieBreak orders memories of equal score: more important first, then the
// more recently used (or created), then the newer ID.
func tieBreak(a, b Hit) int {
	if c := cmp.Compare(b.Importance, a.Importance); c != 0 {
		return c
	}
	if c := lastTouched(b.Memory).Compare(lastTouched(a.Memory)); c != 0 {
		return c
	}
	return cmp.Compare(b.ID, a.ID)
}

func lastTouched(m Memory) (t time.Time) {
	t = m.Created
	if m.Used.After(t) {
		t = m.Used
	}
	if m.Updated.After(t) {
		t = m.Updated
	}
	return t
}

func uniqueTerms(query string) []string {
	terms := tokenize(query)
	slices.Sort(terms)
	return slices.Compact(terms)
}

type cand struct {
	id    uint64
	score float64
	n     int // distinct query terms matched
}

// topCandidates keeps the candidates that can be among the k best, best
// first: those scoring at least the k-th best score, ties included (the
// tie-breaks need the records). It finds that score with a k-sized
// min-heap instead of sorting every candidate.
func topCandidates(cands []cand, k int) []cand {
	if len(cands) > k {
		h := make([]float64, 0, k)
		for _, c := range cands {
			switch {
			case len(h) < k:
				h = append(h, c.score)
				if len(h) == k {
					heapify(h)
				}
			case c.score > h[0]:
				h[0] = c.score
				siftDown(h, 0)
			}
		}
		kth := h[0]
		kept := cands[:0]
		for _, c := range cands {
			if c.score > kth || sameScore(c.score, kth) {
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Compare(b.score, a.score) })
	return cands
}

// heapify and siftDown keep a min-heap of scores (container/heap would
// box every float in an interface).
func heapify(h []float64) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		siftDown(h, i)
	}
}

func siftDown(h []float64, i int) {
	for {
		l, m := 2*i+1, i
		if l < len(h) && h[l] < h[m] {
			m = l
		}
		if r := l + 1; r < len(h) && h[r] < h[m] {
			m = r
		}
		if m == i {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// idf is BM25's inverse document frequency of a term in df memories.
func (st stats) idf(df uint64) float64 {
	return math.Log(1 + (float64(st.Docs)-float64(df)+0.5)/(float64(df)+0.5))
}

// contribution returns BM25's term-frequency part for a term found tf
// times in a memory of dl tokens (times idf, a term's score).
func (st stats) contribution() func(tf, dl float64) float64 {
	avgdl := float64(st.Tokens) / float64(st.Docs)
	if avgdl == 0 {
		avgdl = 1
	}
	return func(tf, dl float64) float64 {
		return tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*dl/avgdl))
	}
}

// bm25Scores scores every memory holding a query term (the exhaustive
// ranking: recall with a type filter, and the reference topK is tested
// against). It reads each term's postings once: their count is the term's
// document frequency, and each posting carries tf and document length.
func bm25Scores(snap pebble.Reader, st stats, terms []string) ([]cand, error) {
	// Scores accumulate in slices indexed by ID (IDs are dense, at most
	// LastID): a map of a common term's 100k postings costs more.
	scores := make([]float64, st.LastID+1)
	matched := make([]int32, st.LastID+1)
	contrib := st.contribution()
	type posting struct {
		id     uint64
		tf, dl float64
	}
	var postings []posting
	for _, t := range terms {
		lo := postingPrefix(t)
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: upperBound(lo)})
		if err != nil {
			return nil, err
		}
		postings = postings[:0]
		for it.First(); it.Valid(); it.Next() {
			key, v := it.Key(), it.Value()
			tf, n := binary.Uvarint(v)
			dl, m := binary.Uvarint(v[max(n, 0):])
			if n <= 0 || m <= 0 || len(key) != len(lo)+8 {
				it.Close()
				return nil, fmt.Errorf("corrupt posting %x", key)
			}
			postings = append(postings, posting{binary.BigEndian.Uint64(key[len(lo):]), float64(tf), float64(dl)})
		}
		if err := errors.Join(it.Error(), it.Close()); err != nil {
			return nil, err
		}
		idf := st.idf(uint64(len(postings)))
		for _, p := range postings {
			if p.id > st.LastID {
				return nil, fmt.Errorf("posting of memory %d past the last ID %d", p.id, st.LastID)
			}
			matched[p.id]++
			scores[p.id] += idf * contrib(p.tf, p.dl)
		}
	}
	var cands []cand
	for id, n := range matched {
		if n > 0 {
			cands = append(cands, cand{uint64(id), scores[id], int(n)})
		}
	}
	return cands, nil
}
