//go:build !unix

package tools

import "time"

// threadCPU falls back to the wall clock where the thread's CPU clock is
// not available.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }
