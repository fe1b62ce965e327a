package index

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/parleyhq/parley/index/extract"
	"github.com/parleyhq/parley/internal/dirlock"
	"github.com/parleyhq/parley/internal/keyrange"
)

// ErrLocked is matched (errors.Is) by the error Open returns when another
// process holds the store.
var ErrLocked = errors.New("index store is locked by another process")

// LockedError names the store and the process holding it.
type LockedError struct {
	Dir string
	PID string // as written by the holder; "unknown" if unreadable
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("index store %s is locked by another process (pid %s)", e.Dir, e.PID)
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// Store is the persistent index of one workspace root, kept in Pebble.
//
// Readers (queries) are safe for concurrent use. Writes go through Index or
// a Writer; only one of them may be active at a time, except that
// PutContent and RemovePath may run alongside an Index run whose
// Options.Skip covers their paths. The caller must Close the store.
//
// The store runs without a write-ahead log: everything in it can be rebuilt
// from the workspace, and a crash loses at most the files written since the
// last flush, never consistency, because each file's records are committed in
// one batch and the change check (size, mtime, hash) re-indexes what is
// missing.
type Store struct {
	db   *pebble.DB
	opts *pebble.Options // with defaults filled in; for sstable writers
	dir  string
	lock *os.File
	// putMu serialises PutContent and RemovePath.
	putMu sync.Mutex

	mu     sync.RWMutex
	files  map[string]*FileHeader // by path
	byID   map[uint32]*FileHeader
	nextID uint32
	// names is the resident symbol-name table for SearchSymbols.
	names nameTable
	// writeGen counts the files published (WriteGen); pathGen the paths
	// added or removed (PathGen).
	writeGen, pathGen atomic.Uint64
	// describe holds the index-time describers (Config.Describers).
	describe map[string]extract.Annotator
	// Rebuilt is set when Open found an incompatible or unreadable store and
	// started a fresh one.
	Rebuilt string
	// attached holds what other packages keep with the store (Attach).
	attachMu sync.Mutex
	attached map[any]any
}

// Config is what a store is opened with besides its directory.
type Config struct {
	// Describers are the index-time describers by tree-sitter language
	// name: what writes the resolution descriptors of the languages
	// resolved from syntax (index/nav.Describers lists them). A store
	// indexed without them keeps no descriptors for those languages,
	// and their resolvers then answer little: whoever indexes for
	// navigation passes them (index/nav.Open does).
	Describers map[string]extract.Annotator
}

// Open opens or creates the store in dir with no describers
// (OpenConfig): a store for navigation is opened with nav.Open. A store
// indexed with another set of describers is rebuilt.
func Open(dir string) (*Store, error) { return OpenConfig(dir, Config{}) }

// OpenConfig opens or creates the store in dir. A store written with
// another schema version is deleted and recreated (Store.Rebuilt says
// why).
func OpenConfig(dir string, cfg Config) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("index store %s: %w", dir, err)
	}
	lock, err := dirlock.Lock(dir)
	if held, ok := errors.AsType[*dirlock.HeldError](err); ok {
		return nil, &LockedError{Dir: dir, PID: held.PID}
	}
	if err != nil {
		return nil, fmt.Errorf("index store: %w", err)
	}
	s := &Store{dir: dir, lock: lock, describe: cfg.Describers}
	dbDir := filepath.Join(dir, "pebble")
	reason, err := s.open(dbDir)
	if err == nil && reason != "" {
		// Incompatible: close, wipe and start again.
		s.db.Close()
		if err = os.RemoveAll(dbDir); err == nil {
			s.Rebuilt = reason
			if reason, err = s.open(dbDir); err == nil && reason != "" {
				s.db.Close()
				err = fmt.Errorf("fresh store unusable: %s", reason)
			}
		}
	}
	if err != nil {
		dirlock.Unlock(lock)
		return nil, fmt.Errorf("index store %s: %w", dir, err)
	}
	if err := s.load(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Compaction policy: automatic compactions are off, so a short-lived
// process (every CLI query) never starts one and then waits for it in
// Close. Instead, after writing, the indexer compacts the whole store when
// L0 read amplification passes maxReadAmp (see maybeCompact). A cold index of
// GOROOT/src ends with a handful of L0 sublevels, which reads handle well.
const maxReadAmp = 12

func pebbleOptions() *pebble.Options {
	return &pebble.Options{
		DisableWAL:                  true,
		DisableAutomaticCompactions: true,
		// With compactions manual, the default stop threshold (12 L0
		// sublevels) would stall writes forever instead of slowing them.
		L0StopWritesThreshold: 1 << 20,
		MemTableSize:          256 << 20,
		CacheSize:             64 << 20,
		Logger:                quietLogger{},
	}
}

// maybeCompact merges the store into one sorted run when reads would have
// to consult too many overlapping tables.
func (s *Store) maybeCompact(ctx context.Context) error {
	if s.db.Metrics().ReadAmp() <= maxReadAmp {
		return nil
	}
	if err := s.db.Compact(ctx, []byte{0}, []byte{0xff, 0xff}, true); err != nil {
		return fmt.Errorf("compact index %s: %w", s.dir, err)
	}
	return nil
}

// open opens the Pebble DB and checks the schema. A non-empty reason means
// the store must be rebuilt.
func (s *Store) open(dbDir string) (reason string, err error) {
	s.opts = pebbleOptions()
	s.opts.EnsureDefaults()
	db, err := pebble.Open(dbDir, s.opts)
	if err != nil {
		return "", err
	}
	s.db = db
	v, closer, err := db.Get(schemaKey)
	switch {
	case errors.Is(err, pebble.ErrNotFound):
		empty, err := s.isEmpty()
		if err != nil {
			return "", err
		}
		if !empty {
			return "store has no schema version", nil
		}
		var e encoder
		e.uvarint(schemaVersion)
		e.str(s.describerSet())
		if err := db.Set(schemaKey, e.b, pebble.NoSync); err != nil {
			return "", err
		}
		return "", db.Flush()
	case err != nil:
		return "", err
	}
	defer closer.Close()
	d := decoder{b: v}
	if got := d.uvarint(); d.bad || got != schemaVersion {
		return fmt.Sprintf("schema version %d, want %d", got, schemaVersion), nil
	}
	// A record without the describer set is from a build that always ran
	// every describer (they were registered, not passed).
	if len(d.b) > 0 {
		if got, want := d.str(), s.describerSet(); d.bad || got != want {
			return fmt.Sprintf("indexed with describers %q, want %q", got, want), nil
		}
	}
	return "", nil
}

// describerSet names the store's describers, sorted: the schema record
// keeps it, so that a store indexed without the descriptors of a
// language (index.Open) is rebuilt, not answered from, by a build that
// writes them (nav.Open), and the reverse.
func (s *Store) describerSet() string {
	return strings.Join(slices.Sorted(maps.Keys(s.describe)), ",")
}

func (s *Store) isEmpty() (bool, error) {
	it, err := s.db.NewIter(nil)
	if err != nil {
		return false, err
	}
	empty := !it.First()
	return empty, it.Close()
}

// load reads every file header into memory. Headers are small (tens of
// bytes), and keeping them resident makes change checks and ID lookups free.
func (s *Store) load() error {
	s.files = map[string]*FileHeader{}
	s.byID = map[uint32]*FileHeader{}
	s.nextID = 1
	err := s.scan([]byte{prefixPath}, func(k, v []byte) error {
		h, err := decodeHeader(string(k[1:]), v)
		if err != nil {
			return err
		}
		s.files[h.Path] = &h
		s.byID[h.ID] = &h
		s.nextID = max(s.nextID, h.ID+1)
		return nil
	})
	if err != nil {
		return fmt.Errorf("load index %s: %w", s.dir, err)
	}
	return nil
}

// scan calls fn for every key with the given prefix, in key order. The
// slices passed to fn are only valid during the call.
func (s *Store) scan(prefix []byte, fn func(k, v []byte) error) error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: keyrange.PrefixEnd(prefix)})
	if err != nil {
		return err
	}
	for valid := it.First(); valid; valid = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			it.Close()
			return err
		}
		if err := fn(it.Key(), v); err != nil {
			it.Close()
			return err
		}
	}
	return errors.Join(it.Error(), it.Close())
}

// get returns a copy of the value at key, or nil when absent.
func (s *Store) get(key []byte) ([]byte, error) {
	v, closer, err := s.db.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(v)
	return out, closer.Close()
}

// WriteGen counts the files written or removed since the store was
// opened: a cache of what queries read may keep its entries while it is
// unchanged. Safe for concurrent use.
func (s *Store) WriteGen() uint64 { return s.writeGen.Load() }

// PathGen counts the paths added to or removed from the store since it was
// opened: a cache of which files there are (not of what they hold) may
// keep its entries while it is unchanged, across the buffer writes of
// every keystroke, which move WriteGen. Safe for concurrent use.
func (s *Store) PathGen() uint64 { return s.pathGen.Load() }

// Attach returns the value kept with the store under key, made by mk on
// the first call: the resolvers' caches (index/syntax) live as long as the
// store this way, without the store knowing their types. key must be
// comparable, and is best an unexported type of the package that owns
// the value. Safe for concurrent use.
func (s *Store) Attach(key any, mk func() any) any {
	s.attachMu.Lock()
	defer s.attachMu.Unlock()
	v, ok := s.attached[key]
	if !ok {
		if s.attached == nil {
			s.attached = map[any]any{}
		}
		v = mk()
		s.attached[key] = v
	}
	return v
}

// Dir is the directory the store lives in.
func (s *Store) Dir() string { return s.dir }

// closeWait bounds how long Close waits for the final memtable flush. A
// flush that cannot write (the data directory deleted under a running
// server, a full disk) is retried by Pebble without end, and Flush and
// Close both wait for it: the process never exited and spun a core. The
// compaction that may follow a flush is not bounded: on a large store it
// can rightly take longer, and it does not retry.
var closeWait = 15 * time.Second

// Close flushes the memtable (there is no WAL), compacts if reads have
// become amplified, and releases the lock. When the flush does not finish
// within closeWait, Close gives up on the store, says so in its error and
// still releases the lock: the unflushed writes are lost (the next run
// re-indexes what they held), and Pebble's goroutines stay until the
// process exits, which is what a caller closing its store is about to do.
func (s *Store) Close() error {
	var errs []error
	if s.db != nil {
		flushed := make(chan error, 1)
		go func(db *pebble.DB) { flushed <- db.Flush() }(s.db)
		select {
		case err := <-flushed:
			if err == nil {
				err = s.maybeCompact(context.Background())
			}
			errs = append(errs, err, s.db.Close())
			s.db = nil
		case <-time.After(closeWait):
			// s.db stays open: Pebble's flush goroutines still use it.
			errs = append(errs, fmt.Errorf("flush did not finish in %s (is the data directory gone or the disk full?); abandoned", closeWait))
		}
	}
	errs = append(errs, dirlock.Unlock(s.lock))
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close index store %s: %w", s.dir, err)
	}
	return nil
}

// Header returns the header of the file at path.
func (s *Store) Header(path string) (FileHeader, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	h, ok := s.files[path]
	if !ok {
		return FileHeader{}, false
	}
	return *h, true
}

// Files returns every file header sorted by path.
func (s *Store) Files() []FileHeader {
	s.mu.RLock()
	out := make([]FileHeader, 0, len(s.files))
	for _, h := range s.files {
		out = append(out, *h)
	}
	s.mu.RUnlock()
	slices.SortFunc(out, func(a, b FileHeader) int { return cmp.Compare(a.Path, b.Path) })
	return out
}

func (s *Store) pathOf(id uint32) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	h, ok := s.byID[id]
	if !ok {
		return "", false
	}
	return h.Path, true
}

// Detail returns the cold record of a file.
func (s *Store) Detail(path string) (FileDetail, error) {
	h, ok := s.Header(path)
	if !ok {
		return FileDetail{}, fmt.Errorf("%s: %w", path, ErrNotIndexed)
	}
	v, err := s.get(idKey(prefixDetail, h.ID))
	if err != nil || v == nil {
		return FileDetail{Path: path}, err
	}
	return decodeDetail(v)
}

// ErrNotIndexed is returned for a path the index does not know.
var ErrNotIndexed = errors.New("file is not in the index")

// quietLogger keeps Pebble's informational chatter off stdout and stderr;
// errors still surface through returned errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("pebble fatal: "+format, args...))
}
