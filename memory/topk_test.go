package memory

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
)

// randomStore fills a store with n memories of Zipf-distributed words
// (so common words repeat within a memory and tf varies), then forgets
// and rewrites some, so the document frequencies have been decremented
// as well as incremented.
func randomStore(t *testing.T, dir string, n int, r *rand.Rand) (*Store, []string) {
	t.Helper()
	s := open(t, dir)
	words := benchWords(300)
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	ms := make([]Memory, n)
	for i := range ms {
		ms[i] = benchMemory(r, z, words)
		if r.IntN(50) == 0 { // a few long memories and a word repeated often
			ms[i].Content += strings.Repeat(words[r.IntN(20)]+" ", 40+r.IntN(300))
		}
	}
	if _, err := s.AddAll(ms); err != nil {
		t.Fatal(err)
	}
	for i := range 40 {
		id := uint64(1 + r.IntN(n))
		if i%2 == 0 {
			s.Forget(id) // may be gone already
		} else if m, err := s.Get(id); err == nil {
			m.Content = benchMemory(r, z, words).Content
			if _, err := s.Update(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	return s, words
}

// sortedCands orders candidates by score, then ID, for comparison (equal
// scores come in no particular order).
func sortedCands(cs []cand) string {
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b cand) int {
		if c := cmp.Compare(b.score, a.score); !sameScore(a.score, b.score) && c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%d:%.9f/%d ", c.id, c.score, c.n)
	}
	return b.String()
}

// topK finds exactly what the exhaustive ranking does: the same memories
// with the same scores, ties at the k-th score included, over queries of
// common and rare words on a random corpus.
func TestTopKMatchesExhaustive(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	s, words := randomStore(t, t.TempDir(), 3000, r)
	checkTopK(t, s, words, r)
	checkDF(t, s)
}

func checkTopK(t *testing.T, s *Store, words []string, r *rand.Rand) {
	t.Helper()
	z := rand.NewZipf(r, 1.1, 2, uint64(len(words)-1))
	err := s.with(false, func(db *pebble.DB) error {
		st, err := readStats(db.Get)
		if err != nil {
			return err
		}
		for q := range 400 {
			var terms []string
			for range 1 + q%4 {
				terms = append(terms, words[z.Uint64()])
			}
			if q%7 == 0 {
				terms = append(terms, "absentword")
			}
			terms = uniqueTerms(strings.Join(terms, " "))
			k := []int{1, 3, 5, 10, 50}[q%5]
			all, err := bm25Scores(db, st, terms)
			if err != nil {
				return err
			}
			want := sortedCands(topCandidates(all, k))
			got, err := topK(db, st, terms, k)
			if err != nil {
				return err
			}
			if g := sortedCands(got); g != want {
				t.Errorf("query %q k=%d:\n topK       %s\n exhaustive %s", terms, k, g, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkDF checks that every term's document frequency record counts its
// postings, and that each posting has its impact twin.
func checkDF(t *testing.T, s *Store) {
	t.Helper()
	err := s.with(false, func(db *pebble.DB) error {
		count := map[string]uint64{}
		impacts := 0
		for _, p := range []byte{prefixPosting, prefixImpact} {
			it, _ := db.NewIter(&pebble.IterOptions{LowerBound: []byte{p}, UpperBound: []byte{p + 1}})
			for it.First(); it.Valid(); it.Next() {
				if p == prefixImpact {
					impacts++
					continue
				}
				k := it.Key()
				count[string(k[1:len(k)-9])]++
			}
			it.Close()
		}
		total := uint64(0)
		for term, n := range count {
			total += n
			if df, err := readDF(db, term); err != nil || df != n {
				t.Errorf("df(%q) = %d, %v; %d postings", term, df, err, n)
			}
		}
		if uint64(impacts) != total {
			t.Errorf("%d impact postings for %d postings", impacts, total)
		}
		it, _ := db.NewIter(&pebble.IterOptions{LowerBound: []byte{prefixTerm}, UpperBound: []byte{prefixTerm + 1}})
		for it.First(); it.Valid(); it.Next() {
			if count[string(it.Key()[1:])] == 0 {
				t.Errorf("df record of %q, which has no postings", it.Key()[1:])
			}
		}
		return it.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A version 1 store (no impact postings, no document frequencies) is
// migrated at open, its memories kept, and recalls as a new one does.
func TestMigrateV1(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	s, words := randomStore(t, dir, 500, r)
	s.Close()
	db, err := pebble.Open(filepath.Join(dir, "pebble"), &pebble.Options{Logger: quietLogger{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []byte{prefixImpact, prefixTerm} {
		if err := db.DeleteRange([]byte{p}, []byte{p + 1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	db.Set(schemaKey, binary.AppendUvarint(nil, 1), nil)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, dir)
	if n, err := s.Count(); err != nil || n == 0 {
		t.Fatalf("after migrating: %d memories, %v", n, err)
	}
	checkDF(t, s)
	checkTopK(t, s, words, r)
	if err := s.with(false, func(db *pebble.DB) error {
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
