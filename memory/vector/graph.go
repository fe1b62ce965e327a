package vector

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/cespare/xxhash/v2"
	"github.com/cockroachdb/pebble/v2"
)

// graph is an index's HNSW graph in memory. Its keys are sequence
// numbers; live maps those of the current vectors to their IDs, and any
// other node is a tombstone.
type graph struct {
	g       *hnswGraph
	live    map[uint64]uint64
	changes int // since the last snapshot
}

func (gr *graph) tombstones() int { return gr.g.Len() - len(gr.live) }

func newHNSW(info Info) *hnswGraph {
	return newGraph(info.Dim, info.M, info.EfConstruction)
}

// snapshotMagic opens a snapshot file; an xxhash64 of everything before
// it closes the file.
const snapshotMagic = "parley-hnsw 1\n"

// loadGraph returns the graph of an index, loading it on first use.
// Precondition: d.mu is held.
func (d *DB) loadGraph(info Info) (*graph, error) {
	if gr, ok := d.graphs[info.Name]; ok {
		return gr, nil
	}
	gr := &graph{g: d.readSnapshot(info), live: map[uint64]uint64{}}
	lo := d.nameSpace(kindSeq, info.Name)
	it, err := d.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: upperBound(lo)})
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
	for _, seq := range missing {
		_, vec, _, err := d.record(info.Name, gr.live[seq], false)
		if err != nil {
			return nil, err
		}
		gr.g.add(seq, vec)
		gr.changes++
	}
	gr.maybeRebuild(info)
	d.graphs[info.Name] = gr
	return gr, nil
}

// maybeRebuild rebuilds the graph from its live nodes once tombstones
// pass a quarter of them (searches skip tombstones, so many of them
// cost recall and time).
func (gr *graph) maybeRebuild(info Info) {
	if gr.tombstones() <= len(gr.live)/4+64 {
		return
	}
	seqs := make([]uint64, 0, len(gr.live))
	for seq := range gr.live {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	g := newHNSW(info)
	for _, seq := range seqs {
		vec, _ := gr.g.lookup(seq)
		g.add(seq, vec)
	}
	gr.g = g
	gr.changes++
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
