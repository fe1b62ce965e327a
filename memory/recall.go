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
// of different queries are not comparable).
type Hit struct {
	Memory
	Score float64 `json:"score"`
	// Matched is how many distinct query terms the memory contains.
	Matched int `json:"matched"`
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
	snap := s.db.NewSnapshot()
	defer snap.Close()
	st, err := readStats(snap.Get)
	if err != nil || st.Docs == 0 {
		return nil, err
	}
	scores, err := bm25Scores(snap, st, uniqueTerms(query))
	if err != nil {
		return nil, fmt.Errorf("memory store %s: recall: %w", s.dir, err)
	}
	type cand struct {
		id    uint64
		score float64
		n     int
	}
	cands := make([]cand, 0, len(scores))
	for id, sc := range scores {
		cands = append(cands, cand{id, sc.score, sc.matched})
	}
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Compare(b.score, a.score) })
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
			m, err := getRecord(snap.Get, c.id)
			if err != nil {
				return nil, fmt.Errorf("memory store %s: recall: %w", s.dir, err)
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

type score struct {
	score   float64
	matched int
}

// bm25Scores reads each term's postings once: their count is the term's
// document frequency, and each posting carries tf and document length.
func bm25Scores(snap *pebble.Snapshot, st stats, terms []string) (map[uint64]*score, error) {
	scores := map[uint64]*score{}
	avgdl := float64(st.Tokens) / float64(st.Docs)
	if avgdl == 0 {
		avgdl = 1
	}
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
		df := float64(len(postings))
		idf := math.Log(1 + (float64(st.Docs)-df+0.5)/(df+0.5))
		for _, p := range postings {
			sc := scores[p.id]
			if sc == nil {
				sc = &score{}
				scores[p.id] = sc
			}
			sc.matched++
			sc.score += idf * p.tf * (bm25K1 + 1) / (p.tf + bm25K1*(1-bm25B+bm25B*p.dl/avgdl))
		}
	}
	return scores, nil
}
