//go:build !linux

package memory

import "time"

// threadCPU is unavailable here: the benchmark reports wall time only.
func threadCPU() (time.Duration, bool) { return 0, false }

// processCPU is unavailable here: CPU figures read 0.
func processCPU() time.Duration { return 0 }
