package memory

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// topK returns the same candidates as topCandidates(bm25Scores(...), k):
// those scoring at least the k-th best score (ties included), best first,
// with their exact scores and matched-term counts. It reads each term's
// postings in impact order and stops as soon as no memory it has not
// seen can reach the k-th score (Fagin's threshold algorithm): every
// memory it meets is scored in full by looking its other terms up, and
// the sum of each term's best unread contribution bounds every unseen
// memory. A common word's postings, which the exhaustive scan reads in
// full (tens of thousands in a large store), are mostly never read.
//
// A term's impact postings are grouped by tf (keys.go), each group
// ordered by document length ascending, so its contributions descend
// within a group for any average length; the term's cursor merges its
// few groups by their heads.
func topK(db pebble.Reader, st stats, terms []string, k int) ([]cand, error) {
	contrib := st.contribution()
	var cursors []*termCursor
	defer func() {
		for _, c := range cursors {
			c.close()
		}
	}()
	idfs := make([]float64, len(terms))
	for i, t := range terms {
		df, err := readDF(db, t)
		if err != nil {
			return nil, err
		}
		if df == 0 {
			continue
		}
		idfs[i] = st.idf(df)
		c, err := openTermCursor(db, t, i, idfs[i], contrib)
		if err != nil {
			return nil, err
		}
		cursors = append(cursors, c)
	}

	seen := map[uint64]cand{}
	var heap []float64 // the k best scores so far, a min-heap
	for {
		// tau bounds the score of every memory not seen yet.
		tau, best := 0.0, (*termCursor)(nil)
		for _, c := range cursors {
			if b := c.bound(); b > 0 {
				tau += b
				if best == nil || b > best.bound() {
					best = c
				}
			}
		}
		if best == nil || (len(heap) == k && heap[0] > tau && !sameScore(heap[0], tau)) {
			break
		}
		id, tf, dl, err := best.pop()
		if err != nil {
			return nil, err
		}
		if _, ok := seen[id]; ok {
			continue
		}
		c := cand{id: id}
		for i, t := range terms {
			if idfs[i] == 0 {
				continue
			}
			ptf, pdl := tf, dl
			if i != best.term {
				var ok bool
				if ptf, pdl, ok, err = lookupPosting(db, t, id); err != nil {
					return nil, err
				} else if !ok {
					continue
				}
			}
			c.score += idfs[i] * contrib(ptf, pdl)
			c.n++
		}
		seen[id] = c
		switch {
		case len(heap) < k:
			heap = append(heap, c.score)
			if len(heap) == k {
				heapify(heap)
			}
		case c.score > heap[0]:
			heap[0] = c.score
			siftDown(heap, 0)
		}
	}
	cands := make([]cand, 0, len(seen))
	for _, c := range seen {
		cands = append(cands, c)
	}
	return topCandidates(cands, k), nil
}

// lookupPosting reads term's posting of memory id (ok false: none).
func lookupPosting(db pebble.Reader, term string, id uint64) (tf, dl float64, ok bool, err error) {
	v, closer, err := db.Get(postingKey(term, id))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, 0, false, nil
	}
	if err != nil {
		return 0, 0, false, err
	}
	defer closer.Close()
	t, n := binary.Uvarint(v)
	d, m := binary.Uvarint(v[max(n, 0):])
	if n <= 0 || m <= 0 {
		return 0, 0, false, fmt.Errorf("corrupt posting of %q for memory %d", term, id)
	}
	return float64(t), float64(d), true, nil
}

// termCursor reads one term's impact postings, best contribution first.
type termCursor struct {
	term   int // index in the query's terms
	idf    float64
	groups []*impactGroupIter
}

// impactGroupIter is the postings of one tf group, positioned at its head.
type impactGroupIter struct {
	it     *pebble.Iterator
	plen   int // length of the term's impact prefix
	tf, dl float64
	id     uint64
	head   float64 // the head's contribution (an upper bound for tf >= 255)
	cap    bool    // the tf >= 255 group
	valid  bool

	contrib func(tf, dl float64) float64
}

func openTermCursor(db pebble.Reader, term string, index int, idf float64, contrib func(tf, dl float64) float64) (*termCursor, error) {
	c := &termCursor{term: index, idf: idf}
	prefix := impactPrefix(term)
	// The groups present: each one's first key gives its tf byte, and the
	// next group starts after it.
	from := prefix
	for {
		probe, err := db.NewIter(&pebble.IterOptions{LowerBound: from, UpperBound: upperBound(prefix)})
		if err != nil {
			c.close()
			return nil, err
		}
		ok := probe.First()
		var g byte
		if ok {
			g = probe.Key()[len(prefix)]
		}
		if err := errors.Join(probe.Error(), probe.Close()); err != nil {
			c.close()
			return nil, err
		}
		if !ok {
			return c, nil
		}
		lo := append(append([]byte(nil), prefix...), g)
		it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: upperBound(lo)})
		if err != nil {
			c.close()
			return nil, err
		}
		gi := &impactGroupIter{it: it, plen: len(prefix), cap: g == 0}
		c.groups = append(c.groups, gi)
		gi.valid = it.First()
		if err := gi.load(contrib); err != nil {
			c.close()
			return nil, err
		}
		if g == 0xff {
			return c, nil
		}
		from = append(append([]byte(nil), prefix...), g+1)
	}
}

// load decodes the iterator's current posting into the group's head.
func (g *impactGroupIter) load(contrib func(tf, dl float64) float64) error {
	if !g.valid {
		return g.it.Error()
	}
	key, v := g.it.Key(), g.it.Value()
	tf, n := binary.Uvarint(v)
	if n <= 0 || len(key) != g.plen+1+4+8 {
		return fmt.Errorf("corrupt impact posting %x", key)
	}
	g.tf = float64(tf)
	g.dl = float64(binary.BigEndian.Uint32(key[g.plen+1:]))
	g.id = binary.BigEndian.Uint64(key[g.plen+5:])
	g.head = contrib(g.tf, g.dl)
	if g.cap {
		g.head = bm25K1 + 1 // tf >= 255: the group is not in contribution order
	}
	g.contrib = contrib
	return nil
}

// bound is the best contribution among the term's unread postings (0
// when none is left).
func (c *termCursor) bound() float64 {
	best := 0.0
	for _, g := range c.groups {
		if g.valid && g.head > best {
			best = g.head
		}
	}
	return c.idf * best
}

// pop returns the posting with the best contribution and moves past it.
func (c *termCursor) pop() (id uint64, tf, dl float64, err error) {
	var top *impactGroupIter
	for _, g := range c.groups {
		if g.valid && (top == nil || g.head > top.head) {
			top = g
		}
	}
	id, tf, dl = top.id, top.tf, top.dl
	top.valid = top.it.Next()
	return id, tf, dl, top.load(top.contrib)
}

func (c *termCursor) close() {
	for _, g := range c.groups {
		g.it.Close()
	}
}
