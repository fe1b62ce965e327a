package memory

import "encoding/binary"

// Key layout of the memory store. One prefix byte per record kind,
// integers big-endian so prefix scans are in ID order.
//
//	0x01 "schema"               -> uvarint schemaVersion
//	0x02 "stats"                -> uvarint docs, uvarint total tokens, uvarint last ID
//	'r'  id(8)                  -> JSON Memory
//	'p'  term 0x00 id(8)        -> uvarint tf, uvarint doc length (tokens)
//	'i'  term 0x00 255-min(tf,255) dl(4) id(8) -> uvarint tf
//	't'  term                   -> uvarint df (the term's postings)
//
// A posting carries the document length so BM25 scores a candidate without
// reading its record. Every posting is stored twice: by ID ('p', for
// looking a memory's term frequency up) and by impact ('i': tf descending,
// then document length ascending, so within one tf the BM25 contributions
// descend whatever the average length), which lets recall stop reading a
// common term's postings early (topk.go). 't' keeps each term's document
// frequency so that recall need not count postings. Terms never contain
// 0x00 (tokenize keeps letters and digits only), so the separator keeps
// "go" from matching the postings of "gopher".
//
// Version 1 had no 'i' and 't' records; Open adds them (migrate.go).
const schemaVersion = 2

const (
	prefixSchema  = 0x01
	prefixStats   = 0x02
	prefixRecord  = 'r'
	prefixPosting = 'p'
	prefixImpact  = 'i'
	prefixTerm    = 't'
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

// impactPrefix is the prefix of every impact posting of term.
func impactPrefix(term string) []byte {
	k := make([]byte, 0, len(term)+2)
	k = append(k, prefixImpact)
	k = append(k, term...)
	return append(k, 0)
}

// impactGroup is the byte after impactPrefix: postings of higher tf sort
// first; tf of 255 and more share the first group.
func impactGroup(tf uint64) byte { return byte(255 - min(tf, 255)) }

func impactKey(term string, tf, dl, id uint64) []byte {
	k := append(impactPrefix(term), impactGroup(tf))
	k = binary.BigEndian.AppendUint32(k, uint32(min(dl, 1<<32-1)))
	return binary.BigEndian.AppendUint64(k, id)
}

func termKey(term string) []byte {
	return append([]byte{prefixTerm}, term...)
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
