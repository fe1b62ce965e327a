//go:build !unix

package dirlock

import "os"

// Lock relies on the store's own directory lock where flock is
// unavailable: it takes nothing and never reports a HeldError.
func Lock(dir string) (*os.File, error) { return nil, nil }

// Unlock is a no-op where Lock takes nothing.
func Unlock(f *os.File) error { return nil }
