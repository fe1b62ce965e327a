package memory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/internal/keyrange"
	"github.com/parleyhq/parley/memory/embed"
)

// The embedding cache (embed.Cache) keeps vectors by content hash in the
// vector database's Pebble, under its own prefix, bounded in bytes:
// beyond the bound the least recently used entries go. Every hit moves
// its entry to the back of the line (an unsynced write: losing it in a
// crash only makes the entry look older). Entries are counted as their
// stored value (8 bytes of sequence and 4 per dimension), so 64 MiB holds
// about 44,000 vectors of 384 dimensions or 11,000 of 1536.
//
// It replaced memory/vector's own cache, which had no eviction; entries
// that one wrote are dropped when this one first loads (legacyCachePrefix).
//
// Key layout (prefix embedCachePrefix):
//
//	E 'k' sha256(32)          -> seq(8) | float32 LE
//	E 'o' seq(8) sha256(32)   -> uint32 size of the 'k' value (LRU order)
const (
	embedCachePrefix = 'E'
	// DefaultEmbeddingCacheBytes bounds the cache when the configuration
	// does not (embedding_cache_mb).
	DefaultEmbeddingCacheBytes = 64 << 20
)

// legacyCachePrefix is the range of memory/vector's former unbounded
// cache (P 'e' sha256).
var legacyCachePrefix = []byte{vectorPrefix, 'e'}

// embedCache is a store's bounded embedding cache. Its operations hold the
// store's vectors lock, so it never works on a closed database.
type embedCache struct {
	vec    *vectors
	limit  int64
	loaded bool
	used   int64  // bytes of the 'k' values
	next   uint64 // next sequence number
}

var _ embed.Cache = (*embedCache)(nil)

func cacheKey(h [32]byte) []byte {
	return append([]byte{embedCachePrefix, 'k'}, h[:]...)
}

func orderKey(seq uint64, h [32]byte) []byte {
	k := binary.BigEndian.AppendUint64([]byte{embedCachePrefix, 'o'}, seq)
	return append(k, h[:]...)
}

// db returns the open database, loading the cache's counters on first
// use. The caller holds c.vec.mu.
func (c *embedCache) db() (*pebble.DB, error) {
	db := c.vec.pdb
	if db == nil {
		return nil, fmt.Errorf("embedding cache: %w", errClosed)
	}
	if c.loaded {
		return db, nil
	}
	lo := []byte{embedCachePrefix, 'o'}
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return nil, fmt.Errorf("embedding cache: %w", err)
	}
	c.used, c.next = 0, 1
	for it.First(); it.Valid(); it.Next() {
		c.used += int64(binary.LittleEndian.Uint32(it.Value()))
		c.next = binary.BigEndian.Uint64(it.Key()[2:]) + 1
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, fmt.Errorf("embedding cache: %w", err)
	}
	if err := db.DeleteRange(legacyCachePrefix, keyrange.PrefixEnd(legacyCachePrefix), pebble.NoSync); err != nil {
		return nil, fmt.Errorf("embedding cache: %w", err)
	}
	c.loaded = true
	return db, nil
}

// GetEmbedding returns the cached vector for key and makes it the most
// recently used.
func (c *embedCache) GetEmbedding(key [32]byte) ([]float32, bool, error) {
	c.vec.mu.Lock()
	defer c.vec.mu.Unlock()
	db, err := c.db()
	if err != nil {
		return nil, false, err
	}
	val, closer, err := db.Get(cacheKey(key))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("embedding cache: %w", err)
	}
	seq := binary.BigEndian.Uint64(val)
	vec := make([]float32, (len(val)-8)/4)
	for i := range vec {
		vec[i] = math.Float32frombits(binary.LittleEndian.Uint32(val[8+4*i:]))
	}
	closer.Close()
	b := db.NewBatch()
	defer b.Close()
	c.set(b, key, vec, seq)
	if err := b.Commit(pebble.NoSync); err != nil {
		c.loaded = false // recount from the database
		return nil, false, fmt.Errorf("embedding cache: %w", err)
	}
	return vec, true, nil
}

// set writes key's entry as the most recent, dropping its old order entry
// (seq 0: none).
func (c *embedCache) set(b *pebble.Batch, key [32]byte, vec []float32, oldSeq uint64) {
	size := 8 + 4*len(vec)
	if oldSeq != 0 {
		b.Delete(orderKey(oldSeq, key), nil)
		c.used -= int64(size)
	}
	val := binary.BigEndian.AppendUint64(make([]byte, 0, size), c.next)
	for _, x := range vec {
		val = binary.LittleEndian.AppendUint32(val, math.Float32bits(x))
	}
	b.Set(cacheKey(key), val, nil)
	b.Set(orderKey(c.next, key), binary.LittleEndian.AppendUint32(nil, uint32(size)), nil)
	c.next++
	c.used += int64(size)
}

// PutEmbeddings caches vectors, then evicts the least recently used
// entries beyond the bound. Unsynced: a crash costs requests, no data.
func (c *embedCache) PutEmbeddings(keys [][32]byte, vecs [][]float32) error {
	c.vec.mu.Lock()
	defer c.vec.mu.Unlock()
	db, err := c.db()
	if err != nil {
		return err
	}
	b := db.NewIndexedBatch()
	defer b.Close()
	for i, k := range keys {
		var old uint64
		val, closer, err := b.Get(cacheKey(k))
		switch {
		case err == nil:
			old = binary.BigEndian.Uint64(val)
			closer.Close()
		case !errors.Is(err, pebble.ErrNotFound):
			return fmt.Errorf("embedding cache: %w", err)
		}
		c.set(b, k, vecs[i], old)
	}
	err = c.evict(b)
	if err == nil {
		err = b.Commit(pebble.NoSync)
	}
	if err != nil {
		c.loaded = false // the counters moved for a batch not written
		return fmt.Errorf("embedding cache: %w", err)
	}
	return nil
}

// evict deletes the oldest entries until the cache fits its bound.
func (c *embedCache) evict(b *pebble.Batch) error {
	if c.used <= c.limit {
		return nil
	}
	lo := []byte{embedCachePrefix, 'o'}
	it, err := b.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return err
	}
	var drop [][]byte
	for it.First(); it.Valid() && c.used > c.limit; it.Next() {
		k := it.Key()
		drop = append(drop, append([]byte(nil), k...))
		c.used -= int64(binary.LittleEndian.Uint32(it.Value()))
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return err
	}
	for _, k := range drop {
		var h [32]byte
		copy(h[:], k[10:])
		b.Delete(k, nil)
		b.Delete(cacheKey(h), nil)
	}
	return nil
}

// lazyCache is the store's embedding cache, taken at its first use. While
// another process owns the store's vector indices it holds nothing (every
// text costs a request), and recall says it is lexical.
type lazyCache struct {
	st    *Store
	limit int64
}

func (l *lazyCache) GetEmbedding(key [32]byte) ([]float32, bool, error) {
	c, err := l.st.embeddingCache(l.limit)
	if errors.Is(err, ErrLocked) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return c.GetEmbedding(key)
}

func (l *lazyCache) PutEmbeddings(keys [][32]byte, vecs [][]float32) error {
	c, err := l.st.embeddingCache(l.limit)
	if errors.Is(err, ErrLocked) {
		return nil
	}
	if err != nil {
		return err
	}
	return c.PutEmbeddings(keys, vecs)
}
