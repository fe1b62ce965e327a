package extract

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadCPU reads the clock of a locked thread as watchCPU does:
// it must advance while the thread computes, by about the time spent.
func TestThreadCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tid := threadID()
	before, ok := threadCPU(tid)
	if !ok {
		t.Fatal("threadCPU: cannot read /proc/self/task/<tid>/schedstat")
	}
	var spent time.Duration
	for start := time.Now(); time.Since(start) < 30*time.Millisecond; {
		spent = time.Since(start)
	}
	after, ok := threadCPU(tid)
	if !ok || after <= before {
		t.Fatalf("threadCPU went from %v to %v (ok %v) over %v of spinning", before, after, ok, spent)
	}
}
