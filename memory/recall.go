package memory

import (
	"cmp"
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
	// Similarity is the cosine similarity of the memory's embedding to
	// the query's, in a hybrid recall that ranked it by vector (0
	// otherwise).
	Similarity float64 `json:"similarity,omitempty"`
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
	sc, err := bm25Scores(db, st, uniqueTerms(query))
	if err != nil {
		return nil, err
	}
	// A type filter may drop the best candidates, so then all are kept.
	limit := k
	if len(types) > 0 {
		limit = int(st.LastID) + 1
	}
	cands := topCandidates(sc, limit)
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

// topCandidates returns the memories that can be among the k best,
// best first: those scoring at least the k-th best score, ties included
// (the tie-breaks need the records). It finds that score with a k-sized
// min-heap over the score table instead of sorting every match: a common
// word matches most of a large store.
func topCandidates(sc scoreTable, k int) []cand {
	kth := math.Inf(-1)
	if sc.count > k {
		h := make([]float64, 0, k)
		for id, n := range sc.matched {
			if n == 0 {
				continue
			}
			switch score := sc.scores[id]; {
			case len(h) < k:
				h = append(h, score)
				if len(h) == k {
					heapify(h)
				}
			case score > h[0]:
				h[0] = score
				siftDown(h, 0)
			}
		}
		kth = h[0]
	}
	var cands []cand
	for id, n := range sc.matched {
		if n > 0 && (sc.scores[id] > kth || sameScore(sc.scores[id], kth)) {
			cands = append(cands, cand{uint64(id), sc.scores[id], int(n)})
		}
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

// scoreTable is every memory's BM25 score for a query, indexed by ID
// (IDs are dense, at most LastID: a map of a common term's 100k postings
// costs more), with how many distinct query terms each matched (0: not a
// match) and how many matched.
type scoreTable struct {
	scores  []float64
	matched []int32
	count   int
}

// bm25Scores reads each term's postings: a first pass over the term's
// blocks reads only their counts (the term's document frequency, which
// idf needs), a second decodes the postings straight into the scores, so
// a common term's postings are never copied.
func bm25Scores(db pebble.Reader, st stats, terms []string) (scoreTable, error) {
	sc := scoreTable{scores: make([]float64, st.LastID+1), matched: make([]int32, st.LastID+1)}
	contrib := st.contribution()
	for _, t := range terms {
		df, err := countPostings(db, t)
		if err != nil {
			return sc, err
		}
		if df == 0 {
			continue
		}
		idf := st.idf(df)
		// The contributions of the usual small tf and lengths, computed
		// once per term with the same expression.
		var table [8][64]float64
		for tf := range table {
			for dl := range table[tf] {
				table[tf][dl] = idf * contrib(float64(tf), float64(dl))
			}
		}
		err = eachPosting(db, t, func(p posting) error {
			if p.id > st.LastID {
				return fmt.Errorf("posting of memory %d past the last ID %d", p.id, st.LastID)
			}
			if sc.matched[p.id] == 0 {
				sc.count++
			}
			sc.matched[p.id]++
			if p.tf < 8 && p.dl < 64 {
				sc.scores[p.id] += table[p.tf][p.dl]
			} else {
				sc.scores[p.id] += idf * contrib(float64(p.tf), float64(p.dl))
			}
			return nil
		})
		if err != nil {
			return sc, err
		}
	}
	return sc, nil
}
