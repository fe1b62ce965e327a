package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

// langResult is one corpus's figures.
type langResult struct {
	Corpus  corpus         `json:"corpus"`
	Files   int            `json:"files"`
	Windows int            `json:"windows"`
	Sites   int            `json:"sites"`
	Dropped map[string]int `json:"dropped"`
	// Recall of each retriever (found / sites) and parley's over the
	// baseline's.
	Parley       float64 `json:"parley_recall"`
	BM25         float64 `json:"bm25_recall"`
	PrefixSuffix float64 `json:"prefix_suffix_recall"`
	Ratio        float64 `json:"parley_over_bm25"`
	Target       string  `json:"target"`
	Pass         bool    `json:"pass"`
	// Latency percentiles in milliseconds.
	Put     percentiles `json:"put_ms"`
	Cold    percentiles `json:"build_cold_ms"`
	Warm    percentiles `json:"build_warm_ms"`
	ColdCPU percentiles `json:"build_cold_cpu_ms"`
	WarmCPU percentiles `json:"build_warm_cpu_ms"`
	// ContextTokens is Build's mean context; BM25Tokens the baseline's.
	ContextTokens float64        `json:"mean_context_tokens"`
	BM25Tokens    float64        `json:"mean_bm25_tokens"`
	Misses        map[string]int `json:"misses"`
	Outcomes      []outcome      `json:"outcomes"`
}

type percentiles struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
}

func (p percentiles) String() string { return fmt.Sprintf("%.2f / %.2f", p.P50, p.P99) }

// pct is the nearest-rank percentile of v.
func pct(v []float64) percentiles {
	if len(v) == 0 {
		return percentiles{}
	}
	s := slices.Sorted(slices.Values(v))
	at := func(p float64) float64 {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return percentiles{at(0.50), at(0.99)}
}

// summarize fills r's figures from its outcomes.
func (r *langResult) summarize() {
	r.Sites = len(r.Outcomes)
	r.Misses = map[string]int{}
	var put, cold, warm, coldCPU, warmCPU []float64
	var p, b, ps int
	for _, o := range r.Outcomes {
		p, b, ps = p+btoi(o.Parley), b+btoi(o.BM25), ps+btoi(o.PrefixSuffix)
		if o.Miss == nil || o.Miss.Class != missPanic {
			put, cold, warm = append(put, o.PutMS), append(cold, o.ColdMS), append(warm, o.WarmMS)
			coldCPU, warmCPU = append(coldCPU, o.ColdCPUMS), append(warmCPU, o.WarmCPUMS)
		}
		r.ContextTokens += float64(o.ContextTokens)
		r.BM25Tokens += float64(o.BM25Tokens)
		if o.Miss != nil {
			r.Misses[o.Miss.Class]++
		}
	}
	if r.Sites == 0 {
		return
	}
	n := float64(r.Sites)
	r.Parley, r.BM25, r.PrefixSuffix = float64(p)/n, float64(b)/n, float64(ps)/n
	r.ContextTokens, r.BM25Tokens = r.ContextTokens/n, r.BM25Tokens/n
	if b > 0 {
		r.Ratio = float64(p) / float64(b)
	}
	r.Put, r.Cold, r.Warm = pct(put), pct(cold), pct(warm)
	r.ColdCPU, r.WarmCPU = pct(coldCPU), pct(warmCPU)
	switch r.Corpus.Lang {
	case "go":
		r.Target = ">= 0.90 and >= 1.5x BM25"
		// With no baseline hit at all, any hit is more than 1.5x.
		r.Pass = r.Parley >= 0.90 && (r.Ratio >= 1.5 || b == 0 && p > 0)
	default:
		r.Target = ">= 0.80"
		r.Pass = r.Parley >= 0.80
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

// printRecall writes the context recall table.
func printRecall(w io.Writer, rs []*langResult, budget int) {
	fmt.Fprintf(w, "\n1. Context recall: is x.Name('s declaration in the context? (budget %d tokens, o200k_base)\n\n", budget)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "language\tcorpus\tsites\tparley Build\tBM25 windows\tprefix/suffix only\tparley / BM25\ttokens parley / BM25\ttarget\t")
	for _, r := range rs {
		ratio := fmt.Sprintf("%.2fx", r.Ratio)
		if r.BM25 == 0 {
			ratio = "n/a (BM25 0)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%s\t%.0f / %.0f\t%s %s\t\n", r.Corpus.Lang, r.Corpus.Label, r.Sites,
			r.Parley, r.BM25, r.PrefixSuffix, ratio, r.ContextTokens, r.BM25Tokens, r.Target, verdict(r.Pass))
	}
	tw.Flush()
	for _, r := range rs {
		fmt.Fprintf(w, "  %s: %d files, %d windows; candidates dropped: %s\n", r.Corpus.Lang, r.Files, r.Windows, counts(r.Dropped))
	}
}

// printMisses writes parley's misses by class, and up to n of them.
func printMisses(w io.Writer, rs []*langResult, n int) {
	fmt.Fprintf(w, "\nparley's misses by class\n\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "language\tclass\tsites\t")
	for _, r := range rs {
		for _, c := range byCount(r.Misses) {
			fmt.Fprintf(tw, "%s\t%s\t%d\t\n", r.Corpus.Lang, c, r.Misses[c])
		}
	}
	tw.Flush()
	for _, r := range rs {
		shown := 0
		for _, o := range r.Outcomes {
			if o.Miss == nil || shown == n {
				continue
			}
			shown++
			fmt.Fprintf(w, "  %s %s:%d:%d %s: [%s] %s\n", r.Corpus.Lang, o.Site.File, o.Site.Line, o.Site.Col, o.Site.Name, o.Miss.Class, o.Miss.Detail)
		}
	}
}

// printLatency writes the latency table.
func printLatency(w io.Writer, rs []*langResult, load string) {
	fmt.Fprintf(w, "\n2. Latency of Build, server side, no model (ms; load average %s)\n\n", load)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "language\tsites\tPutContent p50 / p99\tBuild cold p50 / p99\tcold CPU p50 / p99\tBuild warm p50 / p99\twarm CPU p50 / p99\ttarget (cold)\t")
	for _, r := range rs {
		target := ""
		if r.Corpus.Lang == "go" {
			target = fmt.Sprintf("p50 <= 3, p99 <= 15: wall %s, CPU %s", verdict(r.Cold.P50 <= 3 && r.Cold.P99 <= 15),
				verdict(r.ColdCPU.P50 <= 3 && r.ColdCPU.P99 <= 15))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Corpus.Lang, r.Sites,
			r.Put, r.Cold, r.ColdCPU, r.Warm, r.WarmCPU, target)
	}
	tw.Flush()
}

// printTyping writes the typing simulation table.
func printTyping(w io.Writer, ts []typingReport) {
	if len(ts) == 0 {
		return
	}
	fmt.Fprintf(w, "\n3. Typing through the Engine from %s (debounce %.0f ms, model answers after %.0f ms)\n\n", ts[0].Site, ts[0].DebounceMS, ts[0].ModelMS)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rhythm\tkeystrokes\tgaps >= debounce\tpauses\tmodel requests\tat a gap >= debounce\tat a superseded position\taborted\tBuild p50 / p99 ms\tanswers\t")
	for _, t := range ts {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", t.Scenario.Name, t.Keystrokes, t.Gaps, t.Pauses, t.ModelRequests,
			t.AtGap, t.AtSuperseded+t.Unmatched, t.Aborted, t.Build, counts(t.Results))
	}
	tw.Flush()
}

func byCount(m map[string]int) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	return keys
}

func counts(m map[string]int) string {
	var parts []string
	for _, k := range byCount(m) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
