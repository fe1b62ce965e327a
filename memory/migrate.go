package memory

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/parleyhq/parley/internal/keyrange"
)

// migrateV1 brings a version 1 store to version 2: its one-key-per-posting
// 'p' records become posting blocks (keys.go), then the old records go and
// the new version is recorded. Memories are user data, so a store is
// migrated, never rebuilt from nothing. Blocks are written in batches as
// they fill; the old records' deletion and the version come last, in one
// synced batch, so a migration cut short leaves a version 1 store, and
// running it again writes the same blocks under the same keys.
func migrateV1(db *pebble.DB) error {
	lo := []byte{prefixPostingV1}
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return err
	}
	defer it.Close()
	b := db.NewBatch()
	defer func() { b.Close() }()
	var term string
	var ps []posting
	flushBlock := func() error {
		if len(ps) == 0 {
			return nil
		}
		err := b.Set(blockKey(term, ps[0].id), encodeBlock(ps, ps[0].id), nil)
		ps = ps[:0]
		if err != nil || b.Len() < 4<<20 {
			return err
		}
		if err := b.Commit(pebble.NoSync); err != nil {
			return err
		}
		b.Close()
		b = db.NewBatch()
		return nil
	}
	for it.First(); it.Valid(); it.Next() {
		key, v := it.Key(), it.Value()
		sep := len(key) - 9
		tf, n := binary.Uvarint(v)
		dl, m := binary.Uvarint(v[max(n, 0):])
		if sep < 1 || key[sep] != 0 || n <= 0 || m <= 0 {
			return fmt.Errorf("migrate to version 2: corrupt posting %x", key)
		}
		if t := string(key[1:sep]); t != term || len(ps) == blockSize {
			if err := flushBlock(); err != nil {
				return err
			}
			term = t
		}
		ps = append(ps, posting{binary.BigEndian.Uint64(key[sep+1:]), tf, dl})
	}
	if err := errors.Join(it.Error(), flushBlock()); err != nil {
		return err
	}
	if err := b.DeleteRange(lo, keyrange.PrefixEnd(lo), nil); err != nil {
		return err
	}
	if err := b.Set(schemaKey, binary.AppendUvarint(nil, schemaVersion), nil); err != nil {
		return err
	}
	return b.Commit(pebble.Sync)
}
