package memory

import "encoding/binary"

// Key layout of the memory store. One prefix byte per record kind,
// integers big-endian so prefix scans are in ID order.
//
//	0x01 "schema"               -> uvarint schemaVersion
//	0x02 "stats"                -> uvarint docs, uvarint total tokens, uvarint last ID
//	'r'  id(8)                  -> JSON Memory
//	'b'  term 0x00 first(8)     -> a block of the term's postings (postings.go):
//	                               uvarint n, then n × (uvarint ID delta, uvarint tf, uvarint doc length)
//
// A term's postings are kept in blocks of up to blockSize memories in ID
// order, each keyed by an ID no greater than its first: recall reads a
// common term's tens of thousands of postings as a few hundred values
// decoded in a tight loop instead of one key each (version 1 stored one
// 'p' key per posting, and walking them was most of recall's time). A
// posting carries the document length so BM25 scores a memory without
// reading its record; a term's document frequency is the number of its
// postings, counted by the same scan that reads them. Terms never contain
// 0x00 (tokenize keeps letters and digits only), so the separator keeps
// "go" from matching the postings of "gopher".
//
// The vector indices (vectors.go) live in a database of their own in the
// store's "vectors" directory, keyed under 'V' in memory/vector's layout.
//
// Open migrates a version 1 store (migrate.go).
const schemaVersion = 2

const (
	prefixSchema    = 0x01
	prefixStats     = 0x02
	prefixRecord    = 'r'
	prefixBlock     = 'b'
	prefixPostingV1 = 'p' // version 1: 'p' term 0x00 id(8) -> uvarint tf, uvarint doc length
)

var (
	schemaKey = []byte{prefixSchema, 's', 'c', 'h', 'e', 'm', 'a'}
	statsKey  = []byte{prefixStats, 's', 't', 'a', 't', 's'}
)

func recordKey(id uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixRecord}, id)
}

// blockPrefix is the prefix of every posting block of term.
func blockPrefix(term string) []byte {
	k := make([]byte, 0, len(term)+10)
	k = append(k, prefixBlock)
	k = append(k, term...)
	return append(k, 0)
}

func blockKey(term string, first uint64) []byte {
	return binary.BigEndian.AppendUint64(blockPrefix(term), first)
}
