package vector

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// openAt opens a Pebble database and the vector DB in dir.
func openAt(t testing.TB, dir string) (*DB, func()) {
	t.Helper()
	pdb, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(pdb, 'V', filepath.Join(dir, "hnsw"))
	if err != nil {
		t.Fatal(err)
	}
	return d, func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
		if err := pdb.Close(); err != nil {
			t.Error(err)
		}
	}
}

type quietLogger struct{}

func (quietLogger) Infof(string, ...any)         {}
func (quietLogger) Errorf(string, ...any)        {}
func (quietLogger) Fatalf(f string, args ...any) { panic(fmt.Sprintf(f, args...)) }

func randVec(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func TestIndexLifecycle(t *testing.T) {
	d, done := openAt(t, t.TempDir())
	defer done()
	if _, err := d.Create("docs", 4); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Create("notes", 8); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		name string
		dim  int
	}{{"docs", 4}, {"Bad Name", 4}, {"", 4}, {"..", 4}, {"x", 0}, {"y", MaxDim + 1}} {
		if _, err := d.Create(bad.name, bad.dim); !errors.Is(err, ErrInvalid) {
			t.Errorf("Create(%q, %d) = %v, want ErrInvalid", bad.name, bad.dim, err)
		}
	}
	list, err := d.List()
	if err != nil || len(list) != 2 || list[0].Name != "docs" || list[1].Dim != 8 {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if _, err := d.Add("docs", []Item{{Vector: []float32{1, 0, 0, 0}}}, ""); err != nil {
		t.Fatal(err)
	}
	if err := d.Delete("docs"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Info("docs"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Info after Delete: %v", err)
	}
	if err := d.Delete("docs"); !errors.Is(err, ErrNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if err := d.SetEfSearch("notes", 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("SetEfSearch 0: %v", err)
	}
	if err := d.SetEfSearch("notes", 900); err != nil {
		t.Fatal(err)
	}
	if info, _ := d.Info("notes"); info.EfSearch != 900 {
		t.Errorf("ef_search %d after SetEfSearch 900", info.EfSearch)
	}
	// A new index of the same name starts empty.
	if _, err := d.Create("docs", 4); err != nil {
		t.Fatal(err)
	}
	if ids, _ := d.IDs("docs"); len(ids) != 0 {
		t.Errorf("recreated index has vectors %v", ids)
	}
	if res, err := d.Search("docs", []float32{1, 0, 0, 0}, 3); err != nil || len(res) != 0 {
		t.Errorf("search of the recreated index = %v, %v", res, err)
	}
}

func TestItems(t *testing.T) {
	d, done := openAt(t, t.TempDir())
	defer done()
	d.Create("ix", 3)
	ids, err := d.Add("ix", []Item{
		{Vector: []float32{1, 0, 0}, Text: "x axis", Metadata: map[string]any{"axis": "x"}},
		{ID: 10, Vector: []float32{0, 2, 0}, Text: "y axis"},
		{Vector: []float32{0, 0, 3}},
	}, "")
	if err != nil || !slices.Equal(ids, []uint64{1, 10, 11}) {
		t.Fatalf("Add = %v, %v", ids, err)
	}
	got, err := d.Get("ix", 10)
	if err != nil || got.Text != "y axis" || !slices.Equal(got.Vector, []float32{0, 1, 0}) {
		t.Errorf("Get(10) = %+v, %v (want the unit vector)", got, err)
	}
	errs := []struct {
		name string
		err  error
		want error
	}{
		{"dimension", second(d.Add("ix", []Item{{Vector: []float32{1, 0}}}, "")), ErrInvalid},
		{"zero vector", second(d.Add("ix", []Item{{Vector: []float32{0, 0, 0}}}, "")), ErrInvalid},
		{"existing id", second(d.Add("ix", []Item{{ID: 10, Vector: []float32{1, 1, 1}}}, "")), ErrInvalid},
		{"id twice", second(d.Put("ix", []Item{{ID: 50, Vector: []float32{1, 1, 1}}, {ID: 50, Vector: []float32{1, 1, 1}}}, "")), ErrInvalid},
		{"update unknown", d.Update("ix", []Item{{ID: 99, Vector: []float32{1, 1, 1}}}, ""), ErrNotFound},
		{"unknown index", second(d.Add("nope", []Item{{Vector: []float32{1}}}, "")), ErrNotFound},
		{"get unknown", second(d.Get("ix", 99)), ErrNotFound},
	}
	for _, e := range errs {
		if !errors.Is(e.err, e.want) {
			t.Errorf("%s: %v, want %v", e.name, e.err, e.want)
		}
	}
	// A failed Add stored nothing.
	if info, _ := d.Info("ix"); info.Count != 3 {
		t.Errorf("count %d after failed writes, want 3", info.Count)
	}
	// Metadata-only update keeps the vector; a vector update moves it.
	if err := d.Update("ix", []Item{{ID: 1, Text: "renamed"}}, ""); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Get("ix", 1); got.Text != "renamed" || !slices.Equal(got.Vector, []float32{1, 0, 0}) || got.Metadata != nil {
		t.Errorf("after metadata update %+v", got)
	}
	if err := d.Update("ix", []Item{{ID: 11, Vector: []float32{1, 0.01, 0}}}, ""); err != nil {
		t.Fatal(err)
	}
	res, err := d.Search("ix", []float32{1, 0, 0}, 2)
	if err != nil || len(res) != 2 || res[0].ID != 1 || res[1].ID != 11 || res[0].Text != "renamed" {
		t.Fatalf("search after update = %+v, %v", res, err)
	}
	if n, err := d.Remove("ix", []uint64{1, 77}); n != 1 || err != nil {
		t.Errorf("Remove = %d, %v", n, err)
	}
	res, _ = d.Search("ix", []float32{1, 0, 0}, 5)
	if len(res) != 2 || res[0].ID != 11 {
		t.Errorf("search after remove = %+v", res)
	}
	if _, err := d.Search("ix", []float32{1, 0}, 2); !errors.Is(err, ErrInvalid) {
		t.Errorf("query of the wrong dimension: %v", err)
	}
	// Embeddings of different models do not mix.
	if _, err := d.Add("ix", []Item{{Vector: []float32{1, 1, 0}, Text: "t"}}, "model-a"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Add("ix", []Item{{Vector: []float32{1, 1, 0}, Text: "t"}}, "model-b"); !errors.Is(err, ErrInvalid) {
		t.Errorf("another model's embedding: %v", err)
	}
}

func second[T any](_ T, err error) error { return err }

// bruteForce is the exact top k by cosine similarity.
func bruteForce(vecs map[uint64][]float32, q []float32, k int) []uint64 {
	type s struct {
		id    uint64
		score float32
	}
	qu, _ := unit(q, len(q))
	var all []s
	for id, v := range vecs {
		vu, _ := unit(v, len(v))
		var dot float32
		for i := range vu {
			dot += vu[i] * qu[i]
		}
		all = append(all, s{id, dot})
	}
	slices.SortFunc(all, func(a, b s) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return int(a.id) - int(b.id)
	})
	var ids []uint64
	for _, x := range all[:k] {
		ids = append(ids, x.id)
	}
	return ids
}

// recallAt10 is the share of the exact top 10 a search returns.
func recallAt10(t testing.TB, d *DB, name string, vecs map[uint64][]float32, queries [][]float32) float64 {
	t.Helper()
	hit, total := 0, 0
	for _, q := range queries {
		want := bruteForce(vecs, q, 10)
		res, err := d.Search(name, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if _, ok := vecs[r.ID]; !ok {
				t.Fatalf("search returned removed vector %d", r.ID)
			}
			if slices.Contains(want, r.ID) {
				hit++
			}
		}
		total += len(want)
	}
	return float64(hit) / float64(total)
}

// TestSearchRecall checks the graph against brute force on a small index,
// before and after replacing and removing a third of it (tombstones and a
// rebuild), and after reopening. Its ef keeps n above ef·2M, so Search
// walks the graph rather than scanning.
func TestSearchRecall(t *testing.T) {
	dir := t.TempDir()
	d, done := openAt(t, dir)
	r := rand.New(rand.NewPCG(3, 4))
	const n, dim, ef = 2000, 32, 24 // n > ef·2·DefaultM
	vecs, queries := randIndex(t, d, r, "r", n, dim, ef, 50)
	got := recallAt10(t, d, "r", vecs, queries)
	t.Logf("recall@10 %.3f", got)
	if got < 0.9 {
		t.Errorf("recall@10 %.3f, want >= 0.9", got)
	}
	for id := uint64(1); id <= n; id += 3 {
		if id%2 == 0 {
			d.Remove("r", []uint64{id})
			delete(vecs, id)
			continue
		}
		v := randVec(r, dim)
		if err := d.Update("r", []Item{{ID: id, Vector: v}}, ""); err != nil {
			t.Fatal(err)
		}
		vecs[id] = v
	}
	if got := recallAt10(t, d, "r", vecs, queries); got < 0.9 {
		t.Errorf("recall@10 after updates %.3f, want >= 0.9", got)
	}
	done()
	if _, err := os.Stat(filepath.Join(dir, "hnsw", "r.hnsw")); err != nil {
		t.Errorf("no snapshot after Close: %v", err)
	}
	d, done = openAt(t, dir)
	defer done()
	if got := recallAt10(t, d, "r", vecs, queries); got < 0.9 {
		t.Errorf("recall@10 after reopening %.3f, want >= 0.9", got)
	}
	if info, _ := d.Info("r"); info.Count != len(vecs) {
		t.Errorf("count %d, want %d", info.Count, len(vecs))
	}
}

// TestSnapshotRecovery reopens after changes the snapshot does not hold,
// and with a damaged snapshot: the records win either way.
func TestSnapshotRecovery(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(5, 6))
	vecs := map[uint64][]float32{}
	d, done := openAt(t, dir)
	d.Create("s", 8)
	for i := range 100 {
		v := randVec(r, 8)
		vecs[uint64(i+1)] = v
		d.Add("s", []Item{{Vector: v}}, "")
	}
	done()
	snap := filepath.Join(dir, "hnsw", "s.hnsw")
	old, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	d, done = openAt(t, dir)
	for i := 100; i < 150; i++ {
		v := randVec(r, 8)
		vecs[uint64(i+1)] = v
		d.Add("s", []Item{{Vector: v}}, "")
	}
	d.Remove("s", []uint64{1, 2, 3})
	delete(vecs, 1)
	delete(vecs, 2)
	delete(vecs, 3)
	done()
	check := func(what string) {
		t.Helper()
		d, done := openAt(t, dir)
		defer done()
		for id, v := range vecs {
			res, err := d.Search("s", v, 1)
			if err != nil || len(res) != 1 || res[0].ID != id {
				t.Fatalf("%s: search for vector %d = %+v, %v", what, id, res, err)
			}
		}
		for _, gone := range []uint64{1, 2, 3} {
			if _, err := d.Get("s", gone); !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: removed vector %d: %v", what, gone, err)
			}
		}
	}
	// The old snapshot lacks 50 vectors and holds 3 removed ones.
	if err := os.WriteFile(snap, old, 0o600); err != nil {
		t.Fatal(err)
	}
	check("stale snapshot")
	old[len(old)/2] ^= 0xff
	if err := os.WriteFile(snap, old, 0o600); err != nil {
		t.Fatal(err)
	}
	check("damaged snapshot")
	os.Remove(snap)
	check("no snapshot")
}

// TestConcurrentUse adds, updates, removes and searches from several
// goroutines (run with -race).
func TestConcurrentUse(t *testing.T) {
	d, done := openAt(t, t.TempDir())
	defer done()
	d.Create("c", 8)
	errs := make(chan error, 4)
	for w := range 4 {
		go func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for i := range 50 {
				ids, err := d.Add("c", []Item{{Vector: randVec(r, 8), Text: fmt.Sprint(w, i)}}, "")
				if err == nil && i%3 == 0 {
					err = d.Update("c", []Item{{ID: ids[0], Vector: randVec(r, 8)}}, "")
				}
				if err == nil && i%5 == 0 {
					_, err = d.Remove("c", ids)
				}
				if err == nil {
					_, err = d.Search("c", randVec(r, 8), 3)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if info, _ := d.Info("c"); info.Count != 4*40 {
		t.Errorf("count %d, want %d", info.Count, 4*40)
	}
}

// randIndex creates index name of n random dim-dimensional vectors (IDs 1
// to n) searched at ef, and returns them by ID with q random queries.
func randIndex(t *testing.T, d *DB, r *rand.Rand, name string, n, dim, ef, q int) (map[uint64][]float32, [][]float32) {
	t.Helper()
	if _, err := d.Create(name, dim); err != nil {
		t.Fatal(err)
	}
	if err := d.SetEfSearch(name, ef); err != nil {
		t.Fatal(err)
	}
	vecs := map[uint64][]float32{}
	var items []Item
	for i := range n {
		v := randVec(r, dim)
		vecs[uint64(i+1)] = v
		items = append(items, Item{Vector: v})
	}
	if _, err := d.Add(name, items, ""); err != nil {
		t.Fatal(err)
	}
	var queries [][]float32
	for range q {
		queries = append(queries, randVec(r, dim))
	}
	return vecs, queries
}
