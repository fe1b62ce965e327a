package docs

import (
	"cmp"
	"errors"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/memory/vector"
)

// The lexical half of a document search: BM25 (k1 1.2, b 0.75) over an
// index's chunk texts, answered from postings (term -> chunks and term
// frequencies), so a query reads the chunks of its own terms rather than
// every chunk.
//
// The postings live in memory, built from the index's records by one scan
// and kept while the index is unchanged: the vector indices belong to one
// process (memory.Store.Vectors), so nothing else changes them meanwhile,
// and nearly every write moves the index's Info (an added vector, or one
// given a new vector, takes a fresh sequence number, a removed one lowers
// Count, a recreated index has another Created), which sends the next
// search back to one scan. The exception is an update of text and
// metadata alone, which keeps the vector and its sequence number: it must
// go through Update.
//
// Persisted postings would need every vector write to update them, inside
// memory/vector; the indices are written in bursts (a document's chunks)
// and searched many times after, which a rebuild per burst serves.

// lexCacheSize is how many indices' postings are kept (least recently
// searched dropped first): an index of 10,000 chunks of 1,000 bytes
// takes about 15 MB of them.
const lexCacheSize = 4

type posting struct {
	doc int32 // index into lexIndex.ids
	tf  float32
}

// lexState is what changes in an index's Info on every write.
type lexState struct {
	created time.Time
	nextSeq uint64
	count   int
}

type lexIndex struct {
	vdb      *vector.DB
	name     string
	state    lexState
	ids      []uint64
	lens     []float32 // terms per chunk
	avg      float64   // mean terms per chunk (at least 1)
	postings map[string][]posting
	used     uint64 // lexCache.clock at the last search
}

// lexCache holds the postings of the indices searched last.
var lexCache struct {
	mu      sync.Mutex
	clock   uint64
	entries []*lexIndex
}

// Update is vector.DB.Update for document indices: it drops the index's
// postings, which an update of text alone would not invalidate.
func Update(vdb *vector.DB, index string, items []vector.Item) error {
	err := vdb.Update(index, items, "")
	lexCache.mu.Lock()
	defer lexCache.mu.Unlock()
	lexCache.entries = slices.DeleteFunc(lexCache.entries, func(e *lexIndex) bool { return e.vdb == vdb && e.name == index })
	return err
}

// postingsOf returns the index's postings, built again when the index
// changed since they were.
func postingsOf(vdb *vector.DB, name string) (*lexIndex, error) {
	info, err := vdb.Info(name)
	if err != nil {
		return nil, err
	}
	state := lexState{info.Created, info.NextSeq, info.Count}
	lexCache.mu.Lock()
	defer lexCache.mu.Unlock()
	lexCache.clock++
	for i, e := range lexCache.entries {
		if e.vdb != vdb || e.name != name {
			continue
		}
		if e.state.created.Equal(state.created) && e.state.nextSeq == state.nextSeq && e.state.count == state.count {
			e.used = lexCache.clock
			return e, nil
		}
		lexCache.entries = slices.Delete(lexCache.entries, i, i+1)
		break
	}
	// Built under the lock: concurrent searches of a changed index would
	// otherwise each scan it.
	e, err := buildPostings(vdb, name, state)
	if err != nil {
		return nil, err
	}
	e.used = lexCache.clock
	if len(lexCache.entries) == lexCacheSize {
		oldest := 0
		for i, x := range lexCache.entries {
			if x.used < lexCache.entries[oldest].used {
				oldest = i
			}
		}
		lexCache.entries = slices.Delete(lexCache.entries, oldest, oldest+1)
	}
	lexCache.entries = append(lexCache.entries, e)
	return e, nil
}

// buildPostings reads every chunk of the index once.
func buildPostings(vdb *vector.DB, name string, state lexState) (*lexIndex, error) {
	e := &lexIndex{vdb: vdb, name: name, state: state, postings: map[string][]posting{}}
	var total float64
	tf := map[string]float32{}
	err := vdb.Each(name, func(id uint64, text string, _ map[string]any) error {
		doc := int32(len(e.ids))
		terms := memory.Terms(text)
		clear(tf)
		for _, t := range terms {
			tf[t]++
		}
		for t, n := range tf {
			e.postings[t] = append(e.postings[t], posting{doc, n})
		}
		e.ids = append(e.ids, id)
		e.lens = append(e.lens, float32(len(terms)))
		total += float64(len(terms))
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.avg = max(total/max(float64(len(e.ids)), 1), 1)
	return e, nil
}

// bm25 ranks the index's chunks by BM25 for query and returns the best n
// with their texts and metadata.
func bm25(vdb *vector.DB, index, query string, n int) ([]vector.Result, error) {
	q := memory.Terms(query)
	slices.Sort(q)
	q = slices.Compact(q)
	if len(q) == 0 {
		return nil, nil
	}
	e, err := postingsOf(vdb, index)
	if err != nil {
		return nil, err
	}
	count := float64(len(e.ids))
	scores := map[int32]float64{}
	for _, t := range q {
		ps := e.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (count-df+0.5)/(df+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			scores[p.doc] += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*float64(e.lens[p.doc])/e.avg))
		}
	}
	type scored struct {
		id    uint64
		score float32
	}
	ranked := make([]scored, 0, len(scores))
	for doc, s := range scores {
		ranked = append(ranked, scored{e.ids[doc], float32(s)})
	}
	slices.SortFunc(ranked, func(a, b scored) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	var out []vector.Result
	for _, r := range ranked {
		if len(out) == n {
			break
		}
		it, err := vdb.Get(index, r.id)
		if errors.Is(err, vector.ErrNotFound) {
			continue // removed since the postings were read
		}
		if err != nil {
			return nil, err
		}
		out = append(out, vector.Result{ID: r.id, Score: r.score, Text: it.Text, Metadata: it.Metadata})
	}
	return out, nil
}
