package vector

import (
	"runtime"
	"slices"
)

// Graph building runs behind the writes. A write is done when its
// records are (one synced batch); its vectors join the index's pending
// tail, which searches scan exactly, and a builder goroutine moves them
// from the tail into the graph in batches. So a write costs a record's
// write, not a graph insert, and a search is exact over what the graph
// does not cover yet. The builder runs while any tail is non-empty (one
// goroutine per DB, its batches prepared on every core).

// buildBatch is the most vectors the builder takes at once: big enough
// to keep both cores busy, small enough that the tail's searches and
// the batch's pairwise distances (buildBatch² of them) stay cheap.
const buildBatch = 256

// pendingVec is a stored vector not yet in the graph.
type pendingVec struct {
	seq uint64
	vec []float32 // unit length
}

// kick starts the builder if there is work and it is not running.
// Precondition: d.mu is held.
func (d *DB) kick() {
	if d.building || d.closing || d.hold {
		return
	}
	for _, gr := range d.graphs {
		if len(gr.pending) > 0 {
			d.building = true
			d.wg.Add(1)
			go d.build()
			return
		}
	}
}

// build inserts pending vectors until no index has any, or Close stops
// it. Each batch is prepared without the lock (searches and writes
// go on) and committed under it; a graph replaced meanwhile (a rebuild,
// a deleted index) discards the batch.
func (d *DB) build() {
	defer d.wg.Done()
	workers := runtime.GOMAXPROCS(0)
	d.mu.Lock()
	defer d.mu.Unlock()
	for !d.closing {
		name, gr := d.nextPending()
		if gr == nil {
			break
		}
		g := gr.g
		batch := make([]newNode, min(len(gr.pending), buildBatch))
		for i, p := range gr.pending[:len(batch)] {
			batch[i] = newNode{key: p.seq, vec: p.vec}
		}
		d.mu.Unlock()
		base := g.prepare(batch, workers)
		d.mu.Lock()
		if d.graphs[name] != gr || gr.g != g {
			continue
		}
		g.commit(base, batch)
		clear(gr.pending[:len(batch)])
		gr.pending = gr.pending[len(batch):]
		for _, x := range batch {
			if _, ok := gr.live[x.key]; !ok {
				gr.dead++ // removed while pending
			}
		}
		gr.changes += len(batch)
		d.afterBuild(name, gr)
	}
	d.building = false
}

// nextPending returns an index with a pending tail, the first by name.
// Precondition: d.mu is held.
func (d *DB) nextPending() (string, *graph) {
	var names []string
	for name, gr := range d.graphs {
		if len(gr.pending) > 0 {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "", nil
	}
	name := slices.Min(names)
	return name, d.graphs[name]
}

// afterBuild rebuilds a graph with too many tombstones and snapshots one
// with many changes (SnapshotEvery, or a quarter of its size, so writing
// snapshots costs a few records' bytes per change however large the
// index grows). A failed snapshot loses nothing (the records are
// durable); the graph stays marked changed and Close reports the error.
// Precondition: d.mu is held.
func (d *DB) afterBuild(name string, gr *graph) {
	if gr.maybeRebuild() {
		return
	}
	if gr.changes >= max(SnapshotEvery, len(gr.live)/4) {
		_ = d.saveGraph(name, gr)
	}
}
