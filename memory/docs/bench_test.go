package docs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/procstat"
	"github.com/parleyhq/parley/memory/docs/pdftest"
)

// poolEmbedder hands out precomputed random 384-d vectors, so the
// benchmarks measure parley (chunking, extraction, storage, the graph),
// not an embedding model.
type poolEmbedder struct {
	vecs [][]float32
	next int
}

func newPoolEmbedder(n int) *poolEmbedder {
	r := rand.New(rand.NewPCG(9, 9))
	p := &poolEmbedder{}
	for range n {
		v := make([]float32, 384)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		p.vecs = append(p.vecs, v)
	}
	return p
}

func (p *poolEmbedder) Model() string { return "pool-384" }

func (p *poolEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = p.vecs[p.next%len(p.vecs)]
		p.next++
	}
	return out, nil
}

// benchText is prose-like text of about n bytes.
func benchText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		for range 8 + r.IntN(12) {
			fmt.Fprintf(&b, "w%d ", r.IntN(5000))
		}
		b.WriteString("end. ")
		if r.IntN(6) == 0 {
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

// Both benchmarks report wall time and CPU time (all of the process's
// threads): on a machine shared with other work the CPU figure is the one
// that says what parley costs.

// BenchmarkIngestChunks chunks 5 MB of text into about 5,000 chunks of
// 1,000 bytes and stores them with 384-d vectors (embedder excluded):
// chunks/s, the target being at least 1,000.
func BenchmarkIngestChunks(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	text := benchText(r, 5<<20)
	emb := newPoolEmbedder(1000)
	for b.Loop() {
		vdb := openVectors(b)
		start, cpu := time.Now(), procstat.ProcessCPU()
		pieces := TextPieces(text, "bench.txt", 0, 0, nil)
		if _, err := Ingest(context.Background(), vdb, emb, "bench", pieces); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(pieces))/time.Since(start).Seconds(), "chunks/s")
		b.ReportMetric(float64(len(pieces))/(procstat.ProcessCPU()-cpu).Seconds(), "chunks/cpu-s")
	}
}

// BenchmarkPDF100Pages extracts, chunks and stores a 100-page PDF of about
// 3 KB of text a page (embedder excluded): seconds per document, the
// issue's target being at most 2.
func BenchmarkPDF100Pages(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	var pages [][]string
	for range 100 {
		var lines []string
		for range 45 {
			lines = append(lines, strings.TrimSpace(benchText(r, 60)))
		}
		pages = append(pages, lines)
	}
	data := pdftest.Make(pages)
	emb := newPoolEmbedder(1000)
	for b.Loop() {
		vdb := openVectors(b)
		start, cpu := time.Now(), procstat.ProcessCPU()
		got, err := ExtractPDF(data)
		if err != nil || len(got) != 100 {
			b.Fatalf("%d pages, %v", len(got), err)
		}
		pieces := PDFPieces(got, "bench.pdf", 0, 0, nil)
		if _, err := Ingest(context.Background(), vdb, emb, "bench", pieces); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(start).Seconds(), "s/pdf")
		b.ReportMetric((procstat.ProcessCPU() - cpu).Seconds(), "cpu-s/pdf")
		b.ReportMetric(float64(len(pieces)), "chunks")
	}
}
