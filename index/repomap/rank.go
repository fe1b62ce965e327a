package repomap

import (
	"math"
	"path"

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

// fileGraph is the import graph over files.
type fileGraph struct {
	paths  []string
	byPath map[string]int32
	out    [][]link
	outSum []float64
	units  []unit
}

// newFileGraph expands g's edges between the indexed files hs.
func newFileGraph(hs []index.FileHeader, g *graph.Graph) *fileGraph {
	fg := &fileGraph{byPath: make(map[string]int32, len(hs))}
	symbols := make([]float64, 0, len(hs))
	byDir := map[string][]int32{}
	for _, h := range hs {
		if h.Status == index.StatusSkipped {
			continue
		}
		i := int32(len(fg.paths))
		fg.paths = append(fg.paths, h.Path)
		fg.byPath[h.Path] = i
		symbols = append(symbols, float64(h.Symbols))
		d := path.Dir(h.Path)
		byDir[d] = append(byDir[d], i)
	}
	fg.out = make([][]link, len(fg.paths))
	fg.outSum = make([]float64, len(fg.paths))
	unitOf := map[string]int32{}
	for i, p := range fg.paths {
		for _, e := range g.Deps(p) {
			if !e.Resolved || e.External || e.To == "" {
				continue
			}
			if !e.ToDir {
				if j, ok := fg.byPath[e.To]; ok && int(j) != i {
					fg.add(int32(i), link{j, 1})
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
			fg.add(int32(i), link{int32(len(fg.paths)) + u, 1})
		}
	}
	return fg
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

// rank runs personalised PageRank; focus are node indexes.
func (fg *fileGraph) rank(focus []int32) []float64 {
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
	copy(pr, tele)
	// next has a slot per file, then one per unit.
	next := make([]float64, n+len(fg.units))
	for range maxIter {
		dangling := 0.0
		clear(next)
		for i, ls := range fg.out {
			if len(ls) == 0 {
				dangling += pr[i]
				continue
			}
			share := pr[i] / fg.outSum[i]
			for _, l := range ls {
				next[l.to] += share * l.w
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
