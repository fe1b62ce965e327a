package syntax

import (
	"sort"

	ts "github.com/odvcencio/gotreesitter"

	"github.com/parleyhq/parley/index/extract"
)

// DescMax bounds a resolution descriptor's length (extract.OperandMax).
const DescMax = extract.OperandMax

// DescTable is what a describer of either language builds for one file:
// the file's identifiers in source order, and its distinct descriptors,
// each stored once (Result.Operands) and named by occurrences through
// their 1-based index.
type DescTable struct {
	Idents []*ts.Node
	extract.Operands
}

// IdentAt is the identifier starting at byte off, or nil.
func (d *DescTable) IdentAt(off int) *ts.Node {
	i := sort.Search(len(d.Idents), func(i int) bool { return int(d.Idents[i].StartByte()) >= off })
	if i < len(d.Idents) && int(d.Idents[i].StartByte()) == off {
		return d.Idents[i]
	}
	return nil
}
