package vector

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

// newNode is a vector on its way into the graph: prepare draws its level
// and chooses its links, commit adds it.
type newNode struct {
	key   uint64
	vec   []float32 // unit length
	level int
	links [][]int32 // by level; nodes from base on are the batch's own
}

// add inserts one node (a batch of one). Precondition: key is not in the
// graph and vec is a unit vector of h.dim dimensions.
func (h *hnswGraph) add(key uint64, vec []float32) {
	batch := []newNode{{key: key, vec: vec}}
	h.commit(h.prepare(batch, 1), batch)
}

// prepare is the search half of algorithm 1 for a batch of new nodes,
// reading the graph only, on up to workers goroutines. Each node's
// candidates are those the graph search finds plus the batch's other
// nodes of its level (which the graph does not hold yet), so nodes of one
// batch link to each other as if inserted one by one. It returns the
// number of nodes in the graph, the first new node's number.
func (h *hnswGraph) prepare(batch []newNode, workers int) int {
	for i := range batch {
		level := int(-math.Log(1-h.rng.Float64()) * h.ml)
		batch[i].level = min(level, 32)
	}
	base := len(h.keys)
	if workers <= 1 || len(batch) == 1 {
		var s searcher
		for i := range batch {
			h.plan(&s, batch, i, base)
		}
		return base
	}
	var wg sync.WaitGroup
	next := make(chan int, len(batch))
	for i := range batch {
		next <- i
	}
	close(next)
	for range min(workers, len(batch)) {
		wg.Go(func() {
			var s searcher
			for i := range next {
				h.plan(&s, batch, i, base)
			}
		})
	}
	wg.Wait()
	return base
}

// plan chooses batch[i]'s links on each of its levels.
func (h *hnswGraph) plan(s *searcher, batch []newNode, i, base int) {
	x := &batch[i]
	vecOf := func(n int32) []float32 {
		if int(n) >= base {
			return batch[int(n)-base].vec
		}
		return h.vec(n)
	}
	x.links = make([][]int32, x.level+1)
	var eps []cand
	if h.entry >= 0 {
		eps = []cand{{h.entry, h.dist(x.vec, h.entry)}}
		for l := h.top; l > x.level; l-- {
			eps = h.searchLayer(s, x.vec, eps, 1, l)[:1]
		}
	}
	for l := x.level; l >= 0; l-- {
		var w []cand
		if h.entry >= 0 && l <= h.top {
			w = h.searchLayer(s, x.vec, eps, h.efConstruction, l)
			eps = w
		}
		peers := false
		for j := range batch {
			if j != i && batch[j].level >= l {
				if !peers { // copy, so that eps is not reordered
					w, peers = slices.Clip(w), true
				}
				w = append(w, cand{int32(base + j), 1 - dot(x.vec, batch[j].vec)})
			}
		}
		if peers {
			slices.SortFunc(w, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
			w = w[:min(len(w), h.efConstruction)]
		}
		x.links[l] = selectNeighbors(w, h.m, vecOf)
	}
}

// commit adds a prepared batch (base is what prepare returned) and links
// its nodes' neighbours back to them.
func (h *hnswGraph) commit(base int, batch []newNode) {
	if base != len(h.keys) {
		panic("vector: graph changed between prepare and commit")
	}
	for i, x := range batch {
		n := int32(base + i)
		h.keys = append(h.keys, x.key)
		h.appendVec(x.vec)
		h.links = append(h.links, x.links)
		h.byKey[x.key] = n
	}
	for i, x := range batch {
		n := int32(base + i)
		for l, nbs := range x.links {
			for _, nb := range nbs {
				h.link(nb, n, l)
			}
		}
		if h.entry < 0 || x.level > h.top {
			h.entry, h.top = n, x.level
		}
	}
}

// selectNeighbors is algorithm 4 (the heuristic, keeping pruned
// candidates to fill up to m): a candidate is kept when it is nearer to
// the base than to any neighbour kept so far, which spreads links across
// directions. cands are nearest first.
func selectNeighbors(cands []cand, m int, vecOf func(int32) []float32) []int32 {
	out := make([]int32, 0, m)
	var pruned []int32
	for _, c := range cands {
		if len(out) >= m {
			break
		}
		good := true
		for _, r := range out {
			if 1-dot(vecOf(c.node), vecOf(r)) < c.d {
				good = false
				break
			}
		}
		if good {
			out = append(out, c.node)
		} else {
			pruned = append(pruned, c.node)
		}
	}
	for _, p := range pruned {
		if len(out) >= m {
			break
		}
		out = append(out, p)
	}
	return out
}

func (h *hnswGraph) maxLinks(level int) int {
	if level == 0 {
		return h.m0
	}
	return h.m
}

// link adds the edge from -> to at level, unless it is there (two nodes
// of one batch may choose each other); when from's links overflow, the
// farthest one goes. (Re-running the heuristic here, as the paper does,
// cost a third of the insert time for no measurable recall on the
// benchmark; the new node's own links still use it.)
func (h *hnswGraph) link(from, to int32, level int) {
	ls := h.links[from][level]
	if slices.Contains(ls, to) {
		return
	}
	ls = append(ls, to)
	if len(ls) > h.maxLinks(level) {
		worst, wd := 0, float32(-2)
		fv := h.vec(from)
		for i, x := range ls {
			if d := 1 - dot(fv, h.vec(x)); d > wd {
				worst, wd = i, d
			}
		}
		ls[worst] = ls[len(ls)-1]
		ls = ls[:len(ls)-1]
	}
	h.links[from][level] = ls
}
