package extract

import (
	"slices"
	"strings"
)

// cppDropHoisted removes the symbols a C++ parse declared at the level of
// the file, a namespace or a class that stand inside a function body
// found by the file's text (ScanCpp): when gotreesitter's grammar loses a
// function (its template parameters hold a macro, its return type
// trails, its initializer list spans lines), it reads the locals of its
// body as declarations, `uint64_t hi = (lhs.lo_ >> 32) * rhs;` as a
// variable of the file and `: impl_(context)` as a function, 95 of them
// in fmt's format.h. They are no symbols of the file: a symbol search
// listed them, and an outline had to keep their lines. Symbols under a
// function the grammar did find are its own and stay, and so do
// namespaces. The children of a removed symbol go with it.
func cppDropHoisted(w *tsWalker) {
	syms := w.res.Symbols
	if len(syms) == 0 {
		return
	}
	bodies := ScanCpp(strings.Split(string(w.src), "\n")).Bodies
	if len(bodies) == 0 {
		return
	}
	slices.SortFunc(bodies, func(a, b LineSpan) int { return a.Start - b.Start })
	inBody := func(line int) bool {
		i, found := slices.BinarySearchFunc(bodies, line, func(r LineSpan, l int) int { return r.Start - l })
		if found {
			return true
		}
		// The last body starting before line: bodies do not overlap, as
		// ScanCpp reports the outermost ones.
		return i > 0 && bodies[i-1].End >= line
	}
	drop := make([]bool, len(syms))
	dropped := false
	for i, s := range syms {
		p := s.Parent
		if p >= 0 && (drop[p] || isFunctionKind(syms[p].Kind)) {
			drop[i] = drop[p]
			dropped = dropped || drop[i]
			continue
		}
		if s.Kind != KindNamespace && inBody(int(s.Selection.Start.Line)+1) && !underFunction(syms, i) {
			drop[i], dropped = true, true
		}
	}
	if !dropped {
		return
	}
	index := make([]int32, len(syms))
	out := syms[:0]
	for i, s := range syms {
		if drop[i] {
			index[i] = -1
			continue
		}
		index[i] = int32(len(out))
		if s.Parent >= 0 {
			s.Parent = index[s.Parent]
		}
		out = append(out, s)
	}
	w.res.Symbols = out
}

// underFunction says whether symbol i is declared under a function.
func underFunction(syms []Symbol, i int) bool {
	for p := syms[i].Parent; p >= 0; p = syms[p].Parent {
		if isFunctionKind(syms[p].Kind) {
			return true
		}
	}
	return false
}

func isFunctionKind(k SymbolKind) bool {
	return k == KindFunction || k == KindMethod || k == KindConstructor
}
