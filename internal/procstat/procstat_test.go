package procstat

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/testenv"
)

func TestPeakRSS(t *testing.T) {
	if runtime.GOOS != "linux" {
		testenv.SkipPlatform(t, "/proc is Linux's")
	}
	if mb := PeakRSS(os.Getpid()); mb <= 0 || mb > 1<<20 {
		t.Errorf("PeakRSS(self) = %g MB", mb)
	}
	if mb := PeakRSS(-1); mb != 0 {
		t.Errorf("PeakRSS(-1) = %g, want 0", mb)
	}
}

// TestCPU: both clocks advance with work done on the calling thread.
func TestCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		testenv.SkipPlatform(t, "RUSAGE_THREAD is Linux's")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0 := ProcessCPU()
	t0, ok := ThreadCPU()
	if !ok {
		t.Fatal("ThreadCPU unavailable on Linux")
	}
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
	}
	if p1 := ProcessCPU(); p1 <= p0 {
		t.Errorf("ProcessCPU did not advance: %v then %v", p0, p1)
	}
	if t1, _ := ThreadCPU(); t1 <= t0 {
		t.Errorf("ThreadCPU did not advance: %v then %v", t0, t1)
	}
}
