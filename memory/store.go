package memory

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/internal/dirlock"
	"github.com/parleyhq/parley/internal/keyrange"
)

// ErrLocked is matched (errors.Is) by the error of an operation that
// waited LockTimeout for another process's operation on the same store.
var ErrLocked = errors.New("memory store is locked by another process")

// ErrNotFound is returned for an unknown memory ID.
var ErrNotFound = errors.New("memory not found")

// errClosed is the error of an operation on a closed Store.
var errClosed = errors.New("memory store is closed")

// LockTimeout bounds how long an operation waits for the store's lock
// while another process works on the store. Operations take milliseconds
// (a read about 1 ms, a synced write about 20 ms), so reaching it means a
// process is stuck holding the lock.
const LockTimeout = 10 * time.Second

// Store keeps memories and their lexical index in a Pebble database in its
// own directory. The database is open only during an operation (see
// with), so every process of the user can use the same store. Safe for
// concurrent use; the caller must Close it.
type Store struct {
	dir   string
	scope Scope

	mu     sync.Mutex // one operation at a time in this process
	closed bool
	now    func() time.Time
	// lockTimeout is LockTimeout but in tests.
	lockTimeout time.Duration
	vec         vectors // see vectors.go
	// opens counts the operations run (with), each a Pebble open: what a
	// caller spends is mostly how many it runs (tests check it).
	opens atomic.Int64
}

// stats are the corpus figures BM25 needs, plus the ID counter.
type stats struct {
	Docs, Tokens, LastID uint64
}

// Open checks the store in dir, creating it when it does not exist, and
// returns a handle on it. Memories added through it get scope unless they
// name their own. A store of another schema version is refused.
func Open(dir string, scope Scope) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memory store %s: %w", dir, err)
	}
	s := &Store{dir: dir, scope: scope, now: time.Now, lockTimeout: LockTimeout}
	if err := s.with(true, checkSchema); err != nil {
		return nil, err
	}
	return s, nil
}

func checkSchema(db *pebble.DB) error {
	v, closer, err := db.Get(schemaKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return db.Set(schemaKey, binary.AppendUvarint(nil, schemaVersion), pebble.Sync)
	}
	if err != nil {
		return err
	}
	got, n := binary.Uvarint(v)
	closer.Close()
	switch {
	case n > 0 && got == 1:
		return migrateV1(db)
	case n <= 0 || got != schemaVersion:
		return fmt.Errorf("schema version %d, this parley reads version %d (use the parley that wrote it, or another --data-dir)", got, schemaVersion)
	}
	return nil
}

// with runs fn on the database, opened for this operation alone: it takes
// the directory's lock (waiting up to lockTimeout for another process's
// operation), opens Pebble (read-only unless write), and after fn closes
// it and releases the lock. A write is flushed before the close, so the
// next operation's open replays no log.
//
// Opening per operation is what lets a language server and terminal chats
// share one store: Pebble allows one process at a time, and memory is
// used at human pace. A read-only open costs about 0.6 ms and a
// read-write one about 17 ms, mostly its fsyncs (BenchmarkOpen), against
// a synced write's own fsync; the alternative, a process that keeps the
// store and serves the others over a socket, needs an owner that may exit
// at any time and a protocol for every operation.
func (s *Store) with(write bool, fn func(db *pebble.DB) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("memory store %s: %w", s.dir, errClosed)
	}
	lock, err := waitLock(s.dir, s.lockTimeout)
	if err != nil {
		return err
	}
	s.opens.Add(1)
	db, err := pebble.Open(filepath.Join(s.dir, "pebble"), &pebble.Options{
		MemTableSize: 4 << 20,
		Logger:       quietLogger{},
		ReadOnly:     !write,
	})
	if err != nil {
		dirlock.Unlock(lock)
		return fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	err = fn(db)
	if write && err == nil {
		err = db.Flush()
	}
	errs := errors.Join(err, db.Close(), dirlock.Unlock(lock))
	if errs == nil || errors.Is(errs, ErrInvalid) || errors.Is(errs, ErrNotFound) {
		return errs
	}
	return fmt.Errorf("memory store %s: %w", s.dir, errs)
}

// waitLock takes dir's lock, polling while another process holds it
// (flock has no timeout of its own).
func waitLock(dir string, timeout time.Duration) (*os.File, error) {
	deadline := time.Now().Add(timeout)
	pause := time.Millisecond
	for {
		lock, err := dirlock.Lock(dir)
		held, ok := errors.AsType[*dirlock.HeldError](err)
		if !ok {
			if err != nil {
				return nil, fmt.Errorf("memory store: %w", err)
			}
			return lock, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("memory store %s: %w (pid %s, waited %s)", dir, ErrLocked, held.PID, timeout)
		}
		time.Sleep(pause)
		pause = min(2*pause, 20*time.Millisecond)
	}
}

// Dir is the directory the store lives in.
func (s *Store) Dir() string { return s.dir }

// Scope is the scope the store gives new memories.
func (s *Store) Scope() Scope { return s.scope }

// Close ends the handle: later operations fail. Nothing of the memories
// is held between operations; the vector indices, if this process opened
// them (see Vectors), are closed and released.
func (s *Store) Close() error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return s.closeVectors()
}

// ioCloser is what Pebble's Get returns to release a value.
type ioCloser = io.Closer

func readStats(get func([]byte) ([]byte, ioCloser, error)) (stats, error) {
	v, closer, err := get(statsKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return stats{}, nil
	}
	if err != nil {
		return stats{}, err
	}
	defer closer.Close()
	var st stats
	var n int
	for _, p := range []*uint64{&st.Docs, &st.Tokens, &st.LastID} {
		*p, n = binary.Uvarint(v)
		if n <= 0 {
			return stats{}, fmt.Errorf("corrupt stats record")
		}
		v = v[n:]
	}
	return st, nil
}

func (st stats) encode() []byte {
	b := binary.AppendUvarint(nil, st.Docs)
	b = binary.AppendUvarint(b, st.Tokens)
	return binary.AppendUvarint(b, st.LastID)
}

// Get returns the memory with id, or an error matching ErrNotFound.
func (s *Store) Get(id uint64) (m Memory, err error) {
	err = s.with(false, func(db *pebble.DB) error {
		m, err = getRecord(db.Get, id)
		return err
	})
	return m, err
}

// GetMany returns the memories of ids that exist, by ID, in one
// operation (Get for each would open the store for each).
func (s *Store) GetMany(ids []uint64) (map[uint64]Memory, error) {
	out := make(map[uint64]Memory, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	err := s.with(false, func(db *pebble.DB) error {
		for _, id := range ids {
			m, err := getRecord(db.Get, id)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			out[id] = m
		}
		return nil
	})
	return out, err
}

func getRecord(get func([]byte) ([]byte, ioCloser, error), id uint64) (Memory, error) {
	v, closer, err := get(recordKey(id))
	if errors.Is(err, pebble.ErrNotFound) {
		return Memory{}, fmt.Errorf("memory %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Memory{}, fmt.Errorf("memory %d: %w", id, err)
	}
	defer closer.Close()
	var m Memory
	if err := json.Unmarshal(v, &m); err != nil {
		return Memory{}, fmt.Errorf("memory %d: %w", id, err)
	}
	return m, nil
}

// indexText is what the lexical index sees of a memory.
func indexText(m Memory) string {
	return m.Content + " " + strings.Join(m.Tags, " ")
}

// termCounts is a memory's term frequencies and its length in tokens.
func termCounts(m Memory) (map[string]uint64, uint64) {
	terms := tokenize(indexText(m))
	tf := make(map[string]uint64, len(terms))
	for _, t := range terms {
		tf[t]++
	}
	return tf, uint64(len(terms))
}

// Add stores a new memory and returns it with its ID and times. Its
// validation errors are the caller's mistakes, worded for the model.
func (s *Store) Add(m Memory) (Memory, error) {
	out, err := s.AddAll([]Memory{m})
	if err != nil {
		return Memory{}, err
	}
	return out[0], nil
}

// AddAll stores memories in one synced batch (all or none), for imports
// and bulk loads: one sync instead of one per memory.
func (s *Store) AddAll(ms []Memory) ([]Memory, error) {
	out := make([]Memory, len(ms))
	for i, m := range ms {
		if m.Scope == "" {
			m.Scope = s.scope
		}
		if err := m.normalize(); err != nil {
			return nil, err
		}
		out[i] = m
	}
	err := s.with(true, func(db *pebble.DB) error {
		st, err := readStats(db.Get)
		if err != nil {
			return err
		}
		b := db.NewBatch()
		defer b.Close()
		now := s.now().UTC()
		ed := newBlockEditor(db, st.LastID)
		for i := range out {
			st.LastID++
			out[i].ID = st.LastID
			if out[i].Created.IsZero() {
				out[i].Created = now
			}
			if err := putIndexed(b, ed, &st, out[i]); err != nil {
				return err
			}
		}
		if err := ed.write(b); err != nil {
			return err
		}
		if err := b.Set(statsKey, st.encode(), nil); err != nil {
			return err
		}
		return b.Commit(pebble.Sync)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// putIndexed writes m's record to b, its postings to ed, and counts it
// in st.
func putIndexed(b *pebble.Batch, ed *blockEditor, st *stats, m Memory) error {
	rec, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := b.Set(recordKey(m.ID), rec, nil); err != nil {
		return err
	}
	tf, dl := termCounts(m)
	for t, n := range tf {
		if err := ed.set(t, posting{m.ID, n, dl}); err != nil {
			return err
		}
	}
	st.Docs++
	st.Tokens += dl
	return nil
}

// deleteIndexed removes m's record in b and its postings in ed, and
// uncounts it.
func deleteIndexed(b *pebble.Batch, ed *blockEditor, st *stats, m Memory) error {
	if err := b.Delete(recordKey(m.ID), nil); err != nil {
		return err
	}
	tf, dl := termCounts(m)
	for t := range tf {
		if err := ed.del(t, m.ID); err != nil {
			return err
		}
	}
	st.Docs--
	st.Tokens -= dl
	return nil
}

// Update replaces the memory with m.ID by m, reindexing it in the same
// batch. Created is kept; Updated is set.
func (s *Store) Update(m Memory) (Memory, error) {
	err := s.with(true, func(db *pebble.DB) error {
		old, err := getRecord(db.Get, m.ID)
		if err != nil {
			return err
		}
		if m.Scope == "" {
			m.Scope = old.Scope
		}
		if err := m.normalize(); err != nil {
			return err
		}
		m.Created, m.Used, m.Updated = old.Created, old.Used, s.now().UTC()
		return replace(db, old, &m)
	})
	if err != nil {
		return Memory{}, err
	}
	return m, nil
}

// replace swaps old for new (nil: deletes old) in one synced batch.
func replace(db *pebble.DB, old Memory, new *Memory) error {
	st, err := readStats(db.Get)
	if err != nil {
		return err
	}
	b := db.NewBatch()
	defer b.Close()
	ed := newBlockEditor(db, st.LastID)
	if err := deleteIndexed(b, ed, &st, old); err != nil {
		return err
	}
	if new != nil {
		if err := putIndexed(b, ed, &st, *new); err != nil {
			return err
		}
	}
	if err := ed.write(b); err != nil {
		return err
	}
	if err := b.Set(statsKey, st.encode(), nil); err != nil {
		return err
	}
	return b.Commit(pebble.Sync)
}

// Forget deletes the memory with id and returns what it was.
func (s *Store) Forget(id uint64) (old Memory, err error) {
	err = s.with(true, func(db *pebble.DB) error {
		if old, err = getRecord(db.Get, id); err != nil {
			return err
		}
		return replace(db, old, nil)
	})
	return old, err
}

// MarkUsed sets the Used time of the memories with ids (unknown IDs are
// skipped): recall shows them, so recency favours what proved useful.
// Only records change; the index does not see Used.
func (s *Store) MarkUsed(ids ...uint64) error {
	return s.with(true, func(db *pebble.DB) error {
		b := db.NewBatch()
		defer b.Close()
		now := s.now().UTC()
		for _, id := range ids {
			m, err := getRecord(db.Get, id)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			m.Used = now
			rec, err := json.Marshal(m)
			if err != nil {
				return err
			}
			if err := b.Set(recordKey(id), rec, nil); err != nil {
				return err
			}
		}
		return b.Commit(pebble.NoSync)
	})
}

// List returns the memories, oldest first, keeping those of the given
// types (all when none are given).
func (s *Store) List(types ...Type) (out []Memory, err error) {
	err = s.with(false, func(db *pebble.DB) error {
		lo := []byte{prefixRecord}
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
		if err != nil {
			return err
		}
		for it.First(); it.Valid(); it.Next() {
			var m Memory
			if err := json.Unmarshal(it.Value(), &m); err != nil {
				it.Close()
				return fmt.Errorf("record %x: %w", it.Key(), err)
			}
			if wantType(m.Type, types) {
				out = append(out, m)
			}
		}
		return errors.Join(it.Error(), it.Close())
	})
	return out, err
}

func wantType(t Type, types []Type) bool {
	if len(types) == 0 {
		return true
	}
	for _, w := range types {
		if w == t {
			return true
		}
	}
	return false
}

// Count is the number of memories in the store.
func (s *Store) Count() (n int, err error) {
	err = s.with(false, func(db *pebble.DB) error {
		st, err := readStats(db.Get)
		n = int(st.Docs)
		return err
	})
	return n, err
}

// quietLogger keeps Pebble's informational chatter off the terminal;
// errors still surface through returned errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble fatal: "+format, args...))
}
