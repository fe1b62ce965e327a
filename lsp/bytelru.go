package lsp

import "container/list"

// byteLRU maps keys to values within a budget of bytes. Adding past the
// budget evicts the least recently used entries, except the one just
// added and those keep protects; the total may then stay above the budget
// until they can go. addIfFits refuses a value larger than the whole
// budget instead. Sizes are the caller's estimate of what an entry holds.
// Not safe for concurrent use: its owners lock around it.
//
// Written here rather than taken from a library: hashicorp/golang-lru
// bounds by entry count, which is how a 256-entry cache of files up to
// 16 MiB could hold gigabytes, and ristretto's cost-based admission is
// probabilistic (a value just added may be refused) and runs goroutines
// of its own.
type byteLRU[K comparable, V any] struct {
	max, size int64
	order     *list.List // of *lruEntry[K, V], most recently used first
	entries   map[K]*list.Element
	// keep, when set, protects entries from eviction (a running chat).
	keep func(K, V) bool
	// onEvict, when set, is called for every value dropped to make room,
	// not for remove, clear or a value addIfFits refuses.
	onEvict func(K, V)
}

type lruEntry[K comparable, V any] struct {
	key  K
	val  V
	size int64
}

func newByteLRU[K comparable, V any](max int64) *byteLRU[K, V] {
	return &byteLRU[K, V]{max: max, order: list.New(), entries: map[K]*list.Element{}}
}

// get returns k's value and marks it the most recently used.
func (c *byteLRU[K, V]) get(k K) (V, bool) {
	el, ok := c.entries[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*lruEntry[K, V]).val, true
}

// addIfFits is add for a value no larger than the budget; a larger one
// is not kept (and k's old value is dropped). It reports whether v was
// added.
func (c *byteLRU[K, V]) addIfFits(k K, v V, size int64) bool {
	if size > c.max {
		c.remove(k)
		return false
	}
	c.add(k, v, size)
	return true
}

// add sets k to v, of size bytes, as the most recently used entry, then
// evicts the least recently used ones, other than k and those keep
// protects, until the total fits the budget.
func (c *byteLRU[K, V]) add(k K, v V, size int64) {
	c.remove(k)
	front := c.order.PushFront(&lruEntry[K, V]{key: k, val: v, size: size})
	c.entries[k] = front
	c.size += size
	for el := c.order.Back(); c.size > c.max && el != front; {
		prev := el.Prev()
		if e := el.Value.(*lruEntry[K, V]); c.keep == nil || !c.keep(e.key, e.val) {
			c.order.Remove(el)
			delete(c.entries, e.key)
			c.size -= e.size
			if c.onEvict != nil {
				c.onEvict(e.key, e.val)
			}
		}
		el = prev
	}
}

// remove drops k.
func (c *byteLRU[K, V]) remove(k K) {
	if el, ok := c.entries[k]; ok {
		e := c.order.Remove(el).(*lruEntry[K, V])
		delete(c.entries, k)
		c.size -= e.size
	}
}

// clear drops everything.
func (c *byteLRU[K, V]) clear() {
	c.order.Init()
	clear(c.entries)
	c.size = 0
}

// peek returns k's value without marking it used.
func (c *byteLRU[K, V]) peek(k K) (V, bool) {
	el, ok := c.entries[k]
	if !ok {
		var zero V
		return zero, false
	}
	return el.Value.(*lruEntry[K, V]).val, true
}

// each calls fn for every entry, most recently used first; fn must not
// change c.
func (c *byteLRU[K, V]) each(fn func(K, V)) {
	for el := c.order.Front(); el != nil; el = el.Next() {
		e := el.Value.(*lruEntry[K, V])
		fn(e.key, e.val)
	}
}
