package lsp

import "sync/atomic"

// resolveSlot is a folder's one query-time resolution slot (see
// navigation_py.go): free, held by a resolution a request waits for, or
// held by a late one (a warming, or a resolution past its request's
// budget) whose answer nobody waits for and which the next request may
// cancel. One atomic word rather than two flags: with a "held" and a
// "late" flag released one after the other, a request arriving between
// the two saw a held slot that was not late and went to the ranking
// without waiting (TestWarmOnOpen failed that way under -race).
type resolveSlot struct{ state atomic.Int32 }

const (
	slotFree int32 = iota
	slotBusy
	slotLate
)

// take holds the slot for a resolution a request waits for.
func (s *resolveSlot) take() bool { return s.state.CompareAndSwap(slotFree, slotBusy) }

// takeLate holds the slot for work nobody waits for (warming).
func (s *resolveSlot) takeLate() bool { return s.state.CompareAndSwap(slotFree, slotLate) }

// markLate says the holder's request stopped waiting; a holder that has
// already released the slot stays released.
func (s *resolveSlot) markLate() { s.state.CompareAndSwap(slotBusy, slotLate) }

// late reports whether the slot is held by work nobody waits for.
func (s *resolveSlot) late() bool { return s.state.Load() == slotLate }

// release frees the slot, whoever held it.
func (s *resolveSlot) release() { s.state.Store(slotFree) }
