// Package procstat reads figures of a live process (peak memory from
// Linux's /proc, CPU clocks from getrusage) for benchmarks and the
// scripts that compare parley with other servers.
package procstat

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// PeakRSS is the peak resident set (VmHWM) of process pid in MB, or 0 when
// it cannot be read (the process is gone, or this is not Linux).
func PeakRSS(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}
