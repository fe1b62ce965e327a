package agent

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/tools"
)

// SessionUndo is one session's undo stack in the store: the terminal's
// DiskEditor keeps its entries there (tools.UndoStore), so /undo works
// after the chat is resumed in another process. Safe for concurrent use.
type SessionUndo struct {
	st *SessionStore
	id string
}

// Undo returns session id's undo stack. The session need not be saved
// yet; Delete removes its stack with it.
func (st *SessionStore) Undo(id string) *SessionUndo { return &SessionUndo{st: st, id: id} }

// undoBounds are the key bounds of session id's undo records.
func undoBounds(id string) (lower, upper []byte) {
	lower = append(sessionKey(prefixUndo, id), 0)
	upper = append(sessionKey(prefixUndo, id), 1)
	return lower, upper
}

func undoKey(id string, seq uint64) []byte {
	lower, _ := undoBounds(id)
	return binary.BigEndian.AppendUint64(lower, seq)
}

// LoadUndo implements tools.UndoStore: the entries, oldest first.
func (u *SessionUndo) LoadUndo() ([]tools.UndoEntry, error) {
	lower, upper := undoBounds(u.id)
	it, err := u.st.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("load the undo stack of session %s: %w", u.id, err)
	}
	var out []tools.UndoEntry
	for valid := it.First(); valid; valid = it.Next() {
		var e tools.UndoEntry
		v, err := it.ValueAndErr()
		if err == nil {
			err = json.Unmarshal(v, &e)
		}
		if err != nil {
			it.Close()
			return nil, fmt.Errorf("load the undo stack of session %s: %w", u.id, err)
		}
		out = append(out, e)
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, fmt.Errorf("load the undo stack of session %s: %w", u.id, err)
	}
	return out, nil
}

// SaveUndo implements tools.UndoStore, in one synced batch.
func (u *SessionUndo) SaveUndo(add *tools.UndoEntry, remove []uint64) error {
	b := u.st.db.NewBatch()
	defer b.Close()
	for _, seq := range remove {
		if err := b.Delete(undoKey(u.id, seq), nil); err != nil {
			return fmt.Errorf("save the undo stack of session %s: %w", u.id, err)
		}
	}
	if add != nil {
		v, err := json.Marshal(add)
		if err != nil {
			return fmt.Errorf("encode an undo entry of session %s: %w", u.id, err)
		}
		if err := b.Set(undoKey(u.id, add.Seq), v, nil); err != nil {
			return fmt.Errorf("save the undo stack of session %s: %w", u.id, err)
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("save the undo stack of session %s: %w", u.id, err)
	}
	return nil
}
