package main

import (
	"context"
	"fmt"
	"path"
	"strings"
	"time"
)

// mentionResult is the @-mention picker's part of the result: client-side
// latencies of parley/mentionCandidates over queries typed a character
// at a time (the pipe and JSON included, so a little above the server's).
type mentionResult struct {
	Requests int     `json:"requests"`
	FirstMs  float64 `json:"firstMs"`
	P50Ms    float64 `json:"p50Ms"`
	P95Ms    float64 `json:"p95Ms"`
	MaxMs    float64 `json:"maxMs"`
}

// mentionTargets are what a user types after "@": base names, paths
// with their separators left out or kept, symbol names from the
// workload, and the special mentions.
func (w *workload) mentionTargets(n int) []string {
	out := []string{"diagnostics", "changes"}
	for i := 0; len(out) < n && len(w.files) > 0; i++ {
		f := w.files[w.rng.IntN(len(w.files))]
		switch i % 4 {
		case 0:
			out = append(out, strings.TrimSuffix(path.Base(f), ".go"))
		case 1:
			out = append(out, f)
		case 2:
			out = append(out, strings.ReplaceAll(strings.TrimSuffix(f, ".go"), "/", ""))
		default:
			if len(w.queries) > 0 {
				out = append(out, w.queries[w.rng.IntN(len(w.queries))])
			}
		}
	}
	return out
}

// driveMentions types each target a character at a time (up to 16) and
// times every parley/mentionCandidates answer.
func (w *workload) driveMentions(ctx context.Context, s *server, n int) (*mentionResult, error) {
	var ds []time.Duration
	res := &mentionResult{}
	for _, t := range w.mentionTargets(n) {
		for k := 1; k <= min(len(t), 16); k++ {
			var out struct {
				Items []struct {
					Label string `json:"label"`
				} `json:"items"`
			}
			t0 := time.Now()
			if _, err := s.conn.Call(ctx, "parley/mentionCandidates", map[string]any{"query": t[:k]}, &out); err != nil {
				return nil, fmt.Errorf("parley/mentionCandidates %q: %w", t[:k], err)
			}
			d := time.Since(t0)
			if res.Requests == 0 {
				res.FirstMs = ms(d)
			}
			res.Requests++
			ds = append(ds, d)
		}
	}
	res.P50Ms, res.P95Ms, res.MaxMs = quantile(ds, 0.5), quantile(ds, 0.95), quantile(ds, 1)
	return res, nil
}
