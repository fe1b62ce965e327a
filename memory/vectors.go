package memory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/internal/dirlock"
	"github.com/parleyhq/parley/memory/vector"
)

// vectorPrefix is the first byte of the vector store's keys in its
// database (memory/vector documents the rest of the layout).
const vectorPrefix = 'V'

// vectors is the store's vector database: its own Pebble database in the
// store's "vectors" directory, opened on first use and held until Close.
//
// Unlike the memories, it is not opened per operation: its HNSW graphs
// live in memory, derived from the records and snapshotted, and loading
// them for every operation would cost far more than the operation. So one
// process at a time owns it (the first to use it); another gets an error
// matching ErrLocked, and its memory recall falls back to lexical search
// (saying so) while the owner runs.
type vectors struct {
	mu    sync.Mutex
	db    *vector.DB
	pdb   *pebble.DB
	lock  *os.File
	cache *embedCache // the embedding cache (embedcache.go), once made
}

// Vectors returns the store's vector indices (the vector_db_* tools'
// indices and the memories' own embeddings), with graph snapshots in the
// "vectors/hnsw" directory. A failure is not kept: the next call tries
// again, so a process gets the indices once their owner exits.
func (s *Store) Vectors() (*vector.DB, error) {
	s.vec.mu.Lock()
	defer s.vec.mu.Unlock()
	if s.vec.db != nil {
		return s.vec.db, nil
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, fmt.Errorf("memory store %s: %w", s.dir, errClosed)
	}
	dir := filepath.Join(s.dir, "vectors")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	lock, err := dirlock.Lock(dir)
	if held, ok := errors.AsType[*dirlock.HeldError](err); ok {
		return nil, fmt.Errorf("memory store %s: the vector indices are in use by another parley process (pid %s): %w", s.dir, held.PID, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	pdb, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		dirlock.Unlock(lock)
		return nil, fmt.Errorf("memory store %s: vectors: %w", s.dir, err)
	}
	db, err := vector.Open(pdb, vectorPrefix, filepath.Join(dir, "hnsw"))
	if err != nil {
		pdb.Close()
		dirlock.Unlock(lock)
		return nil, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	s.vec.db, s.vec.pdb, s.vec.lock = db, pdb, lock
	return db, nil
}

// closeVectors writes the graphs' snapshots, then closes the database and
// releases its lock.
func (s *Store) closeVectors() error {
	s.vec.mu.Lock()
	defer s.vec.mu.Unlock()
	if s.vec.db == nil {
		return nil
	}
	err := errors.Join(s.vec.db.Close(), s.vec.pdb.Close(), dirlock.Unlock(s.vec.lock))
	s.vec.db, s.vec.pdb, s.vec.lock = nil, nil, nil
	if s.vec.cache != nil {
		s.vec.cache.loaded = false // a reopened database is counted again
	}
	if err != nil {
		return fmt.Errorf("close memory store %s: vectors: %w", s.dir, err)
	}
	return nil
}

// embeddingCache opens the store's vectors and returns its embedding
// cache, bounded to limit bytes (0: DefaultEmbeddingCacheBytes). The cache
// is one per store, so its byte count is right however many Sets use it.
func (s *Store) embeddingCache(limit int64) (*embedCache, error) {
	if _, err := s.Vectors(); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = DefaultEmbeddingCacheBytes
	}
	s.vec.mu.Lock()
	defer s.vec.mu.Unlock()
	if s.vec.cache == nil {
		s.vec.cache = &embedCache{vec: &s.vec}
	}
	s.vec.cache.limit = limit
	return s.vec.cache, nil
}
