package index

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/parleyhq/parley/index/extract"
)

// Bulk loading. Inserting a cold index of GOROOT/src key by key into the
// memtable cost a quarter of the run (random skiplist inserts, then a flush
// that writes it all again). Files that are new to the store have no old
// records to delete, so their records are instead gathered in memory,
// sorted, written as an sstable and ingested: every key is written once.
// Chunks are ingested as they fill, so a killed run keeps what was ingested.

// bulkChunkBytes is how much record data a chunk gathers before it is
// ingested. A variable so tests can force many small chunks.
var bulkChunkBytes = 32 << 20

// recordSink receives a file's records; *pebble.Batch and *fileRecords
// implement it.
type recordSink interface {
	Set(key, value []byte, _ *pebble.WriteOptions) error
}

// fileRecords holds one file's records in a single buffer. Set copies.
type fileRecords struct {
	buf  []byte
	ents []kv
}

// kv locates a key and value in a buffer.
type kv struct{ koff, klen, voff, vlen uint32 }

// newFileRecords sizes the buffers from the extraction result; growing
// them by doubling was a measurable share of cold indexing.
func newFileRecords(r *extract.Result) *fileRecords {
	keys, size := 4, 512
	if r != nil {
		keys += len(r.Symbols) + len(r.Refs)/4
		size += len(r.Symbols)*96 + len(r.Refs)*12
	}
	return &fileRecords{buf: make([]byte, 0, size), ents: make([]kv, 0, keys)}
}

func (f *fileRecords) Set(key, value []byte, _ *pebble.WriteOptions) error {
	e := kv{koff: uint32(len(f.buf)), klen: uint32(len(key))}
	f.buf = append(f.buf, key...)
	e.voff, e.vlen = uint32(len(f.buf)), uint32(len(value))
	f.buf = append(f.buf, value...)
	f.ents = append(f.ents, e)
	return nil
}

// chunk gathers the records of many files plus the headers to publish once
// they are ingested. It keeps each file's buffer rather than copying it.
// Its entries are built only when it is sorted, at their exact count:
// appending them file by file reallocated and copied the growing array
// about twice over. Each entry carries its key's first eight bytes so that
// sorting mostly compares integers.
type chunk struct {
	files   []*fileRecords
	ents    []chunkEnt
	size    int
	headers []*FileHeader
}

type chunkEnt struct {
	prefix uint64
	file   uint32
	kv
}

func (c *chunk) add(f *fileRecords, h *FileHeader) {
	c.files = append(c.files, f)
	c.size += len(f.buf)
	c.headers = append(c.headers, h)
}

// entries fills c.ents with every record of the chunk, in no order.
func (c *chunk) entries() {
	n := 0
	for _, f := range c.files {
		n += len(f.ents)
	}
	c.ents = make([]chunkEnt, 0, n)
	for i, f := range c.files {
		for _, e := range f.ents {
			c.ents = append(c.ents, chunkEnt{prefix: keyPrefix(f.buf[e.koff : e.koff+e.klen]), file: uint32(i), kv: e})
		}
	}
}

func keyPrefix(k []byte) uint64 { return keyWord(k, 0) }

// keyWord is the eight bytes of k from off, zero-padded, as an integer:
// keys whose words differ are in the order of their words; keys whose
// words are equal may still differ (a shorter key or a zero byte), so ties
// are compared whole.
func keyWord(k []byte, off int) uint64 {
	var b [8]byte
	if off < len(k) {
		copy(b[:], k[off:])
	}
	return binary.BigEndian.Uint64(b[:])
}

func (c *chunk) key(e chunkEnt) []byte {
	return c.files[e.file].buf[e.koff : e.koff+e.klen]
}

func (c *chunk) value(e chunkEnt) []byte {
	return c.files[e.file].buf[e.voff : e.voff+e.vlen]
}

// parts orders the entries by their key prefixes with an LSD radix sort (a
// quarter of the cost of a comparison sort over a million entries) and
// cuts them into at most n parts (see split). Each part is in key order
// once sortRuns has comparison-sorted its runs of equal prefixes.
func (c *chunk) parts(n int) [][]chunkEnt {
	c.entries()
	c.ents = radixSortByPrefix(c.ents, make([]chunkEnt, len(c.ents)), 16)
	return split(c.ents, n)
}

// sortRuns puts each run of equal prefixes in ents in key order. A run is
// mostly one name in many files, or names sharing their first seven bytes,
// and comparing such keys from the front scans the shared part every time
// (most of the cost of a bulk load's sorting). So each run is first
// ordered by its keys' next eight bytes as integers (radix-sorted when
// longer than deepRun), and only keys equal in all sixteen are compared.
// The entries' prefixes are restored afterwards.
func (c *chunk) sortRuns(ents []chunkEnt) {
	var tmp []chunkEnt
	for i := 0; i < len(ents); {
		j := i + 1
		for j < len(ents) && ents[j].prefix == ents[i].prefix {
			j++
		}
		if run := ents[i:j]; len(run) > 1 {
			prefix := run[0].prefix
			for k := range run {
				run[k].prefix = keyWord(c.key(run[k]), 8)
			}
			if len(run) > deepRun {
				tmp = resize(tmp, len(run))
				if sorted := radixSortByPrefix(run, tmp, 8); &sorted[0] != &run[0] {
					copy(run, sorted)
				}
			} else {
				slices.SortFunc(run, func(a, b chunkEnt) int { return cmp.Compare(a.prefix, b.prefix) })
			}
			c.compareRuns(run)
			for k := range run {
				run[k].prefix = prefix
			}
		}
		i = j
	}
}

// deepRun is the run length above which sortRuns radix-sorts: a radix
// pass has the fixed cost of its 256 counters.
const deepRun = 256

// compareRuns comparison-sorts each run of equal prefixes in ents by the
// whole key.
func (c *chunk) compareRuns(ents []chunkEnt) {
	for i := 0; i < len(ents); {
		j := i + 1
		for j < len(ents) && ents[j].prefix == ents[i].prefix {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(ents[i:j], func(a, b chunkEnt) int { return bytes.Compare(c.key(a), c.key(b)) })
		}
		i = j
	}
}

// split cuts entries sorted by prefix into at most n parts of about equal
// size, each cut between two different prefixes, so the parts cover
// disjoint key ranges once their runs are sorted.
func split(ents []chunkEnt, n int) [][]chunkEnt {
	var parts [][]chunkEnt
	lo := 0
	for i := 1; i < n && lo < len(ents); i++ {
		cut := max(lo+1, len(ents)*i/n)
		for cut < len(ents) && ents[cut].prefix == ents[cut-1].prefix {
			cut++
		}
		parts = append(parts, ents[lo:cut])
		lo = cut
	}
	if lo < len(ents) {
		parts = append(parts, ents[lo:])
	}
	return parts
}

// radixSortByPrefix sorts ents by prefix, stably, using tmp (of the same
// length) as scratch, and returns whichever slice holds the result. It
// takes the prefixes digit bits at a time (8 or 16; bits must divide 64);
// digit positions where every prefix agrees are skipped. Sixteen-bit
// digits halve the passes over a chunk's million entries (a third less
// time than bytes), for 65,536 counters per pass that short runs would not
// repay.
func radixSortByPrefix(ents, tmp []chunkEnt, bits uint) []chunkEnt {
	if len(ents) < 2 {
		return ents
	}
	mask := uint64(1)<<bits - 1
	counts := make([]int, 1<<bits)
	for shift := uint(0); shift < 64; shift += bits {
		clear(counts)
		for i := range ents {
			counts[ents[i].prefix>>shift&mask]++
		}
		if counts[ents[0].prefix>>shift&mask] == len(ents) {
			continue // all equal in this digit
		}
		pos := 0
		for d := range counts {
			pos, counts[d] = pos+counts[d], pos
		}
		for i := range ents {
			d := ents[i].prefix >> shift & mask
			tmp[counts[d]] = ents[i]
			counts[d]++
		}
		ents, tmp = tmp, ents
	}
	return ents
}

// bulkLoader ingests chunks on its own goroutine so extraction keeps going
// while a chunk is sorted and written. At most one chunk waits in the queue.
type bulkLoader struct {
	s      *Store
	cur    *chunk
	queue  chan *chunk
	done   chan struct{}
	err    atomic.Pointer[error]
	serial int
}

func (s *Store) newBulkLoader() *bulkLoader {
	l := &bulkLoader{s: s, cur: &chunk{}, queue: make(chan *chunk, 1), done: make(chan struct{})}
	go l.run()
	return l
}

// add queues a file's records; the header becomes visible to readers once
// its chunk is ingested.
func (l *bulkLoader) add(f *fileRecords, h *FileHeader) error {
	if p := l.err.Load(); p != nil {
		return *p
	}
	l.cur.add(f, h)
	if l.cur.size >= bulkChunkBytes {
		l.queue <- l.cur
		l.cur = &chunk{}
	}
	return nil
}

// finish ingests the last chunk and waits for all of them.
func (l *bulkLoader) finish() error {
	if len(l.cur.files) > 0 {
		l.queue <- l.cur
	}
	close(l.queue)
	<-l.done
	if p := l.err.Load(); p != nil {
		return *p
	}
	return nil
}

func (l *bulkLoader) run() {
	defer close(l.done)
	for c := range l.queue {
		if l.err.Load() != nil {
			continue // drain
		}
		if err := l.ingest(c); err != nil {
			l.err.Store(&err)
		}
	}
}

// ingest sorts a chunk, writes it as sstables next to the store and hands
// them to Pebble, which moves them into the LSM. The entries are cut into
// one key range per core, each finished and written on its own goroutine:
// the last chunk of a run was otherwise sorted and written on one core
// while the others idled.
func (l *bulkLoader) ingest(c *chunk) error {
	parts := c.parts(runtime.GOMAXPROCS(0))
	l.serial++
	paths := make([]string, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		paths[i] = filepath.Join(l.s.dir, fmt.Sprintf("bulk-%d-%d-%d.sst", os.Getpid(), l.serial, i))
		wg.Go(func() {
			c.sortRuns(part)
			errs[i] = l.writeTable(paths[i], c, part)
		})
	}
	wg.Wait()
	// Pebble links or copies the tables; ours are no longer needed.
	defer func() {
		for _, p := range paths {
			os.Remove(p)
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("bulk load: %w", err)
	}
	if err := l.s.db.Ingest(context.Background(), paths); err != nil {
		return fmt.Errorf("bulk load: ingest: %w", err)
	}
	l.s.mu.Lock()
	for _, h := range c.headers {
		l.s.publishLocked(h.Path, h)
	}
	l.s.mu.Unlock()
	return nil
}

// writeTable writes ents, sorted, as one sstable. Keys are unique: every
// key of a new file carries its ID, and a file's names, symbol indexes and
// per-file records are distinct. The writer checks that each key is above
// the previous one, so a duplicate would fail the load rather than be
// dropped; checking for one here as well was 2.5% of a cold index.
func (l *bulkLoader) writeTable(path string, c *chunk, ents []chunkEnt) error {
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return err
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), l.s.opts.MakeWriterOptions(0, l.s.db.TableFormat()))
	var touched byte
	for i, e := range ents {
		if i%touchBatch == 0 {
			touched ^= c.touch(ents[i:min(len(ents), i+touchBatch)])
		}
		if err := w.Set(c.key(e), c.value(e)); err != nil {
			w.Close()
			return err
		}
	}
	runtime.KeepAlive(touched)
	return w.Close()
}

// touchBatch is how many records touch reads before the writer gets them.
const touchBatch = 32

// touch reads the first key byte and the last value byte of each record in
// ents and returns them folded, so that the reads are not dropped. Sorted,
// the records point all over a chunk of 32 MB, and the writer waited for a
// cache miss on each key (its order check, a byte compare of 17 bytes,
// showed as 4% of a cold index) and often on its value. Reading a batch
// of records' bytes in a loop of independent loads first has the CPU
// fetch them in parallel: writing a chunk takes half the time
// (BenchmarkBulkWriteTable; touching the batch after it, or one record
// some way ahead, was no faster).
func (c *chunk) touch(ents []chunkEnt) byte {
	var b byte
	for _, e := range ents {
		buf := c.files[e.file].buf
		b ^= buf[e.koff]
		if e.vlen > 0 {
			b ^= buf[e.voff+e.vlen-1]
		}
	}
	return b
}
