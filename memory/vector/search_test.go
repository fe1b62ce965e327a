package vector

import (
	"math/rand/v2"
	"testing"
)

// TestSearchScansSmallIndex: an index of at most ef·2M live vectors is
// searched exactly, before and after removals (tombstones), even at an
// ef where the graph misses much of the top 10 of random 384-d vectors.
func TestSearchScansSmallIndex(t *testing.T) {
	d, done := openAt(t, t.TempDir())
	defer done()
	r := rand.New(rand.NewPCG(5, 6))
	const n, dim, ef = 500, 384, 16 // n <= ef·2·DefaultM
	vecs, queries := randIndex(t, d, r, "s", n, dim, ef, 30)
	if got := recallAt10(t, d, "s", vecs, queries); got != 1 {
		t.Errorf("recall@10 %.3f, want 1 (exact)", got)
	}
	for id := uint64(1); id <= n; id += 4 {
		if _, err := d.Remove("s", []uint64{id}); err != nil {
			t.Fatal(err)
		}
		delete(vecs, id)
	}
	if got := recallAt10(t, d, "s", vecs, queries); got != 1 {
		t.Errorf("recall@10 after removals %.3f, want 1 (exact)", got)
	}
}

// TestSearchCoversPendingTail: vectors written while the builder is held
// back are not in the graph yet, and searches find them all the same (the
// pending tail is scanned); once released, the builder puts every one in
// the graph, and Close leaves none pending.
func TestSearchCoversPendingTail(t *testing.T) {
	d, done := openAt(t, t.TempDir())
	defer done()
	r := rand.New(rand.NewPCG(9, 10))
	const n, tail, dim, ef = 2000, 300, 32, 8 // n > ef·2·DefaultM: the graph is walked
	vecs, queries := randIndex(t, d, r, "p", n, dim, ef, 30)
	d.wg.Wait()
	before := recallAt10(t, d, "p", vecs, queries)

	d.mu.Lock()
	d.hold = true
	d.mu.Unlock()
	var items []Item
	for range tail {
		items = append(items, Item{Vector: randVec(r, dim)})
	}
	ids, err := d.Add("p", items, "")
	if err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	gr := d.graphs["p"]
	if len(gr.pending) != tail || gr.g.Len() != n {
		t.Fatalf("held builder: %d pending, %d in the graph; want %d, %d", len(gr.pending), gr.g.Len(), tail, n)
	}
	d.mu.Unlock()
	for i, id := range ids {
		vecs[id] = items[i].Vector
		res, err := d.Search("p", items[i].Vector, 1)
		if err != nil || len(res) != 1 || res[0].ID != id || res[0].Score < 0.999 {
			t.Fatalf("pending vector %d not found by its own vector: %+v, %v", id, res, err)
		}
	}
	if got := recallAt10(t, d, "p", vecs, queries); got < before-0.05 {
		t.Errorf("recall@10 with a pending tail %.3f, %.3f without", got, before)
	}

	d.mu.Lock()
	d.hold = false
	d.kick()
	d.mu.Unlock()
	d.wg.Wait()
	d.mu.Lock()
	if len(gr.pending) != 0 || gr.g.Len() != n+tail {
		t.Errorf("released builder: %d pending, %d in the graph; want 0, %d", len(gr.pending), gr.g.Len(), n+tail)
	}
	d.mu.Unlock()
}
