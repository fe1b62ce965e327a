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
