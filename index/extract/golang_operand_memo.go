package extract

// valueMemo is a local's value descriptor and the depth it was computed
// at without reaching the depth limit.
type valueMemo struct {
	desc  string
	depth int
}

// defValue is valueAt for local declaration i. A local is typically used
// as an operand many times (x.a, x.b, ...), each evaluating its value
// expression again; that was a third of the descriptors' cost. An answer
// is reused only when it was computed without hitting the depth limit at
// a depth at least the current one: the evaluation from here reaches no
// deeper, so it would give the same answer (the identDesc memo it reads
// only ever gains entries).
func (o *operands) defValue(i int) string {
	if m, ok := o.values[i]; ok && o.depth <= m.depth {
		return m.desc
	}
	d, cutoffs := o.defs[i], o.cutoffs
	v := o.valueAt(d.at, d.idx)
	if o.cutoffs == cutoffs {
		if o.values == nil {
			o.values = map[int]valueMemo{}
		}
		if m, ok := o.values[i]; !ok || o.depth > m.depth {
			o.values[i] = valueMemo{v, o.depth}
		}
	}
	return v
}
