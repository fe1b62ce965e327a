// Package keyrange computes the bounds of a key prefix for Pebble
// iterators and range deletions, shared by the index, the memory stores
// and the vector indices.
package keyrange

// PrefixEnd returns the smallest key greater than every key with prefix
// p (an exclusive upper bound), or nil when there is none (p is all 0xff
// or empty), which Pebble reads as unbounded. p is not modified.
func PrefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
