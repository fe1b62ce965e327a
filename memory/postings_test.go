package memory

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// randomStore fills a store with n memories of Zipf-distributed words
// (common words repeat within a memory, so tf varies), in bulk and one by
// one, then forgets and rewrites some: blocks are appended to, filled,
// changed in the middle and emptied.
func randomStore(t *testing.T, dir string, n int, r *rand.Rand) (*Store, []string) {
	t.Helper()
	s := open(t, dir)
	words := benchWords(300)
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	mem := func() Memory {
		m := benchMemory(r, z, words)
		if r.IntN(50) == 0 { // a few long memories repeating a word
			m.Content += strings.Repeat(words[r.IntN(20)]+" ", 40+r.IntN(300))
		}
		return m
	}
	ms := make([]Memory, n)
	for i := range ms {
		ms[i] = mem()
	}
	if _, err := s.AddAll(ms); err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		id := uint64(1 + r.IntN(n))
		switch i % 3 {
		case 0:
			s.Forget(id) // may be gone already
		case 1:
			if m, err := s.Get(id); err == nil {
				m.Content = mem().Content
				if _, err := s.Update(m); err != nil {
					t.Fatal(err)
				}
			}
		default:
			add(t, s, mem())
		}
	}
	return s, words
}

// readPostings returns term's postings in ID order (all its blocks).
func readPostings(db pebble.Reader, term string, out []posting) ([]posting, error) {
	err := eachPosting(db, term, func(p posting) error {
		out = append(out, p)
		return nil
	})
	return out, err
}

// checkIndex checks the posting blocks against the records: every term's
// postings are exactly those the records give, in ID order, each block
// keyed at or below its first ID, none empty.
func checkIndex(t *testing.T, s *Store) {
	t.Helper()
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]posting{}
	for _, m := range list {
		tf, dl := termCounts(m)
		for term, n := range tf {
			want[term] = append(want[term], posting{m.ID, n, dl})
		}
	}
	err = s.with(false, func(db *pebble.DB) error {
		terms := map[string]bool{}
		it, _ := db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixBlock}, UpperBound: []byte{prefixBlock + 1}})
		for it.First(); it.Valid(); it.Next() {
			k := it.Key()
			term, first := string(k[1:len(k)-9]), binary.BigEndian.Uint64(k[len(k)-8:])
			terms[term] = true
			ps, err := decodeBlock(nil, it.Value(), first)
			if err != nil || len(ps) == 0 || ps[0].id < first {
				t.Errorf("block %q@%d: %d postings, first %v, %v", term, first, len(ps), ps, err)
			}
		}
		it.Close()
		for term := range want {
			terms[term] = true
		}
		for term := range terms {
			got, err := readPostings(db, term, nil)
			if err != nil {
				return err
			}
			w := want[term]
			slices.SortFunc(w, func(a, b posting) int { return cmp.Compare(a.id, b.id) })
			if !slices.Equal(got, w) {
				t.Errorf("postings of %q:\n got  %v\n want %v", term, got, w)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkScores compares recall's scoring with BM25 computed from the
// records alone, for every memory a query matches.
func checkScores(t *testing.T, s *Store, words []string, r *rand.Rand) {
	t.Helper()
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	tfs := map[uint64]map[string]uint64{}
	dls := map[uint64]float64{}
	df := map[string]float64{}
	total := 0.0
	for _, m := range list {
		tf, dl := termCounts(m)
		tfs[m.ID], dls[m.ID] = tf, float64(dl)
		total += float64(dl)
		for term := range tf {
			df[term]++
		}
	}
	N, avgdl := float64(len(list)), total/float64(len(list))
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	err = s.with(false, func(db *pebble.DB) error {
		st, err := readStats(db.Get)
		if err != nil {
			return err
		}
		for q := range 200 {
			var qs []string
			for range 1 + q%4 {
				qs = append(qs, words[z.Uint64()])
			}
			if q%5 == 0 { // a word no memory has, sorted first
				qs = append(qs, "absentword")
			}
			terms := uniqueTerms(strings.Join(qs, " "))
			want := map[uint64]float64{}
			for id, tf := range tfs {
				for _, term := range terms {
					if n := float64(tf[term]); n > 0 {
						idf := math.Log(1 + (N-df[term]+0.5)/(df[term]+0.5))
						want[id] += idf * n * (bm25K1 + 1) / (n + bm25K1*(1-bm25B+bm25B*dls[id]/avgdl))
					}
				}
			}
			sc, err := bm25Scores(db, st, terms)
			if err != nil {
				return err
			}
			got := topCandidates(sc, len(sc.scores))
			if len(got) != len(want) || sc.count != len(want) {
				t.Errorf("query %q: %d memories scored, want %d", terms, len(got), len(want))
			}
			for _, c := range got {
				if w, ok := want[c.id]; !ok || math.Abs(w-c.score) > 1e-9*math.Max(1, w) {
					t.Errorf("query %q: memory %d scores %v, want %v", terms, c.id, c.score, w)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestPostingBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	s, words := randomStore(t, t.TempDir(), 3000, r)
	checkIndex(t, s)
	checkScores(t, s, words, r)
}

// A version 1 store (one 'p' key per posting) is migrated at open: the
// same memories, the same postings, and the old keys gone.
func TestMigrateV1(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	s, words := randomStore(t, dir, 700, r)
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	db, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteRange([]byte{prefixBlock}, []byte{prefixBlock + 1}, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range list {
		tf, dl := termCounts(m)
		for term, n := range tf {
			k := binary.BigEndian.AppendUint64(append(append([]byte{prefixPostingV1}, term...), 0), m.ID)
			db.Set(k, binary.AppendUvarint(binary.AppendUvarint(nil, n), dl), nil)
		}
	}
	db.Set(schemaKey, binary.AppendUvarint(nil, 1), nil)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir)
	checkIndex(t, s)
	checkScores(t, s, words, r)
	if err := s.with(false, func(db *pebble.DB) error {
		it, _ := db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixPostingV1}, UpperBound: []byte{prefixPostingV1 + 1}})
		if it.First() {
			t.Errorf("version 1 posting %x left", it.Key())
		}
		it.Close()
		v, closer, err := db.Get(schemaKey)
		if err != nil {
			return err
		}
		defer closer.Close()
		if got, _ := binary.Uvarint(v); got != schemaVersion {
			t.Errorf("schema version %d after migrating", got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
