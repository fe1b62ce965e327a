package memory

import "encoding/binary"

// Key layout of the memory store. One prefix byte per record kind,
// integers big-endian so prefix scans are in ID order.
//
//	0x01 "schema"               -> uvarint schemaVersion
//	0x02 "stats"                -> uvarint docs, uvarint total tokens, uvarint last ID
//	'r'  id(8)                  -> JSON Memory
//	'p'  term 0x00 id(8)        -> uvarint tf, uvarint doc length (tokens)
//	'V'  ...                    -> the vector store (memory/vector's layout)
//
// A posting carries the document length so BM25 scores a candidate without
// reading its record; a term's document frequency is the number of its
// postings, counted by the same scan that reads them. Terms never contain
// 0x00 (tokenize keeps letters and digits only), so the separator keeps
// "go" from matching the postings of "gopher".
const schemaVersion = 1

const (
	prefixSchema  = 0x01
	prefixStats   = 0x02
	prefixRecord  = 'r'
	prefixPosting = 'p'
)

var (
	schemaKey = []byte{prefixSchema, 's', 'c', 'h', 'e', 'm', 'a'}
	statsKey  = []byte{prefixStats, 's', 't', 'a', 't', 's'}
)

func recordKey(id uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{prefixRecord}, id)
}

// postingPrefix is the prefix of every posting of term.
func postingPrefix(term string) []byte {
	k := make([]byte, 0, len(term)+2)
	k = append(k, prefixPosting)
	k = append(k, term...)
	return append(k, 0)
}

func postingKey(term string, id uint64) []byte {
	return binary.BigEndian.AppendUint64(postingPrefix(term), id)
}

// upperBound is the smallest key greater than every key with prefix p.
func upperBound(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
