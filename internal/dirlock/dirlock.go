// Package dirlock holds an exclusive, advisory, per-process lock on a
// directory (the file LOCK.parley in it) that records the holder's PID, so
// a second process can say who holds a store. The kernel drops the lock
// when the process dies, so a killed process never leaves it stale. The
// caller must Unlock the returned file.
package dirlock

import "fmt"

// HeldError is returned by Lock when another process holds the lock.
type HeldError struct {
	Dir string
	PID string // "unknown" when the holder wrote none
}

func (e *HeldError) Error() string {
	return fmt.Sprintf("%s is locked by process %s", e.Dir, e.PID)
}
