package procstat

import (
	"syscall"
	"time"
)

// ThreadCPU is the CPU time the calling OS thread has used (the caller
// locks its goroutine to the thread): a latency figure that the other
// processes sharing the machine do not inflate, unlike wall time. ok is
// false where the platform cannot tell.
func ThreadCPU() (d time.Duration, ok bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
