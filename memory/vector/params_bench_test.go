package vector

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/procstat"
)

// BenchmarkGraphParams builds a bare graph (no store) over random unit
// 384-d vectors, in the builder's batches on every core, and reports the
// build rate and, per ef over 100 random queries, recall@10 against brute
// force, the share of the nodes a search computes a distance to, the
// latency (p50, p99) and the mean CPU time of a search. It is how the
// default parameters were chosen. PARLEY_GRAPH_PARAMS="n,M,efC,ef/ef/..."
// picks what to measure; without it, 20,000 vectors at the defaults.
// Run with -benchtime 1x.
func BenchmarkGraphParams(b *testing.B) {
	spec := os.Getenv("PARLEY_GRAPH_PARAMS")
	if spec == "" {
		spec = fmt.Sprintf("20000,%d,%d,%d/%d/%d", DefaultM, DefaultEfConstruction, DefaultEfSearch/2, DefaultEfSearch, 2*DefaultEfSearch)
	}
	f := strings.Split(spec, ",")
	if len(f) != 4 {
		b.Fatalf("PARLEY_GRAPH_PARAMS %q: want n,M,efC,ef/ef/...", spec)
	}
	var nums [3]int
	for i := range nums {
		v, err := strconv.Atoi(f[i])
		if err != nil || v < 2 {
			b.Fatalf("PARLEY_GRAPH_PARAMS %q: %q is not a number of at least 2", spec, f[i])
		}
		nums[i] = v
	}
	n, m, efc := nums[0], nums[1], nums[2]
	const dim = 384
	for b.Loop() {
		r := rand.New(rand.NewPCG(1, 2))
		vecs := make([][]float32, n)
		for i := range vecs {
			vecs[i], _ = unit(randVec(r, dim), dim)
		}
		g := newGraph(dim, m, efc)
		t0, c0 := time.Now(), procstat.ProcessCPU()
		for i := 0; i < n; i += buildBatch {
			var batch []newNode
			for j := i; j < min(n, i+buildBatch); j++ {
				batch = append(batch, newNode{key: uint64(j + 1), vec: vecs[j]})
			}
			g.commit(g.prepare(batch, runtime.GOMAXPROCS(0)), batch)
		}
		b.ReportMetric(float64(n)/time.Since(t0).Seconds(), "inserts/s")
		b.ReportMetric(float64(n)/(procstat.ProcessCPU()-c0).Seconds(), "inserts/cpu-s")
		queries := make([][]float32, 100)
		truth := make([][]int32, len(queries))
		for i := range queries {
			queries[i], _ = unit(randVec(r, dim), dim)
			truth[i] = exactTop(vecs, queries[i], 10)
		}
		for _, es := range strings.Split(f[3], "/") {
			ef, err := strconv.Atoi(es)
			if err != nil || ef < 10 {
				b.Fatalf("ef %q: want a number of at least 10", es)
			}
			graphQueries(b, g, queries, truth, ef)
		}
	}
}

// graphQueries reports recall@10, the share of nodes visited, latency and
// CPU time of searches at ef.
func graphQueries(b *testing.B, g *hnswGraph, queries [][]float32, truth [][]int32, ef int) {
	hit, visited := 0, 0
	var lat []time.Duration
	c0 := procstat.ProcessCPU()
	for i, q := range queries {
		t := time.Now()
		res := g.search(q, ef)
		lat = append(lat, time.Since(t))
		for _, c := range res[:10] {
			if slices.Contains(truth[i], c.node) {
				hit++
			}
		}
		for _, m := range g.sc.mark {
			if m == g.sc.markID {
				visited++
			}
		}
	}
	cpu := procstat.ProcessCPU() - c0
	slices.Sort(lat)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	sfx := fmt.Sprintf("-ef%d", ef)
	b.ReportMetric(float64(hit)/float64(10*len(queries)), "recall@10"+sfx)
	b.ReportMetric(float64(visited)/float64(g.Len()*len(queries)), "visited"+sfx)
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms"+sfx)
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms"+sfx)
	b.ReportMetric(ms(cpu)/float64(len(queries)), "cpu-ms"+sfx)
}
