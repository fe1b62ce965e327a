//go:build unix

package dirlock

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// Lock takes the lock on dir; a *HeldError means another process has it.
func Lock(dir string) (*os.File, error) {
	path := filepath.Join(dir, "LOCK.parley")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := string(bytes.TrimSpace(holder))
			if pid == "" {
				pid = "unknown"
			}
			return nil, &HeldError{Dir: dir, PID: pid}
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

// Unlock releases a lock taken by Lock; nil is allowed.
func Unlock(f *os.File) error {
	if f == nil {
		return nil
	}
	f.Truncate(0)
	return f.Close()
}
