//go:build !unix

package procstat

import "time"

// ProcessCPU is unavailable here: CPU figures read 0.
func ProcessCPU() time.Duration { return 0 }
