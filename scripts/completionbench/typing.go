package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/agent/complete/fim"
	"github.com/parleyhq/parley/index"
)

// scenario is a typing rhythm: a keystroke every Interval, and a Pause
// instead after every PauseEvery of typing, for Duration.
type scenario struct {
	Name       string        `json:"name"`
	Interval   time.Duration `json:"interval_ns"`
	PauseEvery time.Duration `json:"pause_every_ns"`
	Pause      time.Duration `json:"pause_ns"`
	Duration   time.Duration `json:"duration_ns"`
}

// typingReport is one scenario's count of model requests against the
// pauses in typing.
type typingReport struct {
	Scenario   scenario `json:"scenario"`
	Site       string   `json:"site"` // FILE:LINE:COL typing starts at
	DebounceMS float64  `json:"debounce_ms"`
	ModelMS    float64  `json:"model_delay_ms"`
	Keystrokes int      `json:"keystrokes"`
	// Gaps are the measured gaps after a keystroke at least the
	// debounce long, Pauses those at least half the scenario's pause
	// (the last keystroke counts in both).
	Gaps   int `json:"gaps_over_debounce"`
	Pauses int `json:"pauses"`
	// ModelRequests reached the model; AtGap of them were for a position
	// followed by a gap of at least the debounce, AtSuperseded for one
	// that was not (must be 0), Unmatched for no position typed (must
	// be 0).
	ModelRequests int `json:"model_requests"`
	AtGap         int `json:"at_gap"`
	AtSuperseded  int `json:"at_superseded"`
	Unmatched     int `json:"unmatched"`
	// Build is the time the engine spent building the requests it built.
	Build percentiles `json:"build_ms"`
	// Aborted model requests were cancelled by the next keystroke.
	Aborted int `json:"aborted"`
	// Results counts the Complete answers by reason ("offered" for
	// items).
	Results map[string]int `json:"results"`
}

// countingModel answers after delay unless cancelled, recording the
// prefix of every request it receives.
type countingModel struct {
	delay    time.Duration
	mu       sync.Mutex
	prefixes []string
	aborted  atomic.Int32
}

func (m *countingModel) Name() string { return "counting" }

func (m *countingModel) Complete(ctx context.Context, r fim.Request) (fim.Completion, error) {
	m.mu.Lock()
	m.prefixes = append(m.prefixes, r.Prefix)
	m.mu.Unlock()
	select {
	case <-time.After(m.delay):
		return fim.Completion{Text: "qqq()"}, nil
	case <-ctx.Done():
		m.aborted.Add(1)
		return fim.Completion{}, ctx.Err()
	}
}

// keystrokeTimes is the scenario's schedule, from 0.
func (sc scenario) keystrokeTimes() []time.Duration {
	var out []time.Duration
	burst := int(sc.PauseEvery / sc.Interval)
	t := time.Duration(0)
	for k := 0; t < sc.Duration; k++ {
		out = append(out, t)
		if burst > 0 && (k+1)%burst == 0 {
			t += sc.Pause
		} else {
			t += sc.Interval
		}
	}
	return out
}

// typeAt is the buffer after k keystrokes from the site's cursor: the
// file's text typed again from there, the rest of the current line not
// yet typed.
func typeAt(orig []byte, start, k int) ([]byte, int) {
	c := min(start+k, len(orig))
	return edited(orig, c), c
}

// simulate types through the real Engine at s's file: every keystroke
// writes the buffer to the store (one updater goroutine, as
// lsp/update.go) and asks Complete on its own goroutine, as the server
// does for each inlineCompletion request.
func (b *bench) simulate(ctx context.Context, s site, sc scenario, debounce, delay time.Duration) (typingReport, error) {
	orig, err := b.c.read(s.File)
	if err != nil {
		return typingReport{}, err
	}
	m := &countingModel{delay: delay}
	e := complete.NewEngine(complete.Settings{Model: m, Debounce: debounce, Budget: b.budget}, nil)
	up := newUpdater(ctx, b.st, s.File)
	times := sc.keystrokeTimes()
	prefixes := make([]string, len(times))
	at := make([]time.Time, len(times))
	var wg sync.WaitGroup
	t := &tally{results: map[string]int{}}
	begin := time.Now()
	for k, at0 := range times {
		time.Sleep(time.Until(begin.Add(at0)))
		buf, off := typeAt(orig, s.Off, k+1)
		at[k], prefixes[k] = time.Now(), string(buf[:off])
		up.put(buf)
		wg.Go(func() { t.complete(ctx, e, complete.Request{Source: b.source(s.File, buf, off), Doc: s.File}) })
	}
	wg.Wait()
	up.close()
	if err := b.st.PutContent(ctx, s.File, orig, index.Options{}); err != nil {
		return typingReport{}, err
	}
	rep := typingReport{Scenario: sc, Site: fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col), DebounceMS: ms(debounce), ModelMS: ms(delay), Keystrokes: len(times),
		Results: t.results, Aborted: int(m.aborted.Load()), Build: pct(t.builds)}
	rep.score(at, prefixes, m.prefixes, debounce)
	return rep, nil
}

// tally counts the answers of the keystrokes' requests.
type tally struct {
	mu      sync.Mutex
	results map[string]int
	builds  []float64
}

// complete asks e for r, as the server does for one keystroke, and counts
// the answer by its reason ("offered" for an item).
func (t *tally) complete(ctx context.Context, e *complete.Engine, r complete.Request) {
	var why string
	defer func() {
		// The language server's dispatch recovers a handler's panic and
		// answers InternalError; count it the same way.
		if p := recover(); p != nil {
			why = "panicked"
		}
		t.mu.Lock()
		t.results[why]++
		t.mu.Unlock()
	}()
	res, err := e.Complete(ctx, r)
	if res.Prepared != nil {
		t.mu.Lock()
		t.builds = append(t.builds, ms(res.Context))
		t.mu.Unlock()
	}
	why = res.Reason
	switch {
	case err != nil:
		why = "error: " + err.Error()
	case len(res.Items) > 0 && res.Cached:
		why = "typed through"
	case len(res.Items) > 0:
		why = "offered"
	}
}

// score counts the gaps and pauses of the keystrokes typed at times at
// (whose buffers' text before the cursor is prefixes), and matches each
// prefix the model was asked (asked) to the keystroke it was for.
func (rep *typingReport) score(at []time.Time, prefixes, asked []string, debounce time.Duration) {
	paused := make([]bool, len(at))
	for k := range at {
		last := k == len(at)-1
		paused[k] = last || at[k+1].Sub(at[k]) >= debounce
		rep.Gaps += btoi(paused[k])
		rep.Pauses += btoi(last || at[k+1].Sub(at[k]) >= rep.Scenario.Pause/2)
	}
	rep.ModelRequests = len(asked)
	for _, p := range asked {
		switch k := positionOf(prefixes, p); {
		case k < 0:
			rep.Unmatched++
		case paused[k]:
			rep.AtGap++
		default:
			rep.AtSuperseded++
		}
	}
}

// positionOf is the keystroke whose buffer's text before the cursor ends
// with p (a request's prefix, cut at a line start), the latest one; -1
// for none.
func positionOf(prefixes []string, p string) int {
	for k := len(prefixes) - 1; k >= 0; k-- {
		if strings.HasSuffix(prefixes[k], p) {
			return k
		}
	}
	return -1
}

// updater writes the newest buffer of one file to the store, one write
// at a time, skipping buffers a newer one replaced while a write ran.
type updater struct {
	mu      sync.Mutex
	pending []byte
	wake    chan struct{}
	done    chan struct{}
}

func newUpdater(ctx context.Context, st *index.Store, rel string) *updater {
	u := &updater{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(u.done)
		for range u.wake {
			u.mu.Lock()
			buf := u.pending
			u.pending = nil
			u.mu.Unlock()
			if buf != nil {
				if err := st.PutContent(ctx, rel, buf, index.Options{}); err != nil {
					warn("typing: put %s: %v", rel, err)
				}
			}
		}
	}()
	return u
}

func (u *updater) put(buf []byte) {
	u.mu.Lock()
	u.pending = buf
	u.mu.Unlock()
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

func (u *updater) close() {
	close(u.wake)
	<-u.done
}
