package procstat

import (
	"os"
	"runtime"
	"testing"

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
