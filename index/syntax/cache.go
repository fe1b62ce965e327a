package syntax

import (
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"

	"github.com/parleyhq/parley/index"
)

// Cache keeps, per store (CacheOf), the parse trees of recently resolved
// files, so that the buffer being edited and the modules every file
// imports (os, typing) are parsed once, not on each request, and the
// descriptor records the resolvers decoded (IdxCache). One resolver uses
// the cache at a time (Lock, or a Resolver from NewResolver until
// Release): gotreesitter trees are not safe for concurrent reads (parent
// links are filled in lazily), so resolution is serialised per store.
// Cancel, Resume, ResolveGen and CancelledSince are safe for concurrent
// use without the lock.
type Cache struct {
	// gen numbers the resolvers begun; those numbered up to cancelled
	// stop at their next step (Cancel: all of them while it is
	// MaxUint64).
	gen, cancelled atomic.Uint64

	mu    sync.Mutex
	seed  maphash.Seed
	files map[string]*cached
	// idx holds, per language, files' decoded descriptor records
	// (IdxCache), checked against the header's content hash.
	idx   map[string]any
	order []string // least recently used first
	bytes int
}

type cached struct {
	hash uint64
	F    *File
}

// Bounds of the cache: a parse tree is about 30 times its source. The
// bytes bound the memory; the file count only bounds per-entry overhead,
// and must hold a package's worth of small files (rxjs: 251 TypeScript
// files, 0.8 MB): at 64, resolving its references evicted the trees the
// next request needed, so parses piled up behind the language server's
// budget and most answers fell back to the name ranking.
const (
	pyCacheFiles = 1024
	pyCacheBytes = 6 << 20
)

// Lock takes the cache for one resolver (or one nav.LocalAt parse).
func (c *Cache) Lock() {
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*cached{}
		c.seed = maphash.MakeSeed()
	}
}

// Unlock evicts the least recently used files beyond the bounds (not
// before: the resolver that held the cache may still use any tree it
// got) and releases the cache.
func (c *Cache) Unlock() {
	for len(c.order) > 1 && (len(c.order) > pyCacheFiles || c.bytes > pyCacheBytes) {
		c.drop(c.order[0], c.files[c.order[0]])
	}
	c.mu.Unlock()
}

// Get returns the cached tree under key (grammar and path) when its
// source is src, and the hash of src to Put it with. Precondition: the
// caller holds c.
func (c *Cache) Get(key string, src []byte) (*File, uint64) {
	h := maphash.Bytes(c.seed, src)
	if e, ok := c.files[key]; ok && e.hash == h {
		c.touch(key)
		return e.F, h
	}
	return nil, h
}

// Put caches f under key; its source hashes to h (Get). Precondition:
// the caller holds c.
func (c *Cache) Put(key string, f *File, h uint64) {
	if old, ok := c.files[key]; ok {
		c.drop(key, old)
	}
	c.files[key] = &cached{hash: h, F: f}
	c.order = append(c.order, key)
	c.bytes += len(f.Src)
}

func (c *Cache) drop(key string, e *cached) {
	e.F.Tree.Release()
	c.bytes -= len(e.F.Src)
	delete(c.files, key)
	c.remove(key)
}

func (c *Cache) touch(rel string) {
	c.remove(rel)
	c.order = append(c.order, rel)
}

func (c *Cache) remove(rel string) {
	for i, r := range c.order {
		if r == rel {
			c.order = append(c.order[:i], c.order[i+1:]...)
			return
		}
	}
}

// cacheKey is the key of a store's Cache (index.Store.Attach).
type cacheKey struct{}

// CacheOf is the store's tree cache, made on first use; it lives as long
// as the store.
func CacheOf(s *index.Store) *Cache {
	return s.Attach(cacheKey{}, func() any { return new(Cache) }).(*Cache)
}

// IdxCache is the map in which the language lang keeps its files'
// decoded descriptor records (LoadIdx), T being its record type.
// Precondition: the caller holds c.
func IdxCache[T any](c *Cache, lang string) *map[string]T {
	if c.idx == nil {
		c.idx = map[string]any{}
	}
	m, ok := c.idx[lang].(*map[string]T)
	if !ok {
		m = new(map[string]T)
		c.idx[lang] = m
	}
	return m
}

// Keys lists the cached trees' keys (grammar and path), least recently
// used first; for tests. Precondition: the caller holds c.
func (c *Cache) Keys() []string { return c.order }

// Cached returns the tree cached under key, whatever its source; for
// tests. Precondition: the caller holds c.
func (c *Cache) Cached(key string) (*File, bool) {
	e, ok := c.files[key]
	if !ok {
		return nil, false
	}
	return e.F, true
}

// ResolveGen numbers the resolutions begun so far.
func (c *Cache) ResolveGen() uint64 { return c.gen.Load() }

// Cancel stops the resolutions at their next step, those running and
// those begun until Resume.
func (c *Cache) Cancel() { c.cancelled.Store(math.MaxUint64) }

// Resume lets resolutions begun from now on run, after cancel.
func (c *Cache) Resume() { c.cancelled.CompareAndSwap(math.MaxUint64, c.gen.Load()) }

// CancelledSince reports whether a resolution begun after ResolveGen
// returned gen may have been cancelled.
func (c *Cache) CancelledSince(gen uint64) bool { return c.cancelled.Load() > gen }
