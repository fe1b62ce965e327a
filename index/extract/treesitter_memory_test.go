package extract

import (
	"context"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// bigPython is a valid Python file of 96 KiB, long enough to parse for
// more than one of watchCPU's polls.
func bigPython() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 96<<10; i++ {
		b.WriteString("def f")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("(a, b=1, *c, **d):\n    return [a + b * k for k in c if k] or d.get('e', (a, b))\n\n")
	}
	return []byte(b.String())
}

// TestLibraryMemoryBudgetOff: the parses run without gotreesitter's memory
// budget, whose heap reads stop the world (treesitter_memory.go).
func TestLibraryMemoryBudgetOff(t *testing.T) {
	if v := os.Getenv(memoryBudgetEnv); v != "0" {
		t.Skipf("%s=%q set outside the test", memoryBudgetEnv, v)
	}
	// The arena's budget, which the parse reports, is set from the same
	// variable for any input size; a small file keeps the test cheap.
	tree, err := ParseTree(context.Background(), "python", []byte("def f(a):\n    return a\n"), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Release()
	if b := tree.ParseRuntime().MemoryBudgetBytes; b != 0 {
		t.Errorf("the parse ran with a memory budget of %d bytes", b)
	}
}

// TestLiveHeapStop: a parse during which the live heap grows past the
// limit stops, and the file is stored partial saying why.
func TestLiveHeapStop(t *testing.T) {
	if _, ok := cpuClock(threadID()); !ok {
		t.Skip("no thread CPU clock: watchCPU falls back to wall time, without the heap bound")
	}
	var calls atomic.Uint64
	old := liveHeap
	liveHeap = func() uint64 { return calls.Add(1) * liveHeapGrowthLimit } // grows by the limit at every read
	t.Cleanup(func() { liveHeap = old })
	src := []byte(strings.Repeat(string(bigPython()), 8)) // long enough to outlast a 10 ms poll
	res, err := For("python").Extract(context.Background(), "big.py", src, Options{Budget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Partial, "parse stopped: the live heap grew") {
		t.Errorf("Partial = %q, want the live-heap stop", res.Partial)
	}
}
