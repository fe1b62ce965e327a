//go:build !unix

package main

import "time"

func threadCPU() (time.Duration, bool) { return 0, false }
