package index

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSplit checks that the parts of a sorted chunk cover every entry once,
// in order, and never cut a run of equal prefixes, whose keys are only
// sorted within the run afterwards.
func TestSplit(t *testing.T) {
	ents := func(prefixes ...uint64) []chunkEnt {
		out := make([]chunkEnt, len(prefixes))
		for i, p := range prefixes {
			out[i] = chunkEnt{prefix: p, kv: kv{koff: uint32(i)}}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		ents  []chunkEnt
		n     int
		sizes []int
	}{
		{"empty", nil, 2, nil},
		{"one part", ents(1, 2, 3), 1, []int{3}},
		{"halves", ents(1, 2, 3, 4), 2, []int{2, 2}},
		{"cut moves past a run", ents(1, 2, 2, 2, 3), 2, []int{4, 1}},
		{"one run", ents(5, 5, 5, 5), 2, []int{4}},
		{"more parts than entries", ents(1, 2), 4, []int{1, 1}},
		{"thirds", ents(1, 1, 2, 3, 3, 4, 5, 6, 7), 3, []int{3, 3, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parts := split(tc.ents, tc.n)
			var sizes []int
			var all []chunkEnt
			for i, p := range parts {
				sizes = append(sizes, len(p))
				all = append(all, p...)
				if i > 0 && parts[i-1][len(parts[i-1])-1].prefix == p[0].prefix {
					t.Errorf("part %d starts inside a run of prefix %d", i, p[0].prefix)
				}
			}
			if !slices.Equal(sizes, tc.sizes) {
				t.Errorf("sizes = %v, want %v", sizes, tc.sizes)
			}
			if !slices.Equal(all, tc.ents) {
				t.Errorf("parts do not add up to the input")
			}
		})
	}
}

// TestBulkDuplicateFails: keys of new files are unique by construction;
// should one ever repeat, the load fails and publishes nothing instead of
// storing one of the two values.
func TestBulkDuplicateFails(t *testing.T) {
	st := openTestStore(t, t.TempDir())
	defer st.Close()
	l := st.newBulkLoader()
	f := &fileRecords{}
	f.Set([]byte("rReader\x00\x00\x00\x00\x01"), []byte("a"), nil)
	f.Set([]byte("rReader\x00\x00\x00\x00\x01"), []byte("b"), nil)
	if err := l.add(f, &FileHeader{Path: "a.go", ID: 1}); err != nil {
		t.Fatal(err)
	}
	if err := l.finish(); err == nil || !strings.Contains(err.Error(), "strictly increasing") {
		t.Fatalf("finish = %v, want the writer's ordering error", err)
	}
	if _, ok := st.Header("a.go"); ok {
		t.Fatal("a file whose load failed was published")
	}
}

// TestRadixSortByPrefix: both digit widths give the stable order by prefix,
// also when some digit positions are equal in every prefix.
func TestRadixSortByPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		gen  func() uint64
	}{
		{"random", rng.Uint64},
		{"few values", func() uint64 { return uint64(rng.IntN(4)) << 40 }},
		{"shared high bytes", func() uint64 { return 0x7273747200000000 | uint64(rng.IntN(1<<20)) }},
	} {
		for _, bits := range []uint{8, 16} {
			t.Run(fmt.Sprintf("%s/%d", tc.name, bits), func(t *testing.T) {
				ents := make([]chunkEnt, 3000)
				for i := range ents {
					ents[i] = chunkEnt{prefix: tc.gen(), file: uint32(i)}
				}
				want := slices.Clone(ents)
				slices.SortStableFunc(want, func(a, b chunkEnt) int { return cmp.Compare(a.prefix, b.prefix) })
				if got := radixSortByPrefix(ents, make([]chunkEnt, len(ents)), bits); !slices.Equal(got, want) {
					t.Fatal("not the stable order by prefix")
				}
			})
		}
	}
}

// benchChunk builds a chunk shaped like a cold index's: 6,000 files, each
// with its records in one buffer, reference keys of names drawn with a
// long tail from 50,000, so that sorted records point all over the chunk.
func benchChunk() *chunk {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 50000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("%x%d", r.Uint64(), i)[:4+r.IntN(12)]
	}
	c := &chunk{}
	val := make([]byte, 18)
	for f := range 6000 {
		recs := &fileRecords{}
		seen := map[string]bool{}
		for range 120 {
			name := vocab[int(r.ExpFloat64()*3000)%len(vocab)]
			if !seen[name] {
				seen[name] = true
				recs.Set(appendRefKey(nil, name, uint32(f)), val, nil)
			}
		}
		c.add(recs, &FileHeader{})
	}
	return c
}

// BenchmarkBulkWriteTable measures writing a sorted chunk as an sstable.
func BenchmarkBulkWriteTable(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	l := &bulkLoader{s: s}
	dir := b.TempDir()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c := benchChunk()
		ents := c.parts(1)[0]
		c.sortRuns(ents)
		b.StartTimer()
		if err := l.writeTable(fmt.Sprintf("%s/%d.sst", dir, i), c, ents); err != nil {
			b.Fatal(err)
		}
	}
}
