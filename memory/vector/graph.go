package vector

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/cespare/xxhash/v2"
	"github.com/cockroachdb/pebble/v2"
	"github.com/parleyhq/parley/internal/keyrange"
)

// graph is an index's HNSW graph in memory and its pending tail (see
// builder.go). Its keys are sequence numbers; live maps those of the
// current vectors, in the graph or the tail, to their IDs. A graph node
// whose key is not live is a tombstone, skipped by searches.
type graph struct {
	g       *hnswGraph
	live    map[uint64]uint64
	pending []pendingVec // stored, not yet in g, oldest first
	dead    int          // tombstones in g
	changes int          // nodes added since the last snapshot
}

func newHNSW(info Info) *hnswGraph {
	return newGraph(info.Dim, info.M, info.EfConstruction)
}

// snapshotMagic opens a snapshot file; an xxhash64 of everything before
// it closes the file.
const snapshotMagic = "parley-hnsw 1\n"

// loadGraph returns the graph of an index, loading it on first use: the
// snapshot's graph, with the live vectors it lacks as the pending tail.
// Precondition: d.mu is held.
func (d *DB) loadGraph(info Info) (*graph, error) {
	if gr, ok := d.graphs[info.Name]; ok {
		return gr, nil
	}
	gr := &graph{g: d.readSnapshot(info), live: map[uint64]uint64{}}
	lo := d.nameSpace(kindSeq, info.Name)
	it, err := d.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return nil, err
	}
	var missing []uint64
	for it.First(); it.Valid(); it.Next() {
		if len(it.Key()) != len(lo)+8 || len(it.Value()) != 8 {
			it.Close()
			return nil, fmt.Errorf("vector index %s: corrupt sequence record %x", info.Name, it.Key())
		}
		seq := binary.BigEndian.Uint64(it.Key()[len(lo):])
		gr.live[seq] = binary.BigEndian.Uint64(it.Value())
		if _, ok := gr.g.lookup(seq); !ok {
			missing = append(missing, seq)
		}
	}
	if err := errors.Join(it.Error(), it.Close()); err != nil {
		return nil, fmt.Errorf("vector index %s: %w", info.Name, err)
	}
	gr.dead = gr.g.Len() - (len(gr.live) - len(missing))
	for _, seq := range missing {
		_, vec, _, err := d.record(info.Name, gr.live[seq], false)
		if err != nil {
			return nil, err
		}
		gr.pending = append(gr.pending, pendingVec{seq, vec})
	}
	gr.maybeRebuild()
	d.graphs[info.Name] = gr
	d.kick()
	return gr, nil
}

// forget makes seq's vector no longer live (a no-op for a seq that
// never was, such as a new vector's old one). Precondition: d.mu is held.
func (gr *graph) forget(seq uint64) {
	if _, ok := gr.live[seq]; !ok {
		return
	}
	delete(gr.live, seq)
	if _, ok := gr.g.byKey[seq]; ok {
		gr.dead++
	}
}

// maybeRebuild starts the graph afresh once tombstones pass a quarter of
// the live vectors (searches skip tombstones, so many of them cost recall
// and time): its live nodes go back to the head of the pending tail, for
// the builder to insert again. It reports whether it did.
// Precondition: d.mu is held, and the caller kicks the builder.
func (gr *graph) maybeRebuild() bool {
	if gr.dead <= len(gr.live)/4+64 {
		return false
	}
	old := gr.g
	var again []pendingVec
	for n, key := range old.keys {
		if _, ok := gr.live[key]; ok {
			again = append(again, pendingVec{key, old.vec(int32(n))})
		}
	}
	gr.g = newGraph(old.dim, old.m, old.efConstruction)
	gr.pending = append(again, gr.pending...)
	gr.dead = 0
	gr.changes++
	return true
}

// readSnapshot returns the graph of the index's snapshot, or an empty
// graph when the snapshot is missing, damaged or of other parameters (the
// graph is then rebuilt from the records, which is slower, never wrong).
func (d *DB) readSnapshot(info Info) *hnswGraph {
	data, err := os.ReadFile(d.snapshotPath(info.Name))
	if err != nil || len(data) < len(snapshotMagic)+8 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return newHNSW(info)
	}
	body, sum := data[:len(data)-8], binary.BigEndian.Uint64(data[len(data)-8:])
	if xxhash.Sum64(body) != sum {
		return newHNSW(info)
	}
	g, err := decodeGraph(bufio.NewReader(bytes.NewReader(body[len(snapshotMagic):])), int(min(info.NextSeq, 1<<30)))
	if err != nil || g.dim != info.Dim || g.m != info.M || g.efConstruction != info.EfConstruction {
		return newHNSW(info)
	}
	return g
}

// saveGraph writes the snapshot of gr atomically: a temporary file,
// synced, renamed over the old one, and the directory synced.
// Precondition: d.mu is held.
func (d *DB) saveGraph(name string, gr *graph) error {
	f, err := os.CreateTemp(d.dir, name+".tmp*")
	if err != nil {
		return fmt.Errorf("vector index %s: snapshot: %w", name, err)
	}
	defer os.Remove(f.Name()) // after a successful rename, a no-op
	h := xxhash.New()
	w := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	_, err = w.WriteString(snapshotMagic)
	if err == nil {
		err = gr.g.encode(w)
	}
	if err == nil {
		_, err = f.Write(binary.BigEndian.AppendUint64(nil, h.Sum64()))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), d.snapshotPath(name))
	}
	if err == nil {
		err = syncDir(d.dir)
	}
	if err != nil {
		return fmt.Errorf("vector index %s: snapshot: %w", name, err)
	}
	gr.changes = 0
	return nil
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
