package vector

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/parleyhq/parley/internal/keyrange"
)

// Graph parameters: M is the links per node (twice that on the base
// level), EfConstruction the candidates an insert considers, EfSearch the
// least number a search keeps (more when k is larger); SetEfSearch
// changes an index's. They were chosen on random 384-d vectors, the
// hardest case (no clusters to follow), with BenchmarkGraphParams: on
// 100,000 of them M 16 (the original assistant's) reached recall@10 0.38
// at ef 500 and 0.77 at 2000, M 32 with EfConstruction 200 reaches 0.68,
// 0.87, 0.94, 0.97 and 0.99 at ef 500, 1000, 1500, 2000 and 3000, visiting
// 22%, 38%, 50%, 60% and 73% of the nodes; an insert costs about 4 times
// M 16's (150 per CPU-second at that size, off the write path: see
// builder.go). ef 2000 is the least that meets the 0.95 aimed at, and
// there a walk took 43 ms of CPU where comparing the query with every
// vector takes 26-28 ms (BenchmarkScan100k; ef 1000 took 30), so an index
// of at most EfSearch·2M vectors (128,000 at the defaults) is scanned,
// exactly, and a larger one walked (see Search).
const (
	DefaultM              = 32
	DefaultEfConstruction = 200
	DefaultEfSearch       = 2000
	// MaxDim bounds a vector's dimension (text-embedding-3-large has 3072).
	MaxDim = 8192
)

// SnapshotEvery is how many changes to an index trigger a graph snapshot
// (besides Close), at least; an index of more than four times as many
// vectors waits for a quarter of its size. A variable so tests can lower
// it.
var SnapshotEvery = 4096

// Info describes an index.
type Info struct {
	Name    string    `json:"name"`
	Dim     int       `json:"dim"`
	Count   int       `json:"count"`
	Created time.Time `json:"created"`
	// Model is the embedding model of the texts added to the index; text
	// embedded by another model is refused (its vectors are not
	// comparable). Empty until the first text is added.
	Model string `json:"model,omitempty"`
	// M, EfConstruction and EfSearch are the HNSW graph parameters.
	M              int    `json:"m"`
	EfConstruction int    `json:"ef_construction"`
	EfSearch       int    `json:"ef_search"`
	NextID         uint64 `json:"next_id"`
	NextSeq        uint64 `json:"next_seq"`
	// Format is the generation of the graph parameters (indexFormat).
	Format int `json:"format,omitempty"`
}

// indexFormat is the generation of the default graph parameters: 2 for
// the ones above (an index made before them has none and was M 16, ef
// 100 to build, 500 to search). An older index takes the current
// defaults when it is first used, and its graph is rebuilt from its
// records, its snapshot's parameters no longer matching.
const indexFormat = 2

// current returns the index's Info, first moving an index of an older
// format to the current defaults. Precondition: d.mu is held.
func (d *DB) current(name string) (Info, error) {
	info, err := d.info(name)
	if err != nil || info.Format >= indexFormat {
		return info, err
	}
	info.M, info.EfConstruction, info.Format = DefaultM, DefaultEfConstruction, indexFormat
	if info.EfSearch == 500 { // the old default, not the user's choice
		info.EfSearch = DefaultEfSearch
	}
	b := d.db.NewBatch()
	defer b.Close()
	if err := d.putInfo(b, info); err != nil {
		return Info{}, err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return Info{}, fmt.Errorf("vector index %s: %w", name, err)
	}
	delete(d.graphs, name) // the builder drops any batch of the old graph
	return info, nil
}

// DB is a set of named vector indices in a caller's Pebble database.
type DB struct {
	db     *pebble.DB
	prefix byte
	dir    string // graph snapshots

	mu       sync.Mutex
	graphs   map[string]*graph // loaded lazily; guarded by mu
	building bool              // the builder goroutine runs; guarded by mu
	closing  bool              // Close stops the builder; guarded by mu
	wg       sync.WaitGroup    // the builder
	hold     bool              // tests: the builder does not start; guarded by mu
}

// Open returns the indices kept under prefix in db, with graph snapshots
// in dir (created if needed).
func Open(db *pebble.DB, prefix byte, dir string) (*DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("vector store %s: %w", dir, err)
	}
	return &DB{db: db, prefix: prefix, dir: dir, graphs: map[string]*graph{}}, nil
}

// Close stops the builder after the batch in flight, then writes the
// snapshots of the graphs changed since their last one. It does not wait
// for the pending tails to be built (that could take minutes after a
// large import); the next Open reads them back from the records.
func (d *DB) Close() error {
	d.mu.Lock()
	d.closing = true
	d.mu.Unlock()
	d.wg.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closing = false
	var errs []error
	for name, g := range d.graphs {
		if g.changes > 0 {
			errs = append(errs, d.saveGraph(name, g))
		}
	}
	d.graphs = map[string]*graph{}
	return errors.Join(errs...)
}

// Create makes an empty index of vectors of dim dimensions.
func (d *DB) Create(name string, dim int) (Info, error) {
	if err := checkName(name); err != nil {
		return Info{}, err
	}
	if dim <= 0 || dim > MaxDim {
		return Info{}, invalidf("dimension %d: want 1 to %d", dim, MaxDim)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.info(name); err == nil {
		return Info{}, invalidf("index %q exists already", name)
	} else if !errors.Is(err, ErrNotFound) {
		return Info{}, err
	}
	info := Info{Name: name, Dim: dim, Created: time.Now().UTC(), M: DefaultM, EfConstruction: DefaultEfConstruction, EfSearch: DefaultEfSearch, NextID: 1, NextSeq: 1, Format: indexFormat}
	b := d.db.NewBatch()
	defer b.Close()
	if err := d.putInfo(b, info); err != nil {
		return Info{}, err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return Info{}, fmt.Errorf("vector index %s: %w", name, err)
	}
	return info, nil
}

// Delete removes an index, its vectors and its snapshot.
func (d *DB) Delete(name string) error {
	if err := checkName(name); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, err := d.info(name); err != nil {
		return err
	}
	b := d.db.NewBatch()
	defer b.Close()
	for _, kind := range []byte{kindVec, kindSeq} {
		lo := d.nameSpace(kind, name)
		if err := b.DeleteRange(lo, keyrange.PrefixEnd(lo), nil); err != nil {
			return err
		}
	}
	if err := b.Delete(d.infoKey(name), nil); err != nil {
		return err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("vector index %s: %w", name, err)
	}
	delete(d.graphs, name)
	if err := os.Remove(d.snapshotPath(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("vector index %s: %w", name, err)
	}
	return nil
}

// List returns every index, by name.
func (d *DB) List() ([]Info, error) {
	lo := []byte{d.prefix, kindInfo}
	it, err := d.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return nil, err
	}
	var out []Info
	for it.First(); it.Valid(); it.Next() {
		var info Info
		if err := json.Unmarshal(it.Value(), &info); err != nil {
			it.Close()
			return nil, fmt.Errorf("vector index %q: %w", it.Key()[2:], err)
		}
		out = append(out, info)
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Info) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// SetEfSearch sets how many candidates the index's searches keep (at
// least k): higher is slower and finds more of the true nearest.
func (d *DB) SetEfSearch(name string, ef int) error {
	if err := checkName(name); err != nil {
		return err
	}
	if ef < 1 || ef > 100000 {
		return invalidf("ef_search %d: want 1 to 100000", ef)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	info, err := d.info(name)
	if err != nil {
		return err
	}
	info.EfSearch = ef
	b := d.db.NewBatch()
	defer b.Close()
	if err := d.putInfo(b, info); err != nil {
		return err
	}
	return b.Commit(pebble.Sync)
}

// Info describes the index name.
func (d *DB) Info(name string) (Info, error) {
	if err := checkName(name); err != nil {
		return Info{}, err
	}
	return d.info(name)
}

func (d *DB) info(name string) (Info, error) {
	v, closer, err := d.db.Get(d.infoKey(name))
	if errors.Is(err, pebble.ErrNotFound) {
		return Info{}, notFoundf("vector index %q", name)
	}
	if err != nil {
		return Info{}, fmt.Errorf("vector index %s: %w", name, err)
	}
	defer closer.Close()
	var info Info
	if err := json.Unmarshal(v, &info); err != nil {
		return Info{}, fmt.Errorf("vector index %s: %w", name, err)
	}
	return info, nil
}

func (d *DB) putInfo(b *pebble.Batch, info Info) error {
	js, err := json.Marshal(info)
	if err != nil {
		return err
	}
	return b.Set(d.infoKey(info.Name), js, nil)
}

func (d *DB) snapshotPath(name string) string {
	return filepath.Join(d.dir, name+".hnsw")
}
