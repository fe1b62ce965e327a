package vector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/cockroachdb/pebble/v2"
	"github.com/parleyhq/parley/internal/keyrange"
)

// Item is a stored vector with its text and metadata.
type Item struct {
	// ID is the vector's ID in its index (0 in Add: assign one).
	ID       uint64         `json:"id"`
	Vector   []float32      `json:"vector,omitempty"`
	Text     string         `json:"text,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// MaxText bounds the text stored with a vector.
const MaxText = 1 << 20

// writeMode says whether a write may create and may replace vectors.
type writeMode int

const (
	modeAdd    writeMode = iota // new IDs only
	modeUpdate                  // existing IDs only
	modePut                     // either
)

// Add stores new vectors and returns their IDs (given, or assigned when
// 0). model names the embedding model when the vectors embed Text ("" for
// vectors the caller made). All or none are stored.
func (d *DB) Add(name string, items []Item, model string) ([]uint64, error) {
	return d.write(name, items, model, modeAdd)
}

// Put stores vectors under their IDs, replacing any that exist.
func (d *DB) Put(name string, items []Item, model string) ([]uint64, error) {
	return d.write(name, items, model, modePut)
}

// Update replaces existing vectors. An item without a Vector keeps its
// stored vector and changes only text and metadata.
func (d *DB) Update(name string, items []Item, model string) error {
	_, err := d.write(name, items, model, modeUpdate)
	return err
}

func (d *DB) write(name string, items []Item, model string, mode writeMode) ([]uint64, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	info, err := d.current(name)
	if err != nil {
		return nil, err
	}
	if model != "" && info.Model != "" && model != info.Model {
		return nil, invalidf("index %q holds embeddings of %s, not %s (they are not comparable)", name, info.Model, model)
	}
	gr, err := d.loadGraph(info)
	if err != nil {
		return nil, err
	}
	b := d.db.NewBatch()
	defer b.Close()
	ids := make([]uint64, len(items))
	seen := map[uint64]bool{}
	changes := make([]itemChange, 0, len(items))
	for i, it := range items {
		c, err := d.stage(b, name, &info, i, it, mode, seen)
		if err != nil {
			return nil, err
		}
		ids[i] = c.id
		changes = append(changes, c)
	}
	if model != "" {
		info.Model = model
	}
	if err := d.putInfo(b, info); err != nil {
		return nil, err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return nil, fmt.Errorf("vector index %s: %w", name, err)
	}
	// The graph learns of the new vectors only once they are durable, so a
	// failed commit leaves it as it was.
	for _, c := range changes {
		if c.vec == nil {
			continue
		}
		gr.forget(c.oldSeq)
		gr.live[c.newSeq] = c.id
		gr.pending = append(gr.pending, pendingVec{c.newSeq, c.vec})
	}
	gr.maybeRebuild()
	d.kick()
	return ids, nil
}

// itemChange is what one written item does to the graph once its batch
// commits: the sequence number its vector leaves and the one it takes.
type itemChange struct {
	oldSeq, newSeq, id uint64
	vec                []float32 // nil: the graph keeps the old node
}

// stage checks item i (1-based in messages) of a write against the index
// and the write's mode, and adds its records to b, advancing info's ID and
// sequence counters. seen holds the IDs of the items staged before it.
func (d *DB) stage(b *pebble.Batch, name string, info *Info, i int, it Item, mode writeMode, seen map[uint64]bool) (itemChange, error) {
	if len(it.Text) > MaxText {
		return itemChange{}, invalidf("vector %d: text of %d bytes, at most %d", i+1, len(it.Text), MaxText)
	}
	if it.ID == 0 {
		if mode == modeUpdate {
			return itemChange{}, invalidf("vector %d: an update needs the vector's id", i+1)
		}
		it.ID = info.NextID
	}
	if seen[it.ID] {
		return itemChange{}, invalidf("vector id %d given twice", it.ID)
	}
	seen[it.ID] = true
	info.NextID = max(info.NextID, it.ID+1)
	oldSeq, oldVec, _, err := d.record(name, it.ID, false)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, ErrNotFound):
		return itemChange{}, err
	case exists && mode == modeAdd:
		return itemChange{}, invalidf("vector %d exists in index %q (update it instead)", it.ID, name)
	case !exists && mode == modeUpdate:
		return itemChange{}, notFoundf("vector %d in index %q", it.ID, name)
	}
	c := itemChange{id: it.ID, oldSeq: oldSeq, newSeq: oldSeq}
	vec := oldVec
	if it.Vector != nil || !exists {
		if vec, err = unit(it.Vector, info.Dim); err != nil {
			return itemChange{}, invalidf("vector %d: %v", i+1, err)
		}
		c.vec, c.newSeq = vec, info.NextSeq
		info.NextSeq++
	}
	rec, err := encodeRecord(c.newSeq, vec, payload{Text: it.Text, Metadata: it.Metadata})
	if err != nil {
		return itemChange{}, invalidf("vector %d: metadata: %v", i+1, err)
	}
	if err := b.Set(d.vecKey(name, it.ID), rec, nil); err != nil {
		return itemChange{}, err
	}
	if c.newSeq != c.oldSeq {
		if exists {
			if err := b.Delete(d.seqKey(name, c.oldSeq), nil); err != nil {
				return itemChange{}, err
			}
		}
		if err := b.Set(d.seqKey(name, c.newSeq), binary.BigEndian.AppendUint64(nil, it.ID), nil); err != nil {
			return itemChange{}, err
		}
	}
	if !exists {
		info.Count++
	}
	return c, nil
}

// Remove deletes vectors by ID and returns how many existed.
func (d *DB) Remove(name string, ids []uint64) (int, error) {
	if err := checkName(name); err != nil {
		return 0, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	info, err := d.current(name)
	if err != nil {
		return 0, err
	}
	gr, err := d.loadGraph(info)
	if err != nil {
		return 0, err
	}
	b := d.db.NewBatch()
	defer b.Close()
	var seqs []uint64
	for _, id := range ids {
		seq, _, _, err := d.record(name, id, false)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return 0, err
		}
		if err := b.Delete(d.vecKey(name, id), nil); err != nil {
			return 0, err
		}
		if err := b.Delete(d.seqKey(name, seq), nil); err != nil {
			return 0, err
		}
		seqs = append(seqs, seq)
		info.Count--
	}
	if len(seqs) == 0 {
		return 0, nil
	}
	if err := d.putInfo(b, info); err != nil {
		return 0, err
	}
	if err := b.Commit(pebble.Sync); err != nil {
		return 0, fmt.Errorf("vector index %s: %w", name, err)
	}
	for _, seq := range seqs {
		gr.forget(seq)
	}
	gr.maybeRebuild()
	d.kick()
	return len(seqs), nil
}

// Get returns a stored vector.
func (d *DB) Get(name string, id uint64) (Item, error) {
	if err := checkName(name); err != nil {
		return Item{}, err
	}
	if _, err := d.info(name); err != nil {
		return Item{}, err
	}
	_, vec, p, err := d.record(name, id, true)
	if err != nil {
		return Item{}, err
	}
	return Item{ID: id, Vector: vec, Text: p.Text, Metadata: p.Metadata}, nil
}

// IDs returns the IDs of an index's vectors, ascending.
func (d *DB) IDs(name string) ([]uint64, error) {
	lo := d.nameSpace(kindVec, name)
	it, err := d.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return nil, err
	}
	var ids []uint64
	for it.First(); it.Valid(); it.Next() {
		ids = append(ids, binary.BigEndian.Uint64(it.Key()[len(lo):]))
	}
	return ids, errors.Join(it.Error(), it.Close())
}

func (d *DB) record(name string, id uint64, withPayload bool) (uint64, []float32, payload, error) {
	v, closer, err := d.db.Get(d.vecKey(name, id))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, nil, payload{}, notFoundf("vector %d in index %q", id, name)
	}
	if err != nil {
		return 0, nil, payload{}, fmt.Errorf("vector index %s: %w", name, err)
	}
	defer closer.Close()
	seq, vec, p, err := decodeRecord(v, withPayload)
	if err != nil {
		return 0, nil, payload{}, fmt.Errorf("vector index %s: vector %d: %w", name, id, err)
	}
	return seq, vec, p, nil
}

// unit checks v's dimension and returns it scaled to unit length.
func unit(v []float32, dim int) ([]float32, error) {
	if len(v) != dim {
		return nil, fmt.Errorf("has %d dimensions, the index %d", len(v), dim)
	}
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil, fmt.Errorf("is zero or not finite")
	}
	n := math.Sqrt(sum)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / n)
	}
	return out, nil
}

// Each calls fn with every vector's ID, text and metadata in ID order
// (vectors not included), stopping at fn's first error.
func (d *DB) Each(name string, fn func(id uint64, text string, metadata map[string]any) error) error {
	if err := checkName(name); err != nil {
		return err
	}
	if _, err := d.info(name); err != nil {
		return err
	}
	lo := d.nameSpace(kindVec, name)
	it, err := d.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return err
	}
	for it.First(); it.Valid(); it.Next() {
		_, _, p, err := decodeRecord(it.Value(), true)
		if err == nil {
			err = fn(binary.BigEndian.Uint64(it.Key()[len(lo):]), p.Text, p.Metadata)
		}
		if err != nil {
			it.Close()
			return err
		}
	}
	return errors.Join(it.Error(), it.Close())
}
