package vector

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/procstat"
)

// BenchmarkRecall100k stores 100,000 random 384-d vectors (batches of
// 1,000 synced writes), waits for the builder to put them all in the
// graph, and measures, over 200 random queries at ef 500 and 1000 (graph
// walks) and the default ef (a scan at this size), recall@10 against
// brute force (the target: >= 0.95), search latency and CPU time. It reports the ingest
// rate (writes done, the graph still building) and the build time, both
// in wall and CPU time (all threads: the builder runs beside the writes).
// Run with -benchtime 1x: one build.
func BenchmarkRecall100k(b *testing.B) {
	const n, dim, batch = 100000, 384, 1000
	for b.Loop() {
		d, done := openAt(b, b.TempDir())
		r := rand.New(rand.NewPCG(1, 2))
		if _, err := d.Create("bench", dim); err != nil {
			b.Fatal(err)
		}
		vecs := make([][]float32, n)
		for i := range vecs {
			vecs[i] = randVec(r, dim)
		}
		start, cpu := time.Now(), procstat.ProcessCPU()
		for i := 0; i < n; i += batch {
			items := make([]Item, batch)
			for j := range items {
				items[j] = Item{Vector: vecs[i+j]}
			}
			if _, err := d.Add("bench", items, ""); err != nil {
				b.Fatal(err)
			}
		}
		ingest, ingestCPU := time.Since(start), procstat.ProcessCPU()-cpu
		d.wg.Wait()
		build, buildCPU := time.Since(start), procstat.ProcessCPU()-cpu
		b.ReportMetric(float64(n)/ingest.Seconds(), "inserts/s")
		b.ReportMetric(float64(n)/ingestCPU.Seconds(), "inserts/cpu-s")
		b.ReportMetric(build.Seconds(), "build-s")
		b.ReportMetric(buildCPU.Seconds(), "build-cpu-s")
		units := make([][]float32, n)
		for i, v := range vecs {
			units[i], _ = unit(v, dim)
		}
		queries := make([][]float32, 200)
		for i := range queries {
			queries[i] = randVec(r, dim)
		}
		// Search scans an index of at most ef·2M vectors (at the default
		// ef, this one) and walks the graph above.
		for _, ef := range []int{500, 1000, DefaultEfSearch} {
			if err := d.SetEfSearch("bench", ef); err != nil {
				b.Fatal(err)
			}
			name := fmt.Sprintf("ef%d", ef)
			if n <= ef*2*DefaultM {
				name = fmt.Sprintf("ef%d-scan", ef)
			}
			recall, p50, p99, cpu := benchQueries(b, d, units, queries)
			b.ReportMetric(recall, "recall@10-"+name)
			b.ReportMetric(p50, "search-p50-ms-"+name)
			b.ReportMetric(p99, "search-p99-ms-"+name)
			b.ReportMetric(cpu, "search-cpu-ms-"+name)
		}
		t0 := time.Now()
		done()
		b.ReportMetric(time.Since(t0).Seconds(), "snapshot-s")
	}
}

// benchQueries measures recall@10 against brute force, the search
// latency (p50, p99 in ms) and the mean CPU time of a search (ms) over
// queries.
func benchQueries(b *testing.B, d *DB, units [][]float32, queries [][]float32) (recall, p50, p99, cpu float64) {
	n, dim := len(units), len(units[0])
	hit, total := 0, 0
	var lat []time.Duration
	var spent time.Duration
	for _, q := range queries {
		qu, _ := unit(q, dim)
		type s struct {
			id    uint64
			score float32
		}
		all := make([]s, n)
		for i, v := range units {
			all[i] = s{uint64(i + 1), dot(qu, v)}
		}
		slices.SortFunc(all, func(a, b s) int {
			switch {
			case a.score > b.score:
				return -1
			case a.score < b.score:
				return 1
			}
			return 0
		})
		t0, c0 := time.Now(), procstat.ProcessCPU()
		res, err := d.Search("bench", q, 10)
		lat = append(lat, time.Since(t0))
		spent += procstat.ProcessCPU() - c0
		if err != nil {
			b.Fatal(err)
		}
		for _, x := range all[:10] {
			for _, got := range res {
				if got.ID == x.id {
					hit++
				}
			}
		}
		total += 10
	}
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return float64(hit) / float64(total), ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), ms(spent) / float64(len(queries))
}

// BenchmarkScan100k is the exact scan Search makes of an index of at most
// ef·2M vectors, over 100,000 random 384-d ones (no graph built): wall
// and CPU time per search (cpu-ms/op counts all threads: the scan runs on
// every core).
func BenchmarkScan100k(b *testing.B) {
	const n, dim = 100000, 384
	r := rand.New(rand.NewPCG(1, 2))
	gr := &graph{g: newGraph(dim, DefaultM, DefaultEfConstruction), live: map[uint64]uint64{}}
	batch := make([]newNode, n)
	for i := range batch {
		v, _ := unit(randVec(r, dim), dim)
		batch[i] = newNode{key: uint64(i + 1), vec: v, links: [][]int32{nil}}
		gr.live[uint64(i+1)] = uint64(i + 1)
	}
	gr.g.commit(0, batch)
	q, _ := unit(randVec(r, dim), dim)
	c0 := procstat.ProcessCPU()
	for b.Loop() {
		if got := gr.scan(q, 10); len(got) != 10 {
			b.Fatalf("%d results", len(got))
		}
	}
	b.ReportMetric(float64((procstat.ProcessCPU()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
