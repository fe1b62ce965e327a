package complete

import "sync"

// MemoCount wraps a token counter with a bounded memo of the lines it has
// counted: a request is built at every keystroke from mostly the same
// lines (the prefix's, a type's member signatures), and counting them
// with a BPE tokenizer again each time was a third of building one.
// Strings longer than a line are counted, not kept. Safe for concurrent
// use.
func MemoCount(count func(string) int) func(string) int {
	m := &countMemo{count: count, seen: make(map[string]int, 1024)}
	return m.get
}

// Bounds of a count memo.
const (
	memoMaxLen     = 256
	memoMaxEntries = 1 << 16
)

type countMemo struct {
	count func(string) int
	mu    sync.Mutex
	seen  map[string]int
}

func (m *countMemo) get(s string) int {
	if len(s) > memoMaxLen {
		return m.count(s)
	}
	m.mu.Lock()
	n, ok := m.seen[s]
	m.mu.Unlock()
	if ok {
		return n
	}
	n = m.count(s)
	m.mu.Lock()
	if len(m.seen) >= memoMaxEntries {
		clear(m.seen) // start over: the lines of the moment come back at once
	}
	m.seen[s] = n
	m.mu.Unlock()
	return n
}
