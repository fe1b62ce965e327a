package vector

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
)

const (
	kindInfo = 'i'
	kindVec  = 'v'
	kindSeq  = 's'
	// 'e' held an unbounded embedding cache; memory/embedcache.go
	// deletes those records and keeps its bounded cache elsewhere.
)

var nameRE = regexp.MustCompile(`^[a-z0-9_.-]{1,64}$`)

func checkName(name string) error {
	if !nameRE.MatchString(name) || name == "." || name == ".." {
		return invalidf("index name %q: use 1-64 lower-case letters, digits, '_', '-' or '.'", name)
	}
	return nil
}

func (d *DB) infoKey(name string) []byte {
	return append([]byte{d.prefix, kindInfo}, name...)
}

// nameSpace is the prefix of an index's records of kind.
func (d *DB) nameSpace(kind byte, name string) []byte {
	k := append([]byte{d.prefix, kind}, name...)
	return append(k, 0)
}

func (d *DB) vecKey(name string, id uint64) []byte {
	return binary.BigEndian.AppendUint64(d.nameSpace(kindVec, name), id)
}

func (d *DB) seqKey(name string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(d.nameSpace(kindSeq, name), seq)
}

// payload is the JSON part of a vector record.
type payload struct {
	Text     string         `json:"text,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

func encodeRecord(seq uint64, vec []float32, p payload) ([]byte, error) {
	js, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 8+binary.MaxVarintLen64+4*len(vec)+len(js))
	b = binary.BigEndian.AppendUint64(b, seq)
	b = appendFloats(binary.AppendUvarint(b, uint64(len(vec))), vec)
	return append(b, js...), nil
}

func decodeRecord(v []byte, withPayload bool) (seq uint64, vec []float32, p payload, err error) {
	if len(v) < 9 {
		return 0, nil, p, errors.New("short vector record")
	}
	seq = binary.BigEndian.Uint64(v)
	dim, n := binary.Uvarint(v[8:])
	if n <= 0 || dim > uint64(len(v)) {
		return 0, nil, p, errors.New("corrupt vector record")
	}
	rest := v[8+n:]
	if uint64(len(rest)) < 4*dim {
		return 0, nil, p, errors.New("truncated vector record")
	}
	vec = readFloats(rest[:4*dim])
	if withPayload {
		if err := json.Unmarshal(rest[4*dim:], &p); err != nil {
			return 0, nil, p, fmt.Errorf("vector record payload: %w", err)
		}
	}
	return seq, vec, p, nil
}

func appendFloats(b []byte, v []float32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func readFloats(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
