package complete

import (
	"strings"
	"sync/atomic"
	"testing"
)

func TestMemoCount(t *testing.T) {
	var calls atomic.Int32
	count := MemoCount(func(s string) int { calls.Add(1); return len(s) })
	for range 3 {
		if n := count("func (s *Store) Add(item string) error\n"); n != 39 {
			t.Fatalf("count %d", n)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("a line counted %d times, want once", calls.Load())
	}
	long := strings.Repeat("x", memoMaxLen+1)
	count(long)
	count(long)
	if calls.Load() != 3 {
		t.Errorf("a long string memoized (%d calls)", calls.Load())
	}
}
