package index

import (
	"hash/maphash"
	"math"
	"sync"
	"sync/atomic"
)

// pyTreeCache keeps the parse trees of recently resolved Python files, so
// that the buffer being edited and the modules every file imports (os,
// typing) are parsed once, not on each request. One resolver uses the
// cache at a time: gotreesitter trees are not safe for concurrent reads
// (parent links are filled in lazily), so Python resolution is serialised
// per store.
type pyTreeCache struct {
	// gen numbers the resolvers begun; those numbered up to cancelled
	// stop at their next step (Store.CancelResolutions: all of them while
	// it is MaxUint64).
	gen, cancelled atomic.Uint64

	mu    sync.Mutex
	seed  maphash.Seed
	files map[string]*pyCached
	// idx holds files' decoded Python descriptors (resolve_pyidx.go),
	// checked against the header's content hash.
	idx   map[string]*pyIdxFile
	tsIdx map[string]*tsIdxFile // TypeScript's (resolve_tsidx.go)
	order []string              // least recently used first
	bytes int
}

type pyCached struct {
	hash uint64
	f    *pyFile
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

// lock takes the cache for one resolver.
func (c *pyTreeCache) lock() {
	c.mu.Lock()
	if c.files == nil {
		c.files = map[string]*pyCached{}
		c.seed = maphash.MakeSeed()
	}
}

// unlock evicts the least recently used files beyond the bounds (not
// before: the resolver that held the cache may still use any tree it
// got) and releases the cache.
func (c *pyTreeCache) unlock() {
	for len(c.order) > 1 && (len(c.order) > pyCacheFiles || c.bytes > pyCacheBytes) {
		c.drop(c.order[0], c.files[c.order[0]])
	}
	c.mu.Unlock()
}

// get returns the cached tree under key (grammar and path) when its
// source is src.
func (c *pyTreeCache) get(key string, src []byte) (*pyFile, uint64) {
	h := maphash.Bytes(c.seed, src)
	if e, ok := c.files[key]; ok && e.hash == h {
		c.touch(key)
		return e.f, h
	}
	return nil, h
}

// put caches f under key; its source hashes to h.
func (c *pyTreeCache) put(key string, f *pyFile, h uint64) {
	if old, ok := c.files[key]; ok {
		c.drop(key, old)
	}
	c.files[key] = &pyCached{hash: h, f: f}
	c.order = append(c.order, key)
	c.bytes += len(f.src)
}

func (c *pyTreeCache) drop(key string, e *pyCached) {
	e.f.tree.Release()
	c.bytes -= len(e.f.src)
	delete(c.files, key)
	c.remove(key)
}

func (c *pyTreeCache) touch(rel string) {
	c.remove(rel)
	c.order = append(c.order, rel)
}

func (c *pyTreeCache) remove(rel string) {
	for i, r := range c.order {
		if r == rel {
			c.order = append(c.order[:i], c.order[i+1:]...)
			return
		}
	}
}

// ResolveGen numbers the Python and TypeScript resolutions begun so far.
func (s *Store) ResolveGen() uint64 { return s.py.gen.Load() }

// CancelResolutions stops the store's resolutions at their next step,
// those running and those begun until ResumeResolutions: a caller that no
// longer wants an answer (the language server's late resolution, past its
// budget) frees the store for the next. Their answers are incomplete;
// CancelledSince tells.
func (s *Store) CancelResolutions() { s.py.cancelled.Store(math.MaxUint64) }

// ResumeResolutions lets resolutions begun from now on run, after
// CancelResolutions.
func (s *Store) ResumeResolutions() {
	s.py.cancelled.CompareAndSwap(math.MaxUint64, s.py.gen.Load())
}

// CancelledSince reports whether a resolution begun after ResolveGen
// returned gen may have been cancelled.
func (s *Store) CancelledSince(gen uint64) bool { return s.py.cancelled.Load() > gen }
