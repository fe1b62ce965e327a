package docs

import (
	"cmp"
	"math"
	"slices"

	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/memory/vector"
)

// bm25Scan is the lexical half as it was before postings: it reads every
// chunk for every query. The postings must rank exactly as it does, and
// BenchmarkLexicalSearch10k measures both.
func bm25Scan(vdb *vector.DB, index, query string, n int) ([]vector.Result, error) {
	q := memory.Terms(query)
	slices.Sort(q)
	q = slices.Compact(q)
	if len(q) == 0 {
		return nil, nil
	}
	type doc struct {
		r   vector.Result
		tf  []float64
		len float64
	}
	var docs []doc
	misses := 0
	df := make([]float64, len(q))
	var total float64
	err := vdb.Each(index, func(id uint64, text string, meta map[string]any) error {
		terms := memory.Terms(text)
		total += float64(len(terms))
		tf := make([]float64, len(q))
		hit := false
		for _, t := range terms {
			if i, ok := slices.BinarySearch(q, t); ok {
				tf[i]++
				hit = true
			}
		}
		if hit {
			for i := range tf {
				if tf[i] > 0 {
					df[i]++
				}
			}
			docs = append(docs, doc{vector.Result{ID: id, Text: text, Metadata: meta}, tf, float64(len(terms))})
		} else {
			misses++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	count := float64(len(docs) + misses)
	avg := max(total/max(count, 1), 1)
	var out []vector.Result
	for _, d := range docs {
		var s float64
		for i, tf := range d.tf {
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (count-df[i]+0.5)/(df[i]+0.5))
			s += idf * tf * 2.2 / (tf + 1.2*(0.25+0.75*d.len/avg))
		}
		d.r.Score = float32(s)
		out = append(out, d.r)
	}
	slices.SortFunc(out, func(a, b vector.Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out[:min(n, len(out))], nil
}
