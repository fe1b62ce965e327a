//go:build !unix

package docs

import "time"

func cpuTime() time.Duration { return 0 }
