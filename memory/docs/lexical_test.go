package docs

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/procstat"
	"github.com/parleyhq/parley/memory/vector"
)

// lexicalIndex stores n chunks of about size bytes of benchText (words
// w0..w4999) with small random vectors: the lexical half never reads them.
func lexicalIndex(t testing.TB, vdb *vector.DB, name string, n, size int) {
	t.Helper()
	r := rand.New(rand.NewPCG(3, 3))
	if _, err := vdb.Create(name, 4); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i += 500 {
		var items []vector.Item
		for range min(500, n-i) {
			items = append(items, vector.Item{Vector: []float32{r.Float32() + 0.1, r.Float32(), r.Float32(), r.Float32()}, Text: benchText(r, size)})
		}
		if _, err := vdb.Add(name, items, ""); err != nil {
			t.Fatal(err)
		}
	}
}

func sameResults(t *testing.T, query string, got, want []vector.Result) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%q: %d results from the postings, %d from a scan", query, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.ID != w.ID || g.Score != w.Score || g.Text != w.Text || fmt.Sprint(g.Metadata) != fmt.Sprint(w.Metadata) {
			t.Errorf("%q #%d: postings %d %.4f, scan %d %.4f", query, i, g.ID, g.Score, w.ID, w.Score)
		}
	}
}

// TestLexicalPostings: the postings rank exactly as a scan of every chunk
// does, and every kind of write (add, update, remove, an index deleted
// and created again) is seen by the next search.
func TestLexicalPostings(t *testing.T) {
	vdb := openVectors(t)
	lexicalIndex(t, vdb, "docs", 600, 300)
	check := func() {
		t.Helper()
		for _, q := range []string{"w1", "w12 w40", "w4999 w3 w77 w1200", "end", "nothing here", "w17 end"} {
			got, err := bm25(vdb, "docs", q, 20)
			if err != nil {
				t.Fatal(err)
			}
			want, err := bm25Scan(vdb, "docs", q, 20)
			if err != nil {
				t.Fatal(err)
			}
			sameResults(t, q, got, want)
		}
	}
	check()
	first, err := postingsOf(vdb, "docs")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := postingsOf(vdb, "docs"); again != first {
		t.Error("the postings of an unchanged index were built again")
	}

	find := func(query string) []uint64 {
		t.Helper()
		res, err := bm25(vdb, "docs", query, 5)
		if err != nil {
			t.Fatal(err)
		}
		var ids []uint64
		for _, r := range res {
			ids = append(ids, r.ID)
		}
		return ids
	}
	ids, err := vdb.Add("docs", []vector.Item{{Vector: []float32{1, 0, 0, 0}, Text: "zebra crossing"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := find("zebra"); len(got) != 1 || got[0] != ids[0] {
		t.Errorf("after an add: %v, want %v", got, ids)
	}
	check()
	if err := Update(vdb, "docs", []vector.Item{{ID: ids[0], Text: "okapi crossing"}}); err != nil {
		t.Fatal(err)
	}
	if got := find("zebra"); len(got) != 0 {
		t.Errorf("after an update: zebra still found in %v", got)
	}
	if got := find("okapi"); len(got) != 1 {
		t.Errorf("after an update: okapi found in %v", got)
	}
	if _, err := vdb.Remove("docs", ids); err != nil {
		t.Fatal(err)
	}
	if got := find("okapi"); len(got) != 0 {
		t.Errorf("after a remove: %v", got)
	}
	check()
	if err := vdb.Delete("docs"); err != nil {
		t.Fatal(err)
	}
	lexicalIndex(t, vdb, "docs", 3, 300)
	check()
}

// BenchmarkLexicalSearch10k: the lexical half of a document search over
// 10,000 chunks of about 1,000 bytes, by a scan of every chunk (as before
// postings), by warm postings, and by postings built again after a write
// (the first search after it). Wall and CPU time per search.
func BenchmarkLexicalSearch10k(b *testing.B) {
	vdb := openVectors(b)
	lexicalIndex(b, vdb, "docs", 10000, 1000)
	queries := []string{"w12 w40", "w4999 w3 w77", "w1200", "w17 w2500 w9 w300"}
	run := func(b *testing.B, search func(q string) error) {
		i := 0
		start, cpu := time.Now(), procstat.ProcessCPU()
		for b.Loop() {
			if err := search(queries[i%len(queries)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/float64(i)/1000, "wall-ms/op")
		b.ReportMetric(float64((procstat.ProcessCPU()-cpu).Microseconds())/float64(i)/1000, "cpu-ms/op")
	}
	b.Run("scan", func(b *testing.B) {
		run(b, func(q string) error { _, err := bm25Scan(vdb, "docs", q, 40); return err })
	})
	b.Run("postings", func(b *testing.B) {
		run(b, func(q string) error { _, err := bm25(vdb, "docs", q, 40); return err })
	})
	b.Run("postings-after-write", func(b *testing.B) {
		run(b, func(q string) error {
			if _, err := vdb.Add("docs", []vector.Item{{Vector: []float32{1, 0, 0, 0}, Text: "one more chunk"}}, ""); err != nil {
				return err
			}
			_, err := bm25(vdb, "docs", q, 40)
			return err
		})
	})
}
