package syntax

import (
	"strconv"

	ts "github.com/odvcencio/gotreesitter"
)

// LineOffsets is the byte offset of each line start of src.
func LineOffsets(src []byte) []int {
	out := []int{0}
	for i, c := range src {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// PosString is n's start as "L:C", 0-based, as descriptors spell
// positions.
func PosString(n *ts.Node) string {
	p := n.StartPoint()
	return strconv.FormatUint(uint64(p.Row), 10) + ":" + strconv.FormatUint(uint64(p.Column), 10)
}
