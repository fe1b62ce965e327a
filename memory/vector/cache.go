package vector

import (
	"errors"

	"github.com/cockroachdb/pebble/v2"
)

// GetEmbedding returns a cached embedding (embed.Cache).
func (d *DB) GetEmbedding(key [32]byte) ([]float32, bool, error) {
	v, closer, err := d.db.Get(d.cacheKey(key))
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer closer.Close()
	return readFloats(v), true, nil
}

// PutEmbeddings caches embeddings (embed.Cache). The cache is not synced:
// losing its last entries in a crash costs a request, nothing else.
func (d *DB) PutEmbeddings(keys [][32]byte, vecs [][]float32) error {
	b := d.db.NewBatch()
	defer b.Close()
	for i, k := range keys {
		if err := b.Set(d.cacheKey(k), appendFloats(nil, vecs[i]), nil); err != nil {
			return err
		}
	}
	return b.Commit(pebble.NoSync)
}
