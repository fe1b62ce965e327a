//go:build !linux

package extract

import "time"

// threadID and threadCPU are Linux-only; elsewhere the reparse cut falls
// back to wall time.
func threadID() int { return 0 }

func threadCPU(int) (time.Duration, bool) { return 0, false }
