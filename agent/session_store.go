package agent

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/internal/dirlock"

	"github.com/parleyhq/parley/agent/provider"
)

// Key layout of the session store. One prefix byte per record kind;
// session IDs sort by creation time (see NewID).
//
//	0x01 "schema"        -> uvarint sessionSchemaVersion
//	'm'  id              -> JSON SessionInfo (what List shows)
//	'c'  id              -> JSON []provider.Message (the conversation)
//	'u'  id 0x00 seq(8)  -> JSON tools.UndoEntry (the terminal's undo stack;
//	                        seq big-endian, so a prefix scan is oldest first)
//	'l'  id 0x00 seq(8)  -> JSON ledger.Record (the re-read ledger, in the
//	                        order written; see package tools/ledger)
//	'k'  model           -> JSON float64, the model's token calibration
//	                        (tokens_calibration.go), shared by sessions
//
// A session's 'm' and 'c' records are written and deleted together in one
// synced batch, so a crash never leaves a listing without its messages;
// Delete removes its 'u' and 'l' records in the same batch. Sessions are user data
// that cannot be rebuilt, so unlike the index a store with another schema
// version is refused, never wiped. The 'u' and 'l' records came without a
// version change: a parley that does not know them ignores them.
const sessionSchemaVersion = 1

const (
	prefixSchema   = 0x01
	prefixInfo     = 'm'
	prefixMessages = 'c'
	prefixUndo     = 'u'
	prefixLedger   = 'l'
	// prefixCalibration came without a version change, like 'u' and 'l'.
	prefixCalibration = 'k'
)

var sessionSchemaKey = []byte{prefixSchema, 's', 'c', 'h', 'e', 'm', 'a'}

func sessionKey(prefix byte, id string) []byte { return append([]byte{prefix}, id...) }

// ErrSessionsLocked is matched (errors.Is) by OpenSessions' error when
// another process has the store open.
var ErrSessionsLocked = errors.New("session store is locked by another process")

// ErrSessionNotFound is returned by Load and Delete for an unknown ID.
var ErrSessionNotFound = errors.New("session not found")

// SessionInfo is a session without its messages, for listings.
type SessionInfo struct {
	ID       string         `json:"id"`
	Created  time.Time      `json:"created"`
	Updated  time.Time      `json:"updated"`
	Title    string         `json:"title"`
	Model    string         `json:"model,omitempty"`
	Turns    int            `json:"turns"`
	Usage    provider.Usage `json:"usage"`
	Messages int            `json:"messages"`
	// Compactions is the session's compaction record (see Compaction);
	// the stored messages are the compacted history.
	Compactions []Compaction `json:"compactions,omitempty"`
}

// SessionStore keeps sessions in a Pebble database in its own directory.
// It is safe for concurrent use; the caller must Close it.
type SessionStore struct {
	db   *pebble.DB
	dir  string
	lock *os.File
}

// OpenSessions opens or creates the session store in dir. Only one
// process may have it open (ErrSessionsLocked otherwise).
func OpenSessions(dir string) (*SessionStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("session store %s: %w", dir, err)
	}
	lock, err := dirlock.Lock(dir)
	if held, ok := errors.AsType[*dirlock.HeldError](err); ok {
		return nil, fmt.Errorf("session store %s: %w (pid %s)", dir, ErrSessionsLocked, held.PID)
	}
	if err != nil {
		return nil, fmt.Errorf("session store: %w", err)
	}
	db, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{
		MemTableSize: 4 << 20,
		Logger:       quietLogger{},
	})
	if err != nil {
		dirlock.Unlock(lock)
		return nil, fmt.Errorf("session store %s: %w", dir, err)
	}
	st := &SessionStore{db: db, dir: dir, lock: lock}
	if err := st.checkSchema(); err != nil {
		st.Close()
		return nil, fmt.Errorf("session store %s: %w", dir, err)
	}
	return st, nil
}

func (st *SessionStore) checkSchema() error {
	v, closer, err := st.db.Get(sessionSchemaKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return st.db.Set(sessionSchemaKey, binary.AppendUvarint(nil, sessionSchemaVersion), pebble.Sync)
	}
	if err != nil {
		return err
	}
	defer closer.Close()
	got, n := binary.Uvarint(v)
	if n <= 0 || got != sessionSchemaVersion {
		return fmt.Errorf("schema version %d, this parley reads version %d (use the parley that wrote it, or another --data-dir)", got, sessionSchemaVersion)
	}
	return nil
}

// Dir is the directory the store lives in.
func (st *SessionStore) Dir() string { return st.dir }

// Close closes the database and releases the lock.
func (st *SessionStore) Close() error {
	var errs []error
	if st.db != nil {
		errs = append(errs, st.db.Close())
		st.db = nil
	}
	errs = append(errs, dirlock.Unlock(st.lock))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close session store %s: %w", st.dir, err)
	}
	return nil
}

// Save writes the session durably (synced), replacing what was stored.
func (st *SessionStore) Save(s *Session) error {
	if s.ID == "" {
		return errors.New("save session: no ID")
	}
	msgs := s.Messages
	if msgs == nil {
		msgs = []provider.Message{}
	}
	content, err := json.Marshal(msgs)
	if err != nil {
		return fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	info, err := json.Marshal(infoOf(s))
	if err != nil {
		return fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	b := st.db.NewBatch()
	defer b.Close()
	if err := b.Set(sessionKey(prefixInfo, s.ID), info, nil); err != nil {
		return fmt.Errorf("write session %s: %w", s.ID, err)
	}
	if err := b.Set(sessionKey(prefixMessages, s.ID), content, nil); err != nil {
		return fmt.Errorf("write session %s: %w", s.ID, err)
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("write session %s: %w", s.ID, err)
	}
	return nil
}

func infoOf(s *Session) SessionInfo {
	return SessionInfo{ID: s.ID, Created: s.Created, Updated: s.Updated, Title: s.Title, Model: s.Model,
		Turns: s.Turns, Usage: s.Usage, Messages: len(s.Messages), Compactions: s.Compactions}
}

// Load reads a session (ErrSessionNotFound if there is none with that ID).
func (st *SessionStore) Load(id string) (*Session, error) {
	info, err := st.get(sessionKey(prefixInfo, id))
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	content, err := st.get(sessionKey(prefixMessages, id))
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	var si SessionInfo
	if err := json.Unmarshal(info, &si); err != nil {
		return nil, fmt.Errorf("load session %s: corrupt listing: %w", id, err)
	}
	s := &Session{ID: si.ID, Created: si.Created, Updated: si.Updated, Title: si.Title, Model: si.Model, Turns: si.Turns, Usage: si.Usage,
		Compactions: si.Compactions}
	if err := json.Unmarshal(content, &s.Messages); err != nil {
		return nil, fmt.Errorf("load session %s: corrupt messages: %w", id, err)
	}
	return s, nil
}

// get returns a copy of the value at key, or ErrSessionNotFound.
func (st *SessionStore) get(key []byte) ([]byte, error) {
	v, closer, err := st.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, ErrSessionNotFound
	}
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(v)
	return out, closer.Close()
}

// List returns every session, most recently updated first.
func (st *SessionStore) List() ([]SessionInfo, error) {
	lower := []byte{prefixInfo}
	it, err := st.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: []byte{prefixInfo + 1}})
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []SessionInfo
	for valid := it.First(); valid; valid = it.Next() {
		var si SessionInfo
		v, err := it.ValueAndErr()
		if err == nil {
			err = json.Unmarshal(v, &si)
		}
		if err != nil {
			it.Close()
			return nil, fmt.Errorf("list sessions: %s: %w", it.Key()[1:], err)
		}
		out = append(out, si)
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	slices.SortStableFunc(out, func(a, b SessionInfo) int {
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return cmp.Compare(b.ID, a.ID)
	})
	return out, nil
}

// Delete removes a session (ErrSessionNotFound if there is none).
func (st *SessionStore) Delete(id string) error {
	if _, err := st.get(sessionKey(prefixInfo, id)); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	b := st.db.NewBatch()
	defer b.Close()
	if err := b.Delete(sessionKey(prefixInfo, id), nil); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	if err := b.Delete(sessionKey(prefixMessages, id), nil); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	for _, bounds := range [](func(string) ([]byte, []byte)){undoBounds, ledgerBounds} {
		lower, upper := bounds(id)
		if err := b.DeleteRange(lower, upper, nil); err != nil {
			return fmt.Errorf("delete session %s: %w", id, err)
		}
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	return nil
}

// quietLogger keeps Pebble's informational chatter off the terminal;
// errors still surface through returned errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble fatal: "+format, args...))
}
