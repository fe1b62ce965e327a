package vector

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
)

// Result is a search hit: the vector's ID, text and metadata, and its
// cosine similarity to the query.
type Result struct {
	ID       uint64         `json:"id"`
	Score    float32        `json:"score"`
	Text     string         `json:"text,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Search returns up to k vectors nearest the query by cosine similarity,
// best first. An index of at most ef·2M live vectors is scanned, which
// is exact. A graph search expands ef nodes or more, of up to 2M links
// each, so below that size it may compute as many distances as the scan:
// on random 384-d vectors (16,000 of them, ef 500, M 16) it found 86% of
// the true top 10 in 4.0 ms where the scan found all of it in 4.8 ms. On
// clustered data the walk visits fewer nodes, so near the bound a scan
// can cost a few times the walk; exactness is worth it at that size.
// Either way the pending tail (vectors stored but not yet in the graph)
// is scanned too, so a search never misses a finished write.
func (d *DB) Search(name string, query []float32, k int) ([]Result, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	info, err := d.current(name)
	if err != nil {
		return nil, err
	}
	q, err := unit(query, info.Dim)
	if err != nil {
		return nil, invalidf("query vector %v", err)
	}
	gr, err := d.loadGraph(info)
	if err != nil {
		return nil, err
	}
	if len(gr.live) == 0 {
		return nil, nil
	}
	// Tombstones may take some of the ef places; a rebuild keeps them
	// under a quarter of the graph.
	ef := max(info.EfSearch, k+min(gr.dead, 4*k))
	var hits []cand
	if len(gr.live) <= ef*gr.g.m0 {
		hits = gr.scan(q, k)
	} else {
		hits = gr.g.search(q, ef)
	}
	var out []Result
	for _, c := range hits {
		if id, ok := gr.live[gr.g.keys[c.node]]; ok {
			out = append(out, Result{ID: id, Score: 1 - c.d})
		}
	}
	out = append(out, gr.scanPending(q, k)...)
	slices.SortFunc(out, func(a, b Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out = out[:min(k, len(out))]
	for i := range out {
		_, _, p, err := d.record(name, out[i].ID, true)
		if err != nil {
			return nil, err
		}
		out[i].Text, out[i].Metadata = p.Text, p.Metadata
	}
	return out, nil
}

// scanPending returns the k live vectors of the pending tail nearest the
// unit vector q.
func (gr *graph) scanPending(q []float32, k int) []Result {
	t := topK{k: k}
	for i, p := range gr.pending {
		if _, ok := gr.live[p.seq]; ok {
			t.offer(int32(i), 1-dot(q, p.vec)) // node: the index in gr.pending
		}
	}
	out := make([]Result, 0, k)
	for _, c := range t.nearest() {
		out = append(out, Result{ID: gr.live[gr.pending[c.node].seq], Score: 1 - c.d})
	}
	return out
}

// topK keeps the k nearest of the candidates offered.
type topK struct {
	k int
	h candHeap // negated distances: the worst kept first
}

func (t *topK) offer(node int32, d float32) {
	if len(t.h) < t.k {
		t.h.push(cand{node, -d})
	} else if d < -t.h[0].d {
		t.h[0] = cand{node, -d}
		t.h.down(0)
	}
}

// nearest empties t and returns what it kept, nearest first.
func (t *topK) nearest() []cand {
	out := make([]cand, len(t.h))
	for i := len(out) - 1; i >= 0; i-- {
		c := t.h.pop()
		out[i] = cand{c.node, -c.d}
	}
	return out
}

// scanSplit is the fewest nodes worth a goroutine of their own in a
// scan (a variable so tests can lower it).
var scanSplit = 8192

// scan returns the k live nodes nearest the unit vector q, nearest first,
// by comparing q with every one of them, in parts on every core for a
// large graph (the DB's lock is held, so nothing changes meanwhile).
func (gr *graph) scan(q []float32, k int) []cand {
	n := gr.g.Len()
	parts := min(runtime.GOMAXPROCS(0), n/scanSplit)
	if parts <= 1 {
		return gr.scanRange(q, k, 0, n)
	}
	found := make([][]cand, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { found[p] = gr.scanRange(q, k, p*n/parts, (p+1)*n/parts) })
	}
	wg.Wait()
	all := slices.Concat(found...)
	slices.SortFunc(all, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
	return all[:min(k, len(all))]
}

// scanRange returns the k live nodes of lo to hi-1 nearest q, nearest
// first.
func (gr *graph) scanRange(q []float32, k, lo, hi int) []cand {
	t := topK{k: k}
	for n := lo; n < hi; n++ {
		if _, ok := gr.live[gr.g.keys[n]]; ok {
			t.offer(int32(n), gr.g.dist(q, int32(n)))
		}
	}
	return t.nearest()
}
