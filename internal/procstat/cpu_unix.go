//go:build unix

package procstat

import (
	"syscall"
	"time"
)

// ProcessCPU is the user and system CPU time all of this process's threads
// have used so far: benchmarks report it beside wall time, which a loaded
// machine inflates. It is 0 where the platform cannot tell.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
