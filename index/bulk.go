package index

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Bulk loading. Inserting a cold index of GOROOT/src key by key into the
// memtable cost a quarter of the run (random skiplist inserts, then a flush
// that writes it all again). Files that are new to the store have no old
// records to delete, so their records are instead gathered in memory,
// sorted, written as an sstable and ingested: every key is written once.
// Chunks are ingested as they fill, so a killed run keeps what was ingested.

// bulkChunkBytes is how much record data a chunk gathers before it is
// ingested. A variable so tests can force many small chunks.
var bulkChunkBytes = 64 << 20

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

func (f *fileRecords) Set(key, value []byte, _ *pebble.WriteOptions) error {
	if f.buf == nil {
		f.buf = make([]byte, 0, 8<<10)
	}
	e := kv{koff: uint32(len(f.buf)), klen: uint32(len(key))}
	f.buf = append(f.buf, key...)
	e.voff, e.vlen = uint32(len(f.buf)), uint32(len(value))
	f.buf = append(f.buf, value...)
	f.ents = append(f.ents, e)
	return nil
}

// chunk gathers the records of many files plus the headers to publish once
// they are ingested.
type chunk struct {
	buf     []byte
	ents    []kv
	headers []*FileHeader
}

func (c *chunk) add(f *fileRecords, h *FileHeader) {
	base := uint32(len(c.buf))
	c.buf = append(c.buf, f.buf...)
	for _, e := range f.ents {
		e.koff += base
		e.voff += base
		c.ents = append(c.ents, e)
	}
	c.headers = append(c.headers, h)
}

func (c *chunk) key(e kv) []byte { return c.buf[e.koff : e.koff+e.klen] }

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
	if len(l.cur.buf) >= bulkChunkBytes {
		l.queue <- l.cur
		l.cur = &chunk{}
	}
	return nil
}

// finish ingests the last chunk and waits for all of them.
func (l *bulkLoader) finish() error {
	if len(l.cur.ents) > 0 {
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

// ingest sorts a chunk, writes it as an sstable next to the store and hands
// the file to Pebble, which moves it into the LSM.
func (l *bulkLoader) ingest(c *chunk) error {
	slices.SortFunc(c.ents, func(a, b kv) int { return bytes.Compare(c.key(a), c.key(b)) })
	l.serial++
	path := filepath.Join(l.s.dir, fmt.Sprintf("bulk-%d-%d.sst", os.Getpid(), l.serial))
	if err := l.writeTable(path, c); err != nil {
		os.Remove(path)
		return fmt.Errorf("bulk load: %w", err)
	}
	err := l.s.db.Ingest(context.Background(), []string{path})
	os.Remove(path) // Pebble links or copies it; ours is no longer needed
	if err != nil {
		return fmt.Errorf("bulk load: ingest: %w", err)
	}
	l.s.mu.Lock()
	for _, h := range c.headers {
		l.s.publishLocked(h.Path, h)
	}
	l.s.mu.Unlock()
	return nil
}

func (l *bulkLoader) writeTable(path string, c *chunk) error {
	f, err := vfs.Default.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return err
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), l.s.opts.MakeWriterOptions(0, l.s.db.TableFormat()))
	for i, e := range c.ents {
		k := c.key(e)
		if i > 0 && bytes.Equal(k, c.key(c.ents[i-1])) {
			continue // cannot happen for new files; sstables forbid it
		}
		if err := w.Set(k, c.buf[e.voff:e.voff+e.vlen]); err != nil {
			w.Close()
			return err
		}
	}
	return w.Close()
}
