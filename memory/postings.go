package memory

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
	"github.com/parleyhq/parley/internal/keyrange"
)

// blockSize is how many postings a block takes before appends start a
// new one: big enough that a common term is a few hundred values, small
// enough that rewriting a block for one memory stays cheap (a few hundred
// bytes).
const blockSize = 128

// posting is one memory's entry in a term's postings.
type posting struct {
	id, tf, dl uint64
}

// block is a stored block: its key's ID and its postings in ID order.
type block struct {
	first    uint64
	postings []posting
	stored   bool // a record exists under blockKey(term, first)
	dirty    bool
}

func encodeBlock(ps []posting, first uint64) []byte {
	b := binary.AppendUvarint(make([]byte, 0, 4+len(ps)*4), uint64(len(ps)))
	prev := first
	for _, p := range ps {
		b = binary.AppendUvarint(b, p.id-prev)
		b = binary.AppendUvarint(b, p.tf)
		b = binary.AppendUvarint(b, p.dl)
		prev = p.id
	}
	return b
}

// decodeBlock appends the postings of a block keyed by first to out.
func decodeBlock(out []posting, v []byte, first uint64) ([]posting, error) {
	err := eachInBlock(v, first, func(p posting) error {
		out = append(out, p)
		return nil
	})
	return out, err
}

// eachInBlock calls f with each posting of a block keyed by first.
func eachInBlock(v []byte, first uint64, f func(posting) error) error {
	n, k := binary.Uvarint(v)
	if k <= 0 || n > uint64(len(v)) {
		return errors.New("corrupt posting block")
	}
	v = v[k:]
	id := first
	for range n {
		d, k1 := binary.Uvarint(v)
		if k1 <= 0 {
			return errors.New("corrupt posting block")
		}
		tf, k2 := binary.Uvarint(v[k1:])
		if k2 <= 0 {
			return errors.New("corrupt posting block")
		}
		dl, k3 := binary.Uvarint(v[k1+k2:])
		if k3 <= 0 {
			return errors.New("corrupt posting block")
		}
		v = v[k1+k2+k3:]
		id += d
		if err := f(posting{id, tf, dl}); err != nil {
			return err
		}
	}
	return nil
}

// eachPosting calls f with each of term's postings in ID order.
func eachPosting(db pebble.Reader, term string, f func(posting) error) error {
	return eachBlock(db, term, func(first uint64, v []byte) error {
		return eachInBlock(v, first, f)
	})
}

// countPostings is term's document frequency: the sum of its blocks'
// counts, without decoding them.
func countPostings(db pebble.Reader, term string) (uint64, error) {
	var df uint64
	err := eachBlock(db, term, func(_ uint64, v []byte) error {
		n, k := binary.Uvarint(v)
		if k <= 0 {
			return errors.New("corrupt posting block")
		}
		df += n
		return nil
	})
	return df, err
}

// eachBlock calls f with each of term's blocks: its key's ID and value.
func eachBlock(db pebble.Reader, term string, f func(first uint64, v []byte) error) error {
	lo := blockPrefix(term)
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: keyrange.PrefixEnd(lo)})
	if err != nil {
		return err
	}
	for it.First(); it.Valid(); it.Next() {
		key := it.Key()
		if len(key) != len(lo)+8 {
			it.Close()
			return fmt.Errorf("corrupt posting block key %x", key)
		}
		if err := f(binary.BigEndian.Uint64(key[len(lo):]), it.Value()); err != nil {
			it.Close()
			return fmt.Errorf("%w %x", err, key)
		}
	}
	return errors.Join(it.Error(), it.Close())
}

// blockEditor collects the posting changes of one batch: the batch is not
// indexed (it cannot read its own writes), so the blocks a batch changes
// are read once, changed in memory and written once by write.
type blockEditor struct {
	db     pebble.Reader
	blocks map[string][]*block // term -> the term's blocks loaded so far
	// New memories (IDs above lastID, the store's last ID before the
	// batch) go to their terms' last blocks: tail keeps each term's last
	// block once known (nil: the term had none), so a bulk load looks
	// each term up in the store once, not once per memory.
	lastID uint64
	tail   map[string]*block
}

func newBlockEditor(db pebble.Reader, lastID uint64) *blockEditor {
	return &blockEditor{db: db, blocks: map[string][]*block{}, lastID: lastID, tail: map[string]*block{}}
}

// find returns the block that holds (or would hold) id in term's
// postings: the one with the greatest first ID not above id, loaded from
// the store unless already loaded; nil when there is none.
func (e *blockEditor) find(term string, id uint64) (*block, error) {
	if id > e.lastID {
		if b, ok := e.tail[term]; ok {
			return b, nil
		}
		b, err := e.findStored(term, id)
		e.tail[term] = b
		return b, err
	}
	return e.findStored(term, id)
}

func (e *blockEditor) findStored(term string, id uint64) (*block, error) {
	var best *block
	for _, b := range e.blocks[term] {
		if b.first <= id && (best == nil || b.first > best.first) {
			best = b
		}
	}
	lo := blockPrefix(term)
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: blockKey(term, id+1)})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	if it.Last() {
		first := binary.BigEndian.Uint64(it.Key()[len(lo):])
		if best == nil || first > best.first {
			ps, err := decodeBlock(nil, it.Value(), first)
			if err != nil {
				return nil, fmt.Errorf("%w %x", err, it.Key())
			}
			best = &block{first: first, postings: ps, stored: true}
			e.blocks[term] = append(e.blocks[term], best)
		}
	}
	return best, it.Error()
}

// set adds or replaces id's posting of term.
func (e *blockEditor) set(term string, p posting) error {
	b, err := e.find(term, p.id)
	if err != nil {
		return err
	}
	// A memory after a full block (appends are in ID order) starts a new
	// one, as does a memory before every block.
	if b == nil || (len(b.postings) >= blockSize && p.id > b.postings[len(b.postings)-1].id) {
		b = &block{first: p.id}
		e.blocks[term] = append(e.blocks[term], b)
		if p.id > e.lastID {
			e.tail[term] = b
		}
	}
	i, found := slices.BinarySearchFunc(b.postings, p.id, func(q posting, id uint64) int { return cmp.Compare(q.id, id) })
	if found {
		b.postings[i] = p
	} else {
		b.postings = slices.Insert(b.postings, i, p)
	}
	b.dirty = true
	return nil
}

// del removes id's posting of term, if any.
func (e *blockEditor) del(term string, id uint64) error {
	b, err := e.find(term, id)
	if err != nil || b == nil {
		return err
	}
	i, found := slices.BinarySearchFunc(b.postings, id, func(q posting, id uint64) int { return cmp.Compare(q.id, id) })
	if found {
		b.postings = slices.Delete(b.postings, i, i+1)
		b.dirty = true
	}
	return nil
}

// write puts the changed blocks in batch: an emptied block is deleted.
func (e *blockEditor) write(batch *pebble.Batch) error {
	for term, bs := range e.blocks {
		for _, b := range bs {
			var err error
			switch {
			case !b.dirty:
			case len(b.postings) > 0:
				err = batch.Set(blockKey(term, b.first), encodeBlock(b.postings, b.first), nil)
			case b.stored:
				err = batch.Delete(blockKey(term, b.first), nil)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}
