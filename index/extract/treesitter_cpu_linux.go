//go:build linux

package extract

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

// threadID is the calling OS thread's ID; its goroutine must be locked to
// it (runtime.LockOSThread) for the ID to keep meaning that goroutine.
func threadID() int { return syscall.Gettid() }

// threadCPU is the CPU time thread tid of this process has run, from the
// first field of its schedstat (nanoseconds on a CPU). Unlike wall time it
// does not grow while other processes hold the cores.
func threadCPU(tid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/schedstat", tid))
	if err != nil {
		return 0, false
	}
	f, _, _ := bytes.Cut(b, []byte{' '})
	ns, err := strconv.ParseInt(string(f), 10, 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ns), true
}
