package vector

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSearchScansSmallIndex: an index of at most ef·2M live vectors is
// searched exactly, before and after removals (tombstones), even at an
// ef where the graph misses much of the top 10 of random 384-d vectors;
// in one part and split across goroutines.
func TestSearchScansSmallIndex(t *testing.T) {
	for _, split := range []int{scanSplit, 100} {
		t.Run(fmt.Sprint("split", split), func(t *testing.T) {
			defer func(old int) { scanSplit = old }(scanSplit)
			scanSplit = split
			testScan(t)
		})
	}
}

func testScan(t *testing.T) {
	d, done := openAt(t, t.TempDir())
	defer done()
	r := rand.New(rand.NewPCG(5, 6))
	const n, dim, ef = 500, 384, 16 // n <= ef·2·DefaultM
	vecs, queries := randIndex(t, d, r, "s", n, dim, ef, 30)
	d.wg.Wait() // the graph's nodes are scanned, not the pending tail
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
// pending tail is scanned). Close leaves the tail to the next Open, which
// reads it back from the records and whose builder puts every one in the
// graph.
func TestSearchCoversPendingTail(t *testing.T) {
	dir := t.TempDir()
	d, done := openAt(t, dir)
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

	done()

	d, done = openAt(t, dir)
	defer done()
	for i, id := range ids {
		res, err := d.Search("p", items[i].Vector, 1)
		if err != nil || len(res) != 1 || res[0].ID != id || res[0].Score < 0.999 {
			t.Fatalf("after reopening, vector %d not found by its own vector: %+v, %v", id, res, err)
		}
	}
	d.wg.Wait()
	d.mu.Lock()
	gr = d.graphs["p"]
	if len(gr.pending) != 0 || gr.g.Len() != n+tail {
		t.Errorf("released builder: %d pending, %d in the graph; want 0, %d", len(gr.pending), gr.g.Len(), n+tail)
	}
	d.mu.Unlock()
}

// TestOldIndexUpgrades: an index made before the format field (M 16, ef
// 100 to build, 500 to search, a snapshot of those) takes the current
// defaults on first use, its graph is rebuilt with them, and every vector
// is still found.
func TestOldIndexUpgrades(t *testing.T) {
	dir := t.TempDir()
	d, done := openAt(t, dir)
	r := rand.New(rand.NewPCG(11, 12))
	const n, dim = 300, 16
	vecs, _ := randIndex(t, d, r, "old", n, dim, 500, 0)
	info, err := d.Info("old")
	if err != nil {
		t.Fatal(err)
	}
	// Make it what an old version wrote: its info and its snapshot.
	info.M, info.EfConstruction, info.EfSearch, info.Format = 16, 100, 500, 0
	old := &graph{g: newHNSW(info)}
	for seq := uint64(1); seq <= n; seq++ { // IDs and sequence numbers are 1 to n
		v, _ := unit(vecs[seq], dim)
		old.g.add(seq, v)
	}
	d.mu.Lock()
	b := d.db.NewBatch()
	err = errors.Join(d.putInfo(b, info), b.Commit(nil), b.Close())
	if err == nil {
		delete(d.graphs, "old")
		err = d.saveGraph("old", old)
	}
	d.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	done()

	d, done = openAt(t, dir)
	defer done()
	for id, v := range vecs {
		res, err := d.Search("old", v, 1)
		if err != nil || len(res) != 1 || res[0].ID != id {
			t.Fatalf("vector %d not found by its own vector: %+v, %v", id, res, err)
		}
	}
	info, err = d.Info("old")
	if err != nil {
		t.Fatal(err)
	}
	if info.M != DefaultM || info.EfConstruction != DefaultEfConstruction || info.EfSearch != DefaultEfSearch || info.Format != indexFormat {
		t.Errorf("after first use: M %d, ef_construction %d, ef_search %d, format %d; want %d, %d, %d, %d",
			info.M, info.EfConstruction, info.EfSearch, info.Format, DefaultM, DefaultEfConstruction, DefaultEfSearch, indexFormat)
	}
	d.wg.Wait()
	d.mu.Lock()
	g := d.graphs["old"].g
	d.mu.Unlock()
	if g.m != DefaultM || g.efConstruction != DefaultEfConstruction || g.Len() != n {
		t.Errorf("graph: M %d, ef_construction %d, %d nodes; want %d, %d, %d", g.m, g.efConstruction, g.Len(), DefaultM, DefaultEfConstruction, n)
	}
}
