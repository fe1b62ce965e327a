package repomap

import (
	"math"
	"path"
	"slices"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/graph"
)

// PageRank parameters: the usual damping, and enough iterations for the
// L1 change to fall below epsilon on workspace-sized graphs (GOROOT/src
// converges in about 40).
const (
	damping    = 0.85
	maxIter    = 100
	epsilon    = 1e-6
	focusShare = 0.5 // share of the teleport mass given to focus files
)

// link is one weighted edge of the file graph. to is a file index, or
// for an import of a directory unit, len(paths) plus the unit's index.
type link struct {
	to int32
	w  float64
}

// unit is a package directory: an import of it is shared among its files
// by share. Routing through the unit keeps the graph linear in the number
// of imports (expanded per file, an import of GOROOT's runtime would be
// hundreds of edges).
type unit struct {
	files []int32
	share []float64
}

// fileGraph is the import and reference graph over files.
type fileGraph struct {
	paths  []string
	byPath map[string]int32
	units  []unit
	// The links in compressed rows: node i's are to[off[i]:off[i+1]],
	// with weights nw normalised to sum to 1 per node. out and outSum
	// hold them while the graph is built (add), until compile.
	off    []int32
	to     []int32
	nw     []float64
	out    [][]link
	outSum []float64
	// global is the ranking without focus, computed once, the starting
	// point of every focused one.
	global []float64
}

// newFileGraph links the indexed files hs by their references (refs.go)
// and by those of g's resolved imports the references do not explain.
func newFileGraph(names *nameCache, hs []index.FileHeader, g *graph.Graph) *fileGraph {
	fg := &fileGraph{byPath: make(map[string]int32, len(hs))}
	symbols := make([]float64, 0, len(hs))
	byDir := map[string][]int32{}
	dirID := map[string]int32{}
	var dirs []int32 // per node
	ids := make(map[uint32]int32, len(hs))
	for _, h := range hs {
		if h.Status == index.StatusSkipped {
			continue
		}
		i := int32(len(fg.paths))
		fg.paths = append(fg.paths, h.Path)
		fg.byPath[h.Path] = i
		ids[h.ID] = i
		symbols = append(symbols, float64(h.Symbols))
		d := path.Dir(h.Path)
		byDir[d] = append(byDir[d], i)
		if _, ok := dirID[d]; !ok {
			dirID[d] = int32(len(dirID))
		}
		dirs = append(dirs, dirID[d])
	}
	n := len(fg.paths)
	fg.out = make([][]link, n)
	fg.outSum = make([]float64, n)
	scopes := make([]scope, n)
	unitOf := map[string]int32{}
	for i, p := range fg.paths {
		sc := &scopes[i]
		sc.dirs = []int32{dirs[i]}
		for _, e := range g.Deps(p) {
			if !e.Resolved || e.External || e.To == "" {
				continue
			}
			if !e.ToDir {
				if j, ok := fg.byPath[e.To]; ok && int(j) != i && !slices.Contains(sc.files, j) {
					sc.files = append(sc.files, j)
				}
				continue
			}
			if e.To == path.Dir(p) {
				continue // an external test importing its own package
			}
			files := byDir[e.To]
			if len(files) == 0 {
				continue
			}
			u, ok := unitOf[e.To]
			if !ok {
				u = int32(len(fg.units))
				unitOf[e.To] = u
				fg.units = append(fg.units, newUnit(files, symbols))
			}
			if !slices.Contains(sc.units, u) {
				sc.dirs, sc.units = append(sc.dirs, dirID[e.To]), append(sc.units, u)
			}
		}
	}
	refs := referenceLinks(names, ids, dirs, len(dirID), scopes)
	for i := range fg.paths {
		fg.link(int32(i), refs[i], scopes[i], dirs)
	}
	fg.compile()
	fg.global = fg.rank(nil, nil)
	return fg
}

// link adds a file's reference links, then an import link (weight 1, as
// much as one name) for each import none of them falls in: one whose
// names the index does not see, or a package imported for its effects.
func (fg *fileGraph) link(i int32, refs []link, sc scope, dirs []int32) {
	for _, l := range refs {
		fg.add(i, l)
	}
	for _, f := range sc.files {
		if !slices.ContainsFunc(refs, func(l link) bool { return l.to == f }) {
			fg.add(i, link{f, 1})
		}
	}
	for k, u := range sc.units {
		d := sc.dirs[k+1]
		if !slices.ContainsFunc(refs, func(l link) bool { return dirs[l.to] == d }) {
			fg.add(i, link{int32(len(fg.paths)) + u, 1})
		}
	}
}

// newUnit shares a directory among its files by symbol count (plus one,
// so a file without symbols still gets a little).
func newUnit(files []int32, symbols []float64) unit {
	u := unit{files: files, share: make([]float64, len(files))}
	total := 0.0
	for _, f := range files {
		total += symbols[f] + 1
	}
	for i, f := range files {
		u.share[i] = (symbols[f] + 1) / total
	}
	return u
}

func (fg *fileGraph) add(from int32, l link) {
	fg.out[from] = append(fg.out[from], l)
	fg.outSum[from] += l.w
}

// compile turns the adjacency lists into flat arrays with each link's
// weight divided by its file's total: PageRank walks every link each
// iteration, and on GOROOT/src (about 330k links) the flat layout is
// several times faster than a slice per file.
func (fg *fileGraph) compile() {
	fg.off = make([]int32, len(fg.out)+1)
	total := 0
	for _, ls := range fg.out {
		total += len(ls)
	}
	fg.to, fg.nw = make([]int32, 0, total), make([]float64, 0, total)
	for i, ls := range fg.out {
		for _, l := range ls {
			fg.to, fg.nw = append(fg.to, l.to), append(fg.nw, l.w/fg.outSum[i])
		}
		fg.off[i+1] = int32(len(fg.to))
	}
	fg.out, fg.outSum = nil, nil
}

// rank runs personalised PageRank; focus are node indexes. start, when
// not nil, is where the iteration starts (the ranking without focus,
// which a focus changes little, so fewer iterations reach epsilon).
func (fg *fileGraph) rank(focus []int32, start []float64) []float64 {
	n := len(fg.paths)
	if n == 0 {
		return nil
	}
	tele := make([]float64, n)
	base := 1.0
	if len(focus) > 0 {
		base = 1 - focusShare
		for _, f := range focus {
			tele[f] += focusShare / float64(len(focus))
		}
	}
	for i := range tele {
		tele[i] += base / float64(n)
	}
	pr := make([]float64, n, n+len(fg.units))
	if start != nil {
		copy(pr, start)
	} else {
		copy(pr, tele)
	}
	// next has a slot per file, then one per unit.
	next := make([]float64, n+len(fg.units))
	for range maxIter {
		dangling := 0.0
		clear(next)
		for i := range n {
			lo, hi := fg.off[i], fg.off[i+1]
			if lo == hi {
				dangling += pr[i]
				continue
			}
			p := pr[i]
			for k := lo; k < hi; k++ {
				next[fg.to[k]] += p * fg.nw[k]
			}
		}
		for u, un := range fg.units {
			in := next[n+u]
			for k, f := range un.files {
				next[f] += in * un.share[k]
			}
		}
		next = next[:n]
		diff := 0.0
		for i := range next {
			v := damping*(next[i]+dangling*tele[i]) + (1-damping)*tele[i]
			diff += math.Abs(v - pr[i])
			next[i] = v
		}
		pr, next = next, pr[:cap(pr)]
		if diff < epsilon {
			break
		}
	}
	return pr
}
