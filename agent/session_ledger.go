package agent

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/tools/ledger"
)

// SessionLedger is one session's re-read ledger records in the store
// ('l' records): the ledger survives the process, so `parley read
// --session` and a resumed chat know what the model has seen. Safe for
// concurrent use.
type SessionLedger struct {
	st *SessionStore
	id string
}

// Ledger returns session id's ledger records. The session need not be
// saved yet; Delete removes the records with it.
func (st *SessionStore) Ledger(id string) *SessionLedger { return &SessionLedger{st: st, id: id} }

// OpenLedger returns session id's ledger, replaying its records.
func (st *SessionStore) OpenLedger(id string) (*ledger.Ledger, error) {
	l, err := ledger.New(st.Ledger(id))
	if err != nil {
		return nil, fmt.Errorf("session %s: %w", id, err)
	}
	return l, nil
}

func ledgerBounds(id string) (lower, upper []byte) {
	lower = append(sessionKey(prefixLedger, id), 0)
	upper = append(sessionKey(prefixLedger, id), 1)
	return lower, upper
}

func ledgerKey(id string, seq uint64) []byte {
	lower, _ := ledgerBounds(id)
	return binary.BigEndian.AppendUint64(lower, seq)
}

// LoadLedger implements ledger.Store: the records in the order written.
func (l *SessionLedger) LoadLedger() ([]ledger.Record, error) {
	lower, upper := ledgerBounds(l.id)
	it, err := l.st.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("load the ledger of session %s: %w", l.id, err)
	}
	var out []ledger.Record
	for valid := it.First(); valid; valid = it.Next() {
		var r ledger.Record
		v, err := it.ValueAndErr()
		if err == nil {
			err = json.Unmarshal(v, &r)
		}
		if err != nil {
			it.Close()
			return nil, fmt.Errorf("load the ledger of session %s: %w", l.id, err)
		}
		out = append(out, r)
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, fmt.Errorf("load the ledger of session %s: %w", l.id, err)
	}
	return out, nil
}

// AppendLedger implements ledger.Store. The write is not synced: a record
// lost in a crash only makes the next re-read show the whole file, and a
// sync per read would cost more than the ledger's budget.
func (l *SessionLedger) AppendLedger(r ledger.Record) error {
	v, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode a ledger record of session %s: %w", l.id, err)
	}
	if err := l.st.db.Set(ledgerKey(l.id, r.Seq), v, pebble.NoSync); err != nil {
		return fmt.Errorf("save the ledger of session %s: %w", l.id, err)
	}
	return nil
}

// ReplaceLedger implements ledger.Rewriter: the session's records become
// recs, in one batch, so a crash leaves either log whole.
func (l *SessionLedger) ReplaceLedger(recs []ledger.Record) error {
	b := l.st.db.NewBatch()
	defer b.Close()
	lower, upper := ledgerBounds(l.id)
	if err := b.DeleteRange(lower, upper, nil); err != nil {
		return fmt.Errorf("rewrite the ledger of session %s: %w", l.id, err)
	}
	for _, r := range recs {
		v, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("encode a ledger record of session %s: %w", l.id, err)
		}
		if err := b.Set(ledgerKey(l.id, r.Seq), v, nil); err != nil {
			return fmt.Errorf("rewrite the ledger of session %s: %w", l.id, err)
		}
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("rewrite the ledger of session %s: %w", l.id, err)
	}
	return nil
}
