package syntax

import (
	"sort"

	ts "github.com/odvcencio/gotreesitter"
)

// DescMax bounds a resolution descriptor's length (Python's and
// TypeScript's, python/describe.go and typescript/describe.go): a longer one
// is stored as unknown.
const DescMax = 256

// DescTable is what a describer of either language builds for one file:
// the file's identifiers in source order, and its distinct descriptors,
// each stored once (Result.Operands) and named by occurrences through
// their 1-based index.
type DescTable struct {
	Idents []*ts.Node
	Table  []string
	Index  map[string]uint32
}

// Intern returns the 1-based table index of desc, 0 for "".
func (d *DescTable) Intern(desc string) uint32 {
	if desc == "" || len(desc) > DescMax {
		return 0
	}
	if i, ok := d.Index[desc]; ok {
		return i
	}
	d.Table = append(d.Table, desc)
	d.Index[desc] = uint32(len(d.Table))
	return uint32(len(d.Table))
}

// IdentAt is the identifier starting at byte off, or nil.
func (d *DescTable) IdentAt(off int) *ts.Node {
	i := sort.Search(len(d.Idents), func(i int) bool { return int(d.Idents[i].StartByte()) >= off })
	if i < len(d.Idents) && int(d.Idents[i].StartByte()) == off {
		return d.Idents[i]
	}
	return nil
}
