//go:build unix

package dirlock

import (
	"errors"
	"os"
	"strconv"
	"testing"
)

func TestLockHeldThenReleased(t *testing.T) {
	dir := t.TempDir()
	f, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	// flock locks belong to the open file, so a second open conflicts
	// even within one process.
	_, err = Lock(dir)
	held, ok := errors.AsType[*HeldError](err)
	if !ok || held.PID != strconv.Itoa(os.Getpid()) {
		t.Fatalf("second lock: %v, want HeldError naming pid %d", err, os.Getpid())
	}
	if err := Unlock(f); err != nil {
		t.Fatal(err)
	}
	f, err = Lock(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	Unlock(f)
}
