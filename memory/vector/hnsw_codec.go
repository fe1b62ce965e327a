package vector

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// encode writes the graph: a header (dim, m, efConstruction, entry, top,
// node count as uvarints), then per node its key (8 bytes), vector (dim
// float32 LE) and, per level, a uvarint count and the neighbours as
// uvarints.
func (h *hnswGraph) encode(w *bufio.Writer) error {
	var buf []byte
	put := func(v uint64) { buf = binary.AppendUvarint(buf[:0], v); w.Write(buf) }
	put(uint64(h.dim))
	put(uint64(h.m))
	put(uint64(h.efConstruction))
	put(uint64(h.entry + 1))
	put(uint64(h.top))
	put(uint64(len(h.keys)))
	for n, key := range h.keys {
		w.Write(binary.BigEndian.AppendUint64(buf[:0], key))
		w.Write(appendFloats(buf[:0], h.vec(int32(n))))
		put(uint64(len(h.links[n])))
		for _, ls := range h.links[n] {
			put(uint64(len(ls)))
			for _, x := range ls {
				put(uint64(x))
			}
		}
	}
	return w.Flush()
}

var errCorrupt = errors.New("corrupt graph snapshot")

// decodeGraph reads what encode wrote, checking every count and index so
// a damaged file is an error, never a panic or a huge allocation.
func decodeGraph(r *bufio.Reader, maxNodes int) (*hnswGraph, error) {
	get := func(limit uint64) (uint64, error) {
		v, err := binary.ReadUvarint(r)
		if err != nil {
			return 0, err
		}
		if v > limit {
			return 0, errCorrupt
		}
		return v, nil
	}
	var hdr [6]uint64
	limits := [6]uint64{MaxDim, 1024, 1 << 16, uint64(maxNodes), 32, uint64(maxNodes)}
	for i := range hdr {
		v, err := get(limits[i])
		if err != nil {
			return nil, fmt.Errorf("header: %w", err)
		}
		hdr[i] = v
	}
	if hdr[0] == 0 || hdr[1] < 2 {
		return nil, errCorrupt
	}
	h := newGraph(int(hdr[0]), int(hdr[1]), int(hdr[2]))
	count := int(hdr[5])
	if hdr[3] > uint64(count) || (count > 0) != (hdr[3] > 0) {
		return nil, errCorrupt
	}
	h.entry, h.top = int32(hdr[3])-1, int(hdr[4])
	raw := make([]byte, 8+4*h.dim)
	for n := range count {
		if _, err := io.ReadFull(r, raw); err != nil {
			return nil, fmt.Errorf("node %d: %w", n, err)
		}
		key := binary.BigEndian.Uint64(raw)
		vec := readFloats(raw[8:])
		for _, x := range vec {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, errCorrupt
			}
		}
		levels, err := get(33)
		if err != nil || levels == 0 {
			return nil, fmt.Errorf("node %d: %w", n, errors.Join(err, errCorrupt))
		}
		links := make([][]int32, levels)
		for l := range links {
			k, err := get(uint64(2 * h.m0))
			if err != nil {
				return nil, fmt.Errorf("node %d: %w", n, err)
			}
			links[l] = make([]int32, k)
			for i := range links[l] {
				x, err := get(uint64(count - 1))
				if err != nil {
					return nil, fmt.Errorf("node %d: %w", n, err)
				}
				links[l][i] = int32(x)
			}
		}
		if _, dup := h.byKey[key]; dup {
			return nil, errCorrupt
		}
		h.byKey[key] = int32(n)
		h.keys = append(h.keys, key)
		h.appendVec(vec)
		h.links = append(h.links, links)
	}
	// Every neighbour must exist at the level it is linked at, and the
	// entry must reach the top level.
	for n := range h.links {
		for l, ls := range h.links[n] {
			for _, x := range ls {
				if len(h.links[x]) <= l {
					return nil, errCorrupt
				}
			}
		}
	}
	if h.entry >= 0 && len(h.links[h.entry]) != h.top+1 {
		return nil, errCorrupt
	}
	return h, nil
}
