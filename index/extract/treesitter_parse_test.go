package extract

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ts "github.com/odvcencio/gotreesitter"
)

// reparseFixture is C whose first pass accepts with ERROR nodes
// (preprocessor lines inside an initializer and around an unbalanced "{",
// as in GOROOT's regexp/testdata/testregex.c), so gotreesitter reparses it
// up to three more times, and which is large enough for the reparse cut.
func reparseFixture() []byte {
	var b strings.Builder
	b.WriteString("static const char* names[] =\n{\n")
	for i := range 40 {
		fmt.Fprintf(&b, "#ifndef REG_%d\n\t\"NAME_%d\",\n#endif\n", i, i)
	}
	b.WriteString("};\n\n")
	for i := range 150 {
		fmt.Fprintf(&b, "static int g%d(int x)\n{\n#ifdef OPT_%d\n\tif (x > %d) {\n#else\n\tif (x < %d) {\n#endif\n"+
			"\t\treturn g%d(x - 1);\n\t}\n\treturn %d;\n}\n\n", i, i, i, i, max(i-1, 0), i)
	}
	return []byte(b.String())
}

func setSoftBudget(t *testing.T, d time.Duration) {
	old := softBudgetFor
	softBudgetFor = func(int) time.Duration { return d }
	t.Cleanup(func() { softBudgetFor = old })
}

// TestReparseCutInFirstPass: a cut that lands in the first pass must not
// change the result: the file is parsed again with the rest of the budget.
func TestReparseCutInFirstPass(t *testing.T) {
	src := reparseFixture()
	if len(src) < softMinSize {
		t.Fatalf("fixture is %d bytes, under softMinSize", len(src))
	}
	ex := For("c")
	extract := func() *Result {
		t.Helper()
		res, err := ex.Extract(context.Background(), "names.c", src, Options{Budget: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	setSoftBudget(t, time.Hour)
	full := extract()
	if full.Partial != "" || len(full.Symbols) == 0 {
		t.Fatalf("uncut: Partial %q, %d symbols", full.Partial, len(full.Symbols))
	}
	setSoftBudget(t, 0) // cut before the parse starts
	if got := extract(); !reflect.DeepEqual(got, full) {
		t.Errorf("cut in the first pass: result differs from the uncut parse (Partial %q)", got.Partial)
	}
}

func TestFirstPassDone(t *testing.T) {
	tests := []struct {
		name string
		rt   ts.ParseRuntime
		want bool
	}{
		{"first pass complete, reparse stopped", ts.ParseRuntime{LastTokenEndByte: 100}, true},
		{"stopped part way", ts.ParseRuntime{LastTokenEndByte: 40}, false},
		{"stopped before the first token", ts.ParseRuntime{}, false},
		{"stopped reparse kept, stretched to the end", ts.ParseRuntime{LastTokenEndByte: 100, Truncated: true}, false},
	}
	for _, tt := range tests {
		if got := firstPassDone(tt.rt, 100); got != tt.want {
			t.Errorf("%s: firstPassDone = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPartialReasonAtCut(t *testing.T) {
	got := partialReason(nil, nil, &Result{}, stopSoft, time.Second, 250*time.Millisecond)
	if want := "parse retries stopped after 250ms (first pass complete)"; got != want {
		t.Errorf("Partial = %q, want %q", got, want)
	}
}

// TestParserKeptAcrossGC: an idle parser outlives collections, which a
// sync.Pool alone does not promise: building one derives the grammar's
// tables again (bash ~15 ms of CPU).
func TestParserKeptAcrossGC(t *testing.T) {
	c, err := For("bash").(*tsExtractor).load()
	if err != nil {
		t.Fatal(err)
	}
	var pp parserPool
	p := pp.get(c.lang)
	pp.put(p)
	runtime.GC()
	runtime.GC()
	if got := pp.get(c.lang); got != p {
		t.Fatal("the idle parser was dropped by the collector")
	}
	second := pp.get(c.lang)
	if second == p || second == nil {
		t.Fatalf("a parser in use was handed out again")
	}
}

// TestWatchCPUIgnoresWallTime: the budget is the parse thread's CPU time,
// so a parse starved on a loaded machine is not cut by the clock on the
// wall. The thread's clock here advances 1 ms per read (every softPoll,
// 10 ms): a 30 ms budget is not spent after 100 ms of wall time, and is
// soon after; the soft cut comes first.
func TestWatchCPUIgnoresWallTime(t *testing.T) {
	var reads atomic.Int64
	old := cpuClock
	cpuClock = func(int) (time.Duration, bool) { return time.Duration(reads.Add(1)) * time.Millisecond, true }
	t.Cleanup(func() { cpuClock = old })

	flag := new(uint32)
	tids := make(chan int, 1)
	tids <- 1
	finished := make(chan struct{})
	defer close(finished)
	overrun := make(chan struct{})
	go watchCPU(flag, 10*time.Millisecond, 30*time.Millisecond, tids, finished, overrun)

	time.Sleep(100 * time.Millisecond) // 30 ms of budget by the wall clock
	if got := atomic.LoadUint32(flag); got != 0 && got != stopSoft {
		t.Fatalf("after 100 ms of wall time and ~10 ms of CPU, flag = %d, want no budget stop", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for atomic.LoadUint32(flag) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := atomic.LoadUint32(flag); got != stopSoft {
		t.Fatalf("flag = %d, want stopSoft (%d) first", got, stopSoft)
	}
	select {
	case <-overrun: // 30 + 7.5 + 50 ms of CPU: ~90 reads
	case <-time.After(5 * time.Second):
		t.Fatal("no overrun after the CPU clock passed budget + budget/4 + 50 ms")
	}
}

// TestWatchCPUBudget: without a soft cut the budget stops the parse, and
// a zero budget stops it before it starts.
func TestWatchCPUBudget(t *testing.T) {
	old := cpuClock
	var reads atomic.Int64
	cpuClock = func(int) (time.Duration, bool) { return time.Duration(reads.Add(1)) * 5 * time.Millisecond, true }
	// The real live heap could grow by the limit while the package's
	// heavier tests' garbage is collected (it did once under -race):
	// this test is about the CPU budget alone.
	oldHeap := liveHeap
	liveHeap = func() uint64 { return 0 }
	t.Cleanup(func() { cpuClock, liveHeap = old, oldHeap })
	for _, budget := range []time.Duration{0, 20 * time.Millisecond} {
		flag := new(uint32)
		tids := make(chan int, 1)
		tids <- 1
		finished := make(chan struct{})
		overrun := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			watchCPU(flag, budget, budget, tids, finished, overrun)
		}()
		deadline := time.Now().Add(5 * time.Second)
		for atomic.LoadUint32(flag) == 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := atomic.LoadUint32(flag); got != stopBudget {
			t.Errorf("budget %v: flag = %d, want stopBudget", budget, got)
		}
		close(finished)
		<-done // it reads cpuClock and liveHeap, which the cleanup restores
	}
}
