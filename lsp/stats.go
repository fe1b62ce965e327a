package lsp

import (
	"slices"
	"sync"
	"time"
)

// latencies keeps the most recent durations per method, for
// parley/serverStats: the benchmark reads server-side percentiles from
// it, so client and pipe overheads do not count. It is bounded by
// construction: one ring of ringSize durations (32 KiB) per method, and
// only methods the server implements are recorded (only successful
// requests are; unknown and unimplemented methods fail).
type latencies struct {
	mu   sync.Mutex
	byOp map[string]*ring
}

const ringSize = 4096

type ring struct {
	d    []time.Duration
	next int
	n    int64
}

func (l *latencies) record(op string, d time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.byOp == nil {
		l.byOp = map[string]*ring{}
	}
	r := l.byOp[op]
	if r == nil {
		r = &ring{d: make([]time.Duration, 0, ringSize)}
		l.byOp[op] = r
	}
	if len(r.d) < ringSize {
		r.d = append(r.d, d)
	} else {
		r.d[r.next] = d
		r.next = (r.next + 1) % ringSize
	}
	r.n++
}

// OpStats summarises one method's recent durations in milliseconds.
type OpStats struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50Ms"`
	P90   float64 `json:"p90Ms"`
	P99   float64 `json:"p99Ms"`
	Max   float64 `json:"maxMs"`
}

func (l *latencies) snapshot() map[string]OpStats {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[string]OpStats, len(l.byOp))
	for op, r := range l.byOp {
		d := slices.Clone(r.d)
		slices.Sort(d)
		q := func(p float64) float64 {
			if len(d) == 0 {
				return 0
			}
			return ms(d[min(len(d)-1, int(p*float64(len(d))))])
		}
		out[op] = OpStats{Count: r.n, P50: q(0.50), P90: q(0.90), P99: q(0.99), Max: q(1)}
	}
	return out
}

func (l *latencies) reset() {
	l.mu.Lock()
	l.byOp = nil
	l.mu.Unlock()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
