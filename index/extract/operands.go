package extract

// OperandMax bounds a resolution descriptor's length: a longer one is
// stored as unknown (operand 0). Every describer, on tree-sitter's tree
// (index/python, index/typescript) or in a scanner (pyscan, tsscan),
// applies it, so both paths store the same table.
const OperandMax = 256

// Operands is the table a describer builds for one file: its distinct
// descriptors, each stored once (Result.Operands) and named by
// occurrences through their 1-based index. The zero value is ready to
// use; it is not safe for concurrent use.
type Operands struct {
	Table []string
	Index map[string]uint32
}

// Intern returns the 1-based table index of desc, 0 for "" or a
// descriptor over OperandMax.
func (o *Operands) Intern(desc string) uint32 {
	if desc == "" || len(desc) > OperandMax {
		return 0
	}
	if i, ok := o.Index[desc]; ok {
		return i
	}
	if o.Index == nil {
		o.Index = map[string]uint32{}
	}
	o.Table = append(o.Table, desc)
	o.Index[desc] = uint32(len(o.Table))
	return uint32(len(o.Table))
}
