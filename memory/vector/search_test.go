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
	if _, err := d.Create("s", dim); err != nil {
		t.Fatal(err)
	}
	if err := d.SetEfSearch("s", ef); err != nil {
		t.Fatal(err)
	}
	vecs := map[uint64][]float32{}
	var items []Item
	for i := range n {
		v := randVec(r, dim)
		vecs[uint64(i+1)] = v
		items = append(items, Item{Vector: v})
	}
	if _, err := d.Add("s", items, ""); err != nil {
		t.Fatal(err)
	}
	var queries [][]float32
	for range 30 {
		queries = append(queries, randVec(r, dim))
	}
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
