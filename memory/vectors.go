package memory

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/parleyhq/parley/memory/vector"
)

// vectorPrefix is the first byte of the vector store's keys in the
// memory store (memory/vector documents the rest of the layout).
const vectorPrefix = 'V'

// vectors is the store's vector database, opened on first use.
type vectors struct {
	once sync.Once
	db   *vector.DB
	err  error
}

// Vectors returns the store's vector indices (the vector_db_* tools'
// indices and the memories' own embeddings), kept in the same Pebble
// database, with graph snapshots in the store's "hnsw" directory.
func (s *Store) Vectors() (*vector.DB, error) {
	s.vec.once.Do(func() {
		s.vec.db, s.vec.err = vector.Open(s.db, vectorPrefix, filepath.Join(s.dir, "hnsw"))
		if s.vec.err != nil {
			s.vec.err = fmt.Errorf("memory store %s: %w", s.dir, s.vec.err)
		}
	})
	return s.vec.db, s.vec.err
}

// closeVectors writes the graphs' snapshots before the database closes.
func (s *Store) closeVectors() error {
	if s.vec.db == nil {
		return nil
	}
	return s.vec.db.Close()
}
