package memory

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// migrateV1 brings a version 1 store to version 2: it adds the impact
// postings and document frequencies that version 1 lacked, computed from
// the ID-ordered postings, then records the new version. Memories are
// user data, so a store is migrated, never rebuilt from nothing. The
// writes are batched by size and the version is written last: a migration
// cut short leaves version 1, and running it again rewrites the same
// records.
func migrateV1(db *pebble.DB) error {
	lo := []byte{prefixPosting}
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: upperBound(lo)})
	if err != nil {
		return err
	}
	df := map[string]uint64{}
	b := db.NewBatch()
	for it.First(); it.Valid(); it.Next() {
		key, v := it.Key(), it.Value()
		sep := len(key) - 9
		tf, n := binary.Uvarint(v)
		dl, m := binary.Uvarint(v[max(n, 0):])
		if sep < 1 || key[sep] != 0 || n <= 0 || m <= 0 {
			it.Close()
			b.Close()
			return fmt.Errorf("migrate to version 2: corrupt posting %x", key)
		}
		term, id := string(key[1:sep]), binary.BigEndian.Uint64(key[sep+1:])
		df[term]++
		if err := b.Set(impactKey(term, tf, dl, id), binary.AppendUvarint(nil, tf), nil); err != nil {
			it.Close()
			b.Close()
			return err
		}
		if b.Len() > 4<<20 {
			if err := b.Commit(pebble.NoSync); err != nil {
				it.Close()
				b.Close()
				return err
			}
			b.Close()
			b = db.NewBatch()
		}
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		b.Close()
		return err
	}
	defer b.Close()
	for t, n := range df {
		if err := b.Set(termKey(t), binary.AppendUvarint(nil, n), nil); err != nil {
			return err
		}
	}
	if err := b.Set(schemaKey, binary.AppendUvarint(nil, schemaVersion), nil); err != nil {
		return err
	}
	return b.Commit(pebble.Sync)
}
