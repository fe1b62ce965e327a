package index

import (
	"sort"

	ts "github.com/odvcencio/gotreesitter"
)

// descMax bounds a resolution descriptor's length (Python's and
// TypeScript's, resolve_pydesc.go and resolve_tsdesc.go): a longer one
// is stored as unknown.
const descMax = 256

// descTable is what a describer of either language builds for one file:
// the file's identifiers in source order, and its distinct descriptors,
// each stored once (Result.Operands) and named by occurrences through
// their 1-based index.
type descTable struct {
	idents []*ts.Node
	table  []string
	index  map[string]uint32
}

// intern returns the 1-based table index of desc, 0 for "".
func (d *descTable) intern(desc string) uint32 {
	if desc == "" || len(desc) > descMax {
		return 0
	}
	if i, ok := d.index[desc]; ok {
		return i
	}
	d.table = append(d.table, desc)
	d.index[desc] = uint32(len(d.table))
	return uint32(len(d.table))
}

// identAt is the identifier starting at byte off, or nil.
func (d *descTable) identAt(off int) *ts.Node {
	i := sort.Search(len(d.idents), func(i int) bool { return int(d.idents[i].StartByte()) >= off })
	if i < len(d.idents) && int(d.idents[i].StartByte()) == off {
		return d.idents[i]
	}
	return nil
}
