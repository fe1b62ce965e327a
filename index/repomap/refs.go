package repomap

import "slices"

// Reference links. Imports say which packages a file depends on, not how
// much nor on which of their files: a file that calls twenty functions of
// one file of a package and imports another for one constant sends both
// the same rank. So every file also links to the files declaring the
// names it references (the index's 'n' and 's' records, kept across
// generations by nameCache), weighted by how many distinct names it uses from
// each. Names are matched by spelling only, so a name is credited to:
//
//   - nobody when the file declares it itself (a local use);
//   - else its declarers in the file's scope (its own directory, the
//     files and package directories its resolved imports name), shared
//     equally;
//   - else, for a file none of whose imports resolves (a language or a
//     layout index/graph cannot follow), its declarers anywhere when at
//     most maxDeclarers files declare it, shared equally;
//   - else nobody: a name declared in many files ("String", "Close", "New")
//     says nothing about which one the file means, and a file whose
//     imports resolve names what it uses through them. (Crediting such
//     files' out-of-scope names too ranked Go's builtin.go and test-data
//     files declaring common names first on GOROOT/src.)
//
// A name thus moves one unit of weight in total, like an import edge, and
// a file's rank flows mostly to the files it uses most.
const maxDeclarers = 4

// scope is what one file sees without qualification or through imports:
// directory IDs (its own first, then those of the imported package
// directories, whose units are units[k] for dirs[k+1]) and the files it
// imports directly.
type scope struct {
	dirs  []int32
	units []int32
	files []int32
}

// scopeSet answers "is this node in the current file's scope" in O(1):
// a name can have hundreds of declarers.
type scopeSet struct {
	dirs  []bool // by directory ID
	files []bool // by node
	cur   scope
}

func (s *scopeSet) enter(sc scope) {
	s.leave()
	for _, d := range sc.dirs {
		s.dirs[d] = true
	}
	for _, f := range sc.files {
		s.files[f] = true
	}
	s.cur = sc
}

func (s *scopeSet) leave() {
	for _, d := range s.cur.dirs {
		s.dirs[d] = false
	}
	for _, f := range s.cur.files {
		s.files[f] = false
	}
}

func (s *scopeSet) has(dirs []int32, f int32) bool { return s.dirs[dirs[f]] || s.files[f] }

// referenceLinks returns each node's reference links from the names of
// names; ids maps store file IDs to node indexes, dirs gives each node's
// directory ID and scopes its scope.
func referenceLinks(names *nameCache, ids map[uint32]int32, dirs []int32, ndirs int, scopes []scope) [][]link {
	decl := make([][]int32, len(names.ids)) // declaring nodes per name, each once
	for id, fn := range names.files {
		f, ok := ids[id]
		if !ok {
			continue
		}
		for _, n := range fn.decls {
			if d := decl[n]; len(d) == 0 || d[len(d)-1] != f {
				decl[n] = append(d, f)
			}
		}
	}
	out := make([][]link, len(dirs))
	w := make([]float64, len(dirs))
	var touched []int32
	sc := scopeSet{dirs: make([]bool, ndirs), files: make([]bool, len(dirs))}
	credit := func(to int32, v float64) {
		if w[to] == 0 {
			touched = append(touched, to)
		}
		w[to] += v
	}
	for id, fn := range names.files {
		a, ok := ids[id]
		if !ok {
			continue
		}
		sc.enter(scopes[a])
		resolved := len(scopes[a].dirs) > 1 || len(scopes[a].files) > 0
		for _, k := range fn.refs {
			ds := decl[k]
			if len(ds) == 0 || slices.Contains(ds, a) {
				continue
			}
			in := 0
			for _, d := range ds {
				if sc.has(dirs, d) {
					in++
				}
			}
			switch {
			case in > 0:
				for _, d := range ds {
					if sc.has(dirs, d) {
						credit(d, 1/float64(in))
					}
				}
			case !resolved && len(ds) <= maxDeclarers:
				for _, d := range ds {
					credit(d, 1/float64(len(ds)))
				}
			}
		}
		slices.Sort(touched) // deterministic link order, hence scores
		ls := make([]link, len(touched))
		for k, t := range touched {
			ls[k] = link{t, w[t]}
			w[t] = 0
		}
		out[a], touched = ls, touched[:0]
	}
	return out
}
