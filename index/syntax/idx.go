package syntax

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// IdxCacheFiles bounds the files whose records the store keeps decoded
// (about the standard library's count of Python files).
const IdxCacheFiles = 4096

// LoadIdx returns p's decoded descriptor records from cache, where they
// stay while p's content hash is unchanged, or decodes them with build
// (the file's hash, descriptor table and symbols); nil when the index
// holds no descriptors for p. A file without occurrences (an empty
// __init__.py) has an empty table: nothing to describe, nothing bound.
// Shared by Python's and TypeScript's records.
func LoadIdx[T interface{ ContentHash() uint64 }](r *Resolver, p string, cache *map[string]T,
	build func(hash uint64, ops []string, syms []extract.Symbol) T) T {
	var none T
	h, ok := r.St.Header(p)
	if !ok {
		return none
	}
	if x, ok := (*cache)[p]; ok && x.ContentHash() == h.Hash {
		return x
	}
	var x T
	switch det, err := r.St.Detail(p); {
	case h.Refs == 0 && h.Status == index.StatusIndexed:
		x = build(h.Hash, nil, nil)
	case err == nil && len(det.Operands) > 0:
		syms, _ := r.St.Symbols(p)
		x = build(h.Hash, det.Operands, syms)
	default:
		return none
	}
	if *cache == nil || len(*cache) >= IdxCacheFiles {
		*cache = map[string]T{}
	}
	(*cache)[p] = x
	return x
}

// ParsePos parses "L:C".
func ParsePos(s string) (extract.Pos, bool) {
	l, c, ok := strings.Cut(s, ":")
	line, err1 := strconv.ParseUint(l, 10, 32)
	col, err2 := strconv.ParseUint(c, 10, 32)
	return extract.Pos{Line: uint32(line), Col: uint32(col)}, ok && err1 == nil && err2 == nil
}

// PosKey is p as "L:C" (ParsePos).
func PosKey(p extract.Pos) string {
	return strconv.FormatUint(uint64(p.Line), 10) + ":" + strconv.FormatUint(uint64(p.Col), 10)
}

// Remember keeps a member's value for the rest of the request: a
// references query evaluates the same few module and class members for
// thousands of occurrences.
func (r *Resolver) Remember(key string, v Value) {
	if r.Memo == nil {
		r.Memo = map[string]Value{}
	}
	r.Memo[key] = v
}

// IndexedContent reports whether src is the content the index holds for
// the file from: its stored descriptors then describe src.
func IndexedContent(s *index.Store, from string, src []byte) bool {
	h, known := s.Header(from)
	return known && h.Hash == xxhash.Sum64(src)
}

// IndexedOccurrence is the identifier at off of src, the content the
// index holds for from, and its position as the index stores
// occurrences; ok is false when src is not that content or off is on no
// identifier.
func IndexedOccurrence(s *index.Store, from string, src []byte, off int) (name string, pos extract.Pos, ok bool) {
	if !IndexedContent(s, from, src) {
		return "", extract.Pos{}, false
	}
	start := index.IdentStart(src, off)
	name, ok = index.IdentAt(src, start)
	if !ok {
		return "", extract.Pos{}, false
	}
	line := bytes.Count(src[:start], []byte{'\n'})
	pos = extract.Pos{Line: uint32(line), Col: uint32(start - (bytes.LastIndexByte(src[:start], '\n') + 1))}
	return name, pos, true
}
