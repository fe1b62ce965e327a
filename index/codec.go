package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// The store's values use a small hand-written binary encoding: uvarints and
// length-prefixed strings, fields in a fixed order. It is several times
// smaller and faster than JSON or gob for millions of short records, and the
// schema version in keys.go guards every change to it.

// errCorrupt reports a value that does not decode; the store treats it as a
// broken record, never as a crash.
var errCorrupt = errors.New("corrupt index record")

type encoder struct{ b []byte }

func (e *encoder) uvarint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) varint(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) u64(v uint64)     { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *encoder) byte(v uint8)     { e.b = append(e.b, v) }

func (e *encoder) str(s string) {
	e.uvarint(uint64(len(s)))
	e.b = append(e.b, s...)
}

func (e *encoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// decoder reads what encoder wrote. The first failure sticks: later reads
// return zero values and err() reports it, so decoding code stays linear.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) fail() { d.bad, d.b = true, nil }

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) u32() uint32 {
	v := d.uvarint()
	if v > math.MaxUint32 {
		d.fail()
		return 0
	}
	return uint32(v)
}

func (d *decoder) u64() uint64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b)
	d.b = d.b[8:]
	return v
}

func (d *decoder) byte() uint8 {
	if len(d.b) < 1 {
		d.fail()
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) bool() bool { return d.byte() != 0 }

func (d *decoder) str() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// skipStr steps over a string without allocating it.
func (d *decoder) skipStr() string {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail()
		return ""
	}
	d.b = d.b[n:]
	return ""
}

// count reads a slice length and sanity-checks it against the bytes left,
// given that every element takes at least minSize bytes, so a corrupt
// length cannot make us allocate gigabytes.
func (d *decoder) count(minSize int) int {
	n := d.uvarint()
	if n > uint64(len(d.b)/minSize) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) err(what string) error {
	if d.bad {
		return fmt.Errorf("%s: %w", what, errCorrupt)
	}
	return nil
}
