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
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/internal/dirlock"
)

// ErrLocked is matched (errors.Is) by Open's error when another process
// has the store open.
var ErrLocked = errors.New("memory store is locked by another process")

// ErrNotFound is returned for an unknown memory ID.
var ErrNotFound = errors.New("memory not found")

// Store keeps memories and their lexical index in a Pebble database in its
// own directory. Safe for concurrent use; the caller must Close it.
type Store struct {
	db    *pebble.DB
	dir   string
	lock  *os.File
	scope Scope

	mu  sync.Mutex // serialises writers; readers use the database alone
	now func() time.Time
	vec vectors // see vectors.go
}

// stats are the corpus figures BM25 needs, plus the ID counter.
type stats struct {
	Docs, Tokens, LastID uint64
}

// Open opens or creates the store in dir. Memories added through it get
// scope unless they name their own.
func Open(dir string, scope Scope) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memory store %s: %w", dir, err)
	}
	lock, err := dirlock.Lock(dir)
	if held, ok := errors.AsType[*dirlock.HeldError](err); ok {
		return nil, fmt.Errorf("memory store %s: %w (pid %s)", dir, ErrLocked, held.PID)
	}
	if err != nil {
		return nil, fmt.Errorf("memory store: %w", err)
	}
	db, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{
		MemTableSize: 4 << 20,
		Logger:       quietLogger{},
	})
	if err != nil {
		dirlock.Unlock(lock)
		return nil, fmt.Errorf("memory store %s: %w", dir, err)
	}
	s := &Store{db: db, dir: dir, lock: lock, scope: scope, now: time.Now}
	if err := s.checkSchema(); err != nil {
		s.Close()
		return nil, fmt.Errorf("memory store %s: %w", dir, err)
	}
	return s, nil
}

func (s *Store) checkSchema() error {
	v, closer, err := s.db.Get(schemaKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return s.db.Set(schemaKey, binary.AppendUvarint(nil, schemaVersion), pebble.Sync)
	}
	if err != nil {
		return err
	}
	defer closer.Close()
	got, n := binary.Uvarint(v)
	if n <= 0 || got != schemaVersion {
		return fmt.Errorf("schema version %d, this parley reads version %d (use the parley that wrote it, or another --data-dir)", got, schemaVersion)
	}
	return nil
}

// Dir is the directory the store lives in.
func (s *Store) Dir() string { return s.dir }

// Scope is the scope the store gives new memories.
func (s *Store) Scope() Scope { return s.scope }

// Close closes the database and releases the lock.
func (s *Store) Close() error {
	var errs []error
	if s.db != nil {
		errs = append(errs, s.closeVectors(), s.db.Close())
		s.db = nil
	}
	errs = append(errs, dirlock.Unlock(s.lock))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close memory store %s: %w", s.dir, err)
	}
	return nil
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
func (s *Store) Get(id uint64) (Memory, error) {
	return getRecord(s.db.Get, id)
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
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := readStats(s.db.Get)
	if err != nil {
		return nil, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	b := s.db.NewBatch()
	defer b.Close()
	now := s.now().UTC()
	for i := range out {
		st.LastID++
		out[i].ID = st.LastID
		if out[i].Created.IsZero() {
			out[i].Created = now
		}
		if err := s.putIndexed(b, &st, out[i]); err != nil {
			return nil, err
		}
	}
	if err := b.Set(statsKey, st.encode(), nil); err != nil {
		return nil, err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return nil, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	return out, nil
}

// putIndexed writes m's record and postings to b and counts it in st.
func (s *Store) putIndexed(b *pebble.Batch, st *stats, m Memory) error {
	rec, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if err := b.Set(recordKey(m.ID), rec, nil); err != nil {
		return err
	}
	tf, dl := termCounts(m)
	for t, n := range tf {
		v := binary.AppendUvarint(binary.AppendUvarint(nil, n), dl)
		if err := b.Set(postingKey(t, m.ID), v, nil); err != nil {
			return err
		}
	}
	st.Docs++
	st.Tokens += dl
	return nil
}

// deleteIndexed removes m's record and postings in b and uncounts it.
func deleteIndexed(b *pebble.Batch, st *stats, m Memory) error {
	if err := b.Delete(recordKey(m.ID), nil); err != nil {
		return err
	}
	tf, dl := termCounts(m)
	for t := range tf {
		if err := b.Delete(postingKey(t, m.ID), nil); err != nil {
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
	s.mu.Lock()
	defer s.mu.Unlock()
	old, err := s.Get(m.ID)
	if err != nil {
		return Memory{}, err
	}
	if m.Scope == "" {
		m.Scope = old.Scope
	}
	if err := m.normalize(); err != nil {
		return Memory{}, err
	}
	m.Created, m.Used, m.Updated = old.Created, old.Used, s.now().UTC()
	return m, s.replace(old, &m)
}

// replace swaps old for new (nil: deletes old) in one synced batch.
// Precondition: caller holds mu.
func (s *Store) replace(old Memory, new *Memory) error {
	st, err := readStats(s.db.Get)
	if err != nil {
		return fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	b := s.db.NewBatch()
	defer b.Close()
	if err := deleteIndexed(b, &st, old); err != nil {
		return err
	}
	if new != nil {
		if err := s.putIndexed(b, &st, *new); err != nil {
			return err
		}
	}
	if err := b.Set(statsKey, st.encode(), nil); err != nil {
		return err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	return nil
}

// Forget deletes the memory with id and returns what it was.
func (s *Store) Forget(id uint64) (Memory, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, err := s.Get(id)
	if err != nil {
		return Memory{}, err
	}
	return old, s.replace(old, nil)
}

// MarkUsed sets the Used time of the memories with ids (unknown IDs are
// skipped): recall shows them, so recency favours what proved useful.
// Only records change; the index does not see Used.
func (s *Store) MarkUsed(ids ...uint64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	now := s.now().UTC()
	for _, id := range ids {
		m, err := s.Get(id)
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
}

// List returns the memories, oldest first, keeping those of the given
// types (all when none are given).
func (s *Store) List(types ...Type) ([]Memory, error) {
	lo := []byte{prefixRecord}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: upperBound(lo)})
	if err != nil {
		return nil, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	var out []Memory
	for it.First(); it.Valid(); it.Next() {
		var m Memory
		if err := json.Unmarshal(it.Value(), &m); err != nil {
			it.Close()
			return nil, fmt.Errorf("memory store %s: record %x: %w", s.dir, it.Key(), err)
		}
		if wantType(m.Type, types) {
			out = append(out, m)
		}
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	return out, nil
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
func (s *Store) Count() (int, error) {
	st, err := readStats(s.db.Get)
	if err != nil {
		return 0, fmt.Errorf("memory store %s: %w", s.dir, err)
	}
	return int(st.Docs), nil
}

// quietLogger keeps Pebble's informational chatter off the terminal;
// errors still surface through returned errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble fatal: "+format, args...))
}
