package complete

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/agent/complete/fim"
)

// scripted is a fim.Model for the engine's tests: it answers text after
// delay (or when its context ends), counting calls and the most that ran
// at once. The providers' wire formats are fim's tests.
type scripted struct {
	text     string
	delay    atomic.Int64 // nanoseconds
	calls    atomic.Int32
	running  atomic.Int32
	most     atomic.Int32
	canceled atomic.Int32
	mu       sync.Mutex
	prefixes []string
}

func (m *scripted) Name() string { return "scripted" }

func (m *scripted) Complete(ctx context.Context, r fim.Request) (fim.Completion, error) {
	m.calls.Add(1)
	n := m.running.Add(1)
	defer m.running.Add(-1)
	for {
		old := m.most.Load()
		if n <= old || m.most.CompareAndSwap(old, n) {
			break
		}
	}
	m.mu.Lock()
	m.prefixes = append(m.prefixes, r.Prefix)
	m.mu.Unlock()
	select {
	case <-time.After(time.Duration(m.delay.Load())):
		return fim.Completion{Text: m.text}, nil
	case <-ctx.Done():
		m.canceled.Add(1)
		return fim.Completion{}, ctx.Err()
	}
}

func req(text string, invoked bool) Request {
	return Request{Source: Source{Path: "a.go", Language: "go", Text: []byte(text), Offset: len(text)}, Doc: "a.go", Invoked: invoked}
}

func TestEngineDecisions(t *testing.T) {
	m := &scripted{text: "Close()"}
	e := NewEngine(Settings{Model: m, Debounce: -1, Languages: map[string]bool{"markdown": false}}, nil)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		r      Request
		reason string
		items  int
	}{
		{"comment", req("x := 1 // s.", false), InComment, 0},
		{"comment invoked", req("x := 1 // s.", true), "", 1},
		{"disabled language", Request{Source: Source{Path: "a.md", Language: "markdown", Text: []byte("s.")}, Doc: "a.md"}, Disabled, 0},
		{"answered", req("s.", false), "", 1},
	} {
		res, err := e.Complete(ctx, tc.r)
		if err != nil || res.Reason != tc.reason || len(res.Items) != tc.items {
			t.Errorf("%s: %+v, %v; want reason %q and %d items", tc.name, res, err, tc.reason, tc.items)
		}
	}
	if res, _ := NewEngine(Settings{}, nil).Complete(ctx, req("s.", true)); res.Reason != NoModel {
		t.Errorf("no model: %+v", res)
	}
}

func TestEngineTypedThrough(t *testing.T) {
	m := &scripted{text: "Close()"}
	var events []Event
	e := NewEngine(Settings{Model: m, Debounce: -1}, func(ev Event) { events = append(events, ev) })
	ctx := context.Background()
	first, _ := e.Complete(ctx, req("s.", false))
	if len(first.Items) != 1 || first.Items[0].Text != "Close()" {
		t.Fatalf("first: %+v", first)
	}
	res, _ := e.Complete(ctx, req("s.Cl", false))
	if !res.Cached || len(res.Items) != 1 || res.Items[0].Text != "ose()" || res.Items[0].ID != first.Items[0].ID {
		t.Errorf("typing through: %+v", res)
	}
	if m.calls.Load() != 1 {
		t.Errorf("model called %d times, want 1", m.calls.Load())
	}
	// Typing something else asks again.
	if res, _ := e.Complete(ctx, req("s.Op", false)); res.Cached || m.calls.Load() != 2 {
		t.Errorf("a diverging keystroke reused the completion: %+v", res)
	}
	e.Feedback(first.Items[0].ID, "accepted", 0)
	e.Feedback("unknown", "accepted", 0)
	var kinds []string
	for _, ev := range events {
		kinds = append(kinds, ev.Kind+":"+ev.Language)
	}
	if got := strings.Join(kinds, " "); got != "offered:go offered:go accepted:go" {
		t.Errorf("events %s", got)
	}
}

// TestEngineSupersede: keystrokes within the debounce reach the model
// once, with the last prefix; a request arriving while the model answers
// aborts that call; one call per document at a time.
func TestEngineSupersede(t *testing.T) {
	m := &scripted{text: "x"}
	m.delay.Store(int64(50 * time.Millisecond))
	e := NewEngine(Settings{Model: m, Debounce: 300 * time.Millisecond}, nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	results := make([]Result, 5)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], _ = e.Complete(ctx, req(strings.Repeat("a", i+1), false))
		}()
		time.Sleep(10 * time.Millisecond)
	}
	wg.Wait()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.calls.Load() != 1 || m.prefixes[0] != "aaaaa" {
		t.Errorf("model called %d times with %q, want once with the last prefix", m.calls.Load(), m.prefixes)
	}
	for i, r := range results[:4] {
		if r.Reason != Superseded {
			t.Errorf("request %d: %+v, want superseded", i, r)
		}
	}
	// A slow model: the next request aborts the call in flight.
	m2 := &scripted{text: "y"}
	m2.delay.Store(int64(time.Hour))
	e2 := NewEngine(Settings{Model: m2, Debounce: -1}, nil)
	done := make(chan Result)
	go func() {
		r, _ := e2.Complete(ctx, req("b", true))
		done <- r
	}()
	for m2.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	m2.delay.Store(0)
	second := make(chan Result)
	go func() {
		r, _ := e2.Complete(ctx, req("bb", true))
		second <- r
	}()
	select {
	case r := <-done:
		if r.Reason != Superseded {
			t.Errorf("aborted request: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the call in flight was not aborted")
	}
	if r := <-second; len(r.Items) != 1 {
		t.Errorf("the newer request: %+v", r)
	}
	if m2.canceled.Load() != 1 {
		t.Errorf("%d calls saw their context cancelled, want 1", m2.canceled.Load())
	}
	if most := m2.most.Load(); most > 1 {
		t.Errorf("%d model calls at once for one document", most)
	}
}

func TestStatsLog(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w", "completions.jsonl")
	l := OpenStatsLog(p)
	for i, ev := range []Event{
		{Kind: "offered", ID: "c1", Language: "go", ContextMS: 1, ModelMS: 100},
		{Kind: "offered", ID: "c2", Language: "go", ContextMS: 3, ModelMS: 300},
		{Kind: "shown", ID: "c1", Language: "go"},
		{Kind: "partial", ID: "c1", Language: "go", Chars: 3},
		{Kind: "partial", ID: "c1", Language: "go", Chars: 6},
		{Kind: "accepted", ID: "c2", Language: "go"},
		{Kind: "dismissed", ID: "c3", Language: "python"},
	} {
		ev.Time = time.Unix(int64(i), 0)
		l.Add(ev)
	}
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	got, err := ReadStats(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []LangStats{
		{Language: "go", Offered: 2, Shown: 1, Accepted: 1, Partial: 1, ContextP50: 1, ContextP99: 3, ModelP50: 100, ModelP99: 300},
		{Language: "python", Dismissed: 1},
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	if none, err := ReadStats(filepath.Join(t.TempDir(), "none")); err != nil || none != nil {
		t.Errorf("missing log: %v, %v", none, err)
	}
}

// TestEngineForget: closing a document cancels its model call in flight
// and drops its state (the last completion is not reused after a reopen).
func TestEngineForget(t *testing.T) {
	m := &scripted{text: "Close()"}
	m.delay.Store(int64(time.Hour))
	e := NewEngine(Settings{Model: m, Debounce: -1}, nil)
	done := make(chan Result)
	go func() {
		r, _ := e.Complete(context.Background(), req("s.", true))
		done <- r
	}()
	for m.running.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	e.Forget("a.go")
	select {
	case r := <-done:
		if r.Reason != Superseded || len(r.Items) != 0 {
			t.Errorf("a closed document's request: %+v", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Forget did not cancel the call in flight")
	}
	e.mu.Lock()
	n := len(e.docs)
	e.mu.Unlock()
	if n != 0 {
		t.Errorf("%d documents kept after Forget", n)
	}
}
