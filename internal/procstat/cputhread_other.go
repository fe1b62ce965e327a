//go:build !linux

package procstat

import "time"

// ThreadCPU is unavailable here: benchmarks report wall time only.
func ThreadCPU() (time.Duration, bool) { return 0, false }
