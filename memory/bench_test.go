package memory

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/fakellm"
	"github.com/parleyhq/parley/internal/procstat"
	"github.com/parleyhq/parley/memory/embed"
)

// benchWords is a vocabulary with a Zipf-like use: a few words are in
// many memories, most in few, as in prose.
func benchWords(n int) []string {
	words := make([]string, n)
	for i := range words {
		words[i] = fmt.Sprintf("w%dx", i)
	}
	return words
}

func benchMemory(r *rand.Rand, z *rand.Zipf, words []string) Memory {
	var b strings.Builder
	for range 12 + r.IntN(12) {
		b.WriteString(words[z.Uint64()])
		b.WriteByte(' ')
	}
	return Memory{Content: b.String(), Importance: 1 + r.IntN(10)}
}

// BenchmarkRecall100k recalls top 5 for two- and three-word queries over
// 100,000 memories of 12-23 words (a 20,000-word vocabulary) and reports
// p50 and p99 latency (the target: p99 <= 10 ms), each Recall a
// whole operation (it opens and closes the store). Wall time (p50-ms,
// p99-ms) includes waiting for the CPU on a shared machine; the CPU time
// of the recalling thread (p50-cpu-ms, p99-cpu-ms, Linux) is the latency
// the same work has on an idle one; that of the whole process
// (p50-proc-ms, p99-proc-ms) adds Pebble's and the runtime's goroutines
// on other threads (the store's open and close, garbage collection).
func BenchmarkRecall100k(b *testing.B) {
	s, err := Open(b.TempDir(), Workspace)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	words := benchWords(20000)
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	const total, chunk = 100000, 5000
	start := time.Now()
	for range total / chunk {
		ms := make([]Memory, chunk)
		for i := range ms {
			ms[i] = benchMemory(r, z, words)
		}
		if _, err := s.AddAll(ms); err != nil {
			b.Fatal(err)
		}
	}
	ingest := float64(total) / time.Since(start).Seconds()
	var lat, cpu, proc []time.Duration
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	for b.Loop() {
		q := words[z.Uint64()] + " " + words[z.Uint64()]
		if r.IntN(2) == 0 {
			q += " " + words[z.Uint64()]
		}
		c0, cpuOK := procstat.ThreadCPU()
		p0, t0 := procstat.ProcessCPU(), time.Now()
		if _, err := s.Recall(q, 5); err != nil {
			b.Fatal(err)
		}
		lat, proc = append(lat, time.Since(t0)), append(proc, procstat.ProcessCPU()-p0)
		if c1, ok := procstat.ThreadCPU(); cpuOK && ok {
			cpu = append(cpu, c1-c0)
		}
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"", lat}, {"-cpu", cpu}, {"-proc", proc}} {
		if len(m.d) == 0 {
			continue
		}
		slices.Sort(m.d)
		b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1000, "p50"+m.name+"-ms")
		b.ReportMetric(float64(m.d[len(m.d)*99/100].Microseconds())/1000, "p99"+m.name+"-ms")
	}
	b.ReportMetric(ingest, "ingest-memories/s")
}

// BenchmarkAdd measures one synced Add (what remember costs).
func BenchmarkAdd(b *testing.B) {
	s, err := Open(b.TempDir(), Workspace)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	words := benchWords(20000)
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	for b.Loop() {
		if _, err := s.Add(benchMemory(r, z, words)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpen measures what an operation costs before its work (the
// database is opened per operation, see Store.with): Count is a read-only
// open, a stats read and a close; MarkUsed of nothing a read-write open,
// an empty synced batch, a flush and a close.
func BenchmarkOpen(b *testing.B) {
	s, err := Open(b.TempDir(), Workspace)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Add(Memory{Content: "one memory"}); err != nil {
		b.Fatal(err)
	}
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Count(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("write", func(b *testing.B) {
		for b.Loop() {
			if err := s.MarkUsed(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHybridRecall recalls top 10 over 1,000 memories with
// internal/fakellm's embeddings (the query's cached after its first
// use) for queries whose hits mostly come from the vectors, and reports
// p50 and p99 wall time and the process's CPU time per recall.
func BenchmarkHybridRecall(b *testing.B) {
	s := &Set{}
	var err error
	if s.Workspace, err = Open(b.TempDir(), Workspace); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	url, _ := fakellm.Start(b, "")
	if err := s.UseEmbeddings(embed.Config{URL: url + "/v1", Model: "fake-embed-384"}, 0); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	words := benchWords(2000)
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	ms := make([]Memory, 1000)
	for i := range ms {
		ms[i] = benchMemory(r, z, words)
	}
	if _, err := s.Workspace.AddAll(ms); err != nil {
		b.Fatal(err)
	}
	queries := []string{"w1y w20y", "w3y w400y w5y", "w77y", "w9y w1000y"} // stems near, no term shared
	var lat, cpu []time.Duration
	i := 0
	for b.Loop() {
		c0, t0 := procstat.ProcessCPU(), time.Now()
		if _, err := s.Recall(queries[i%len(queries)], 10); err != nil {
			b.Fatal(err)
		}
		lat, cpu = append(lat, time.Since(t0)), append(cpu, procstat.ProcessCPU()-c0)
		i++
	}
	for _, m := range []struct {
		name string
		d    []time.Duration
	}{{"", lat}, {"-cpu", cpu}} {
		slices.Sort(m.d)
		b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1000, "p50"+m.name+"-ms")
		b.ReportMetric(float64(m.d[len(m.d)*99/100].Microseconds())/1000, "p99"+m.name+"-ms")
	}
}
