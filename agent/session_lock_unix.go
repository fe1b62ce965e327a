//go:build unix

package agent

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// lockSessions takes an exclusive advisory lock on dir/LOCK.parley and
// writes our PID into it, so a second process can say who holds the
// store. The kernel drops the lock when the process dies.
func lockSessions(dir string) (*os.File, error) {
	path := filepath.Join(dir, "LOCK.parley")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("session store %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := string(bytes.TrimSpace(holder))
			if pid == "" {
				pid = "unknown"
			}
			return nil, fmt.Errorf("session store %s: %w (pid %s)", dir, ErrSessionsLocked, pid)
		}
		return nil, fmt.Errorf("lock session store %s: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}

func unlockSessions(f *os.File) error {
	if f == nil {
		return nil
	}
	f.Truncate(0)
	return f.Close()
}
