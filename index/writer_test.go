package index

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/parleyhq/parley/index/extract"
)

// TestOccurrencesSorted checks the packed check against the generic one,
// including columns that would overflow into the line if packed wrongly.
func TestOccurrencesSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		o := make([]Occurrence, r.IntN(5))
		for i := range o {
			o[i].Pos = extract.Pos{Line: uint32(r.IntN(3)), Col: []uint32{0, 1, 1 << 31, 1<<32 - 1}[r.IntN(4)]}
		}
		if got, want := occurrencesSorted(o), slices.IsSortedFunc(o, cmpOccurrence); got != want {
			t.Fatalf("occurrencesSorted(%v) = %v, want %v", o, got, want)
		}
	}
}

// TestRefGrouperReuse groups two files on one pooled grouper and checks
// the second sees nothing of the first.
func TestRefGrouperReuse(t *testing.T) {
	ref := func(name string, line uint32) extract.Ref {
		return extract.Ref{Name: name, Pos: extract.Pos{Line: line}}
	}
	g := groupers.Get().(*refGrouper)
	names, _ := g.group([]extract.Ref{ref("a", 1), ref("b", 2), ref("a", 3), ref("c", 4)})
	if !slices.Equal(names, []string{"a", "b", "c"}) {
		t.Fatalf("first names = %v", names)
	}
	g.release()
	g = groupers.Get().(*refGrouper)
	defer g.release()
	names, groups := g.group([]extract.Ref{ref("c", 9), ref("d", 1), ref("c", 2)})
	if !slices.Equal(names, []string{"c", "d"}) {
		t.Fatalf("second names = %v", names)
	}
	if len(groups[0]) != 2 || groups[0][0].Pos.Line != 2 || groups[0][1].Pos.Line != 9 || len(groups[1]) != 1 {
		t.Fatalf("second groups = %v", groups)
	}
}

// TestRefGrouperCopies: a name is one group whether its occurrences share
// one string (as the Go extractor's interned names do) or each has its own
// copy, and names at the same address but of different lengths stay apart.
func TestRefGrouperCopies(t *testing.T) {
	shared := strings.Clone("Reader")
	refs := []extract.Ref{
		{Name: shared, Pos: extract.Pos{Line: 1}},
		{Name: strings.Clone("Reader"), Pos: extract.Pos{Line: 2}},
		{Name: shared, Pos: extract.Pos{Line: 3}},
		{Name: shared[:4], Pos: extract.Pos{Line: 4}},
		{Name: strings.Clone("Reader"), Pos: extract.Pos{Line: 5}},
		{Name: shared[:4], Pos: extract.Pos{Line: 6}},
		{Name: "", Pos: extract.Pos{Line: 7}},
		{Name: "", Pos: extract.Pos{Line: 8}},
	}
	g := groupers.Get().(*refGrouper)
	defer g.release()
	names, groups := g.group(refs)
	if !slices.Equal(names, []string{"Reader", "Read", ""}) {
		t.Fatalf("names = %q", names)
	}
	for i, want := range [][]uint32{{1, 2, 3, 5}, {4, 6}, {7, 8}} {
		var got []uint32
		for _, o := range groups[i] {
			got = append(got, o.Pos.Line)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q at lines %v, want %v", names[i], got, want)
		}
	}
}
