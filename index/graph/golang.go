package graph

import (
	"slices"
	"strings"
)

// goModule is one go.mod of the workspace, or the part of a module
// enclosing the root that lies inside it (see addEnv).
type goModule struct {
	path string // module path
	dir  string // directory holding go.mod
	// enclosing marks a module whose go.mod is above the root: its
	// vendor directory is not the root's.
	enclosing bool
}

type goState struct {
	byPath map[string][]*goModule // module path -> modules, sorted by dir
	byDir  map[string]*goModule   // module directory -> module
	std    []*goModule            // modules named "std" (GOROOT/src)
	goDirs map[string]bool        // directories holding a .go file
	encl   map[string]*goModule   // cache: directory -> innermost module
	// dupPaths is set when two modules share a module path; the choice
	// between them then depends on the importing directory.
	dupPaths bool
	// memo caches non-relative resolutions. The outcome depends on the
	// importing file only through its innermost module (vendor directory,
	// enclosing-module preference), or its directory when dupPaths.
	memo map[goKey]target
	// gopath is the import path prefix of the workspace root, guessed from
	// the imports when the workspace has no go.mod; "" if none.
	gopath string
	// outside holds the paths of modules that are (at least partly)
	// outside the root: an import under one that does not resolve inside
	// the root is external.
	outside map[string]bool
}

type goKey struct {
	mod      *goModule
	dir, imp string
}

func (ix *index) goInit() *goState {
	if ix.goSt != nil {
		return ix.goSt
	}
	st := &goState{
		byPath:  make(map[string][]*goModule),
		byDir:   make(map[string]*goModule),
		goDirs:  make(map[string]bool),
		encl:    make(map[string]*goModule),
		memo:    make(map[goKey]target),
		outside: make(map[string]bool),
	}
	for _, p := range ix.order {
		if strings.HasSuffix(p, ".go") {
			st.goDirs[dirOf(p)] = true
		}
	}
	for _, p := range ix.configs["go.mod"] {
		if mp := goModulePath(p, ix.readConfig(p)); mp != "" {
			st.add(&goModule{path: mp, dir: dirOf(p)})
		}
	}
	st.addEnv(ix.env.GoModules)
	if len(st.byDir) == 0 {
		st.gopath = ix.guessGopathPrefix(st.goDirs)
	}
	ix.goSt = st
	return st
}

func (st *goState) add(m *goModule) {
	if st.byDir[m.dir] == nil {
		st.byDir[m.dir] = m
	}
	st.byPath[m.path] = append(st.byPath[m.path], m)
	st.dupPaths = st.dupPaths || len(st.byPath[m.path]) > 1
	if m.path == "std" && !m.enclosing {
		st.std = append(st.std, m)
	}
}

// addEnv adds the modules whose go.mod is outside the root. One enclosing
// the root becomes a module at "." whose path is the root's import path
// (module path plus the root's directory in the module; no prefix in
// module std, whose packages have none), unless the root has a go.mod of
// its own. Every outside module's path is remembered, so that what it
// holds outside the root is known to be external.
func (st *goState) addEnv(mods []GoModule) {
	own := st.byDir["."] != nil
	for _, em := range mods { // enclosing ones first, innermost first
		if em.Path == "" {
			continue
		}
		if em.Path != "std" {
			st.outside[em.Path] = true
		}
		if !em.Encloses || own {
			continue
		}
		m := &goModule{path: em.Path, dir: ".", enclosing: em.Sub != "." && em.Sub != ""}
		if m.enclosing {
			if em.Path == "std" {
				m.path = em.Sub
			} else {
				m.path = em.Path + "/" + em.Sub
			}
		}
		st.add(m)
	}
}

// guessGopathPrefix finds the import path prefix under which the
// workspace's directories are imported, in a GOPATH layout without go.mod:
// the prefix X (host-like first element) for which the most imports X+"/"+D
// name a Go directory D of the workspace; ties go to the longer prefix.
// An import naming the root directory itself (X alone) is weaker evidence,
// as every third-party import has that shape: such votes only add to a
// prefix that has others, or decide when there are none, and never come
// from the root's own files (a package does not import itself).
func (ix *index) guessGopathPrefix(goDirs map[string]bool) string {
	votes := make(map[string]int)
	rootVotes := make(map[string]int)
	for _, p := range ix.order {
		if ix.files[p].lang != "go" {
			continue
		}
		inRoot := dirOf(p) == "."
		for _, imp := range ix.files[p].Imports {
			if isGoStdPath(imp.Path) {
				continue
			}
			for i := strings.IndexByte(imp.Path, '/'); i >= 0; {
				if goDirs[imp.Path[i+1:]] {
					votes[imp.Path[:i]]++
				}
				j := strings.IndexByte(imp.Path[i+1:], '/')
				if j < 0 {
					break
				}
				i += j + 1
			}
			if goDirs["."] && !inRoot {
				rootVotes[imp.Path]++
			}
		}
	}
	if len(votes) == 0 {
		votes = rootVotes
	} else {
		for pre := range votes {
			votes[pre] += rootVotes[pre]
		}
	}
	best, n := "", 0
	for pre, v := range votes {
		if v > n || (v == n && (len(pre) > len(best) || (len(pre) == len(best) && pre < best))) {
			best, n = pre, v
		}
	}
	return best
}

// enclosing returns the innermost module whose directory contains dir.
func (st *goState) enclosing(dir string) *goModule {
	return nearestUp(st.byDir, st.encl, dir)
}

// resolveGo resolves a Go import path to a package directory.
func (ix *index) resolveGo(f *node, p string) target {
	st := ix.goInit()
	found := func(d string) target {
		return target{to: d, dir: true, unitFam: "go"}
	}
	if p == "C" {
		return target{ext: true} // cgo pseudo-package
	}
	dir := dirOf(f.Path)
	if strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		if d, ok := joinRel(dir, p); ok && st.goDirs[d] {
			return found(d)
		}
		return target{}
	}
	mod := st.enclosing(dir)
	key := goKey{mod: mod, imp: p}
	if st.dupPaths {
		key.dir = dir
	}
	if t, ok := st.memo[key]; ok {
		return t
	}
	t := target{}
	if d := st.lookup(mod, p, dir); d != "" {
		t = found(d)
	} else if d, m := st.byModulePath(p, dir); d != "" {
		t = found(d)
	} else {
		std := isGoStdPath(p)
		t.ext = m == matchOutside || (m == matchNone && (!std || len(st.std) == 0))
		if d := st.gopathDir(p, std); d != "" {
			t = found(d)
		}
	}
	st.memo[key] = t
	return t
}

// lookup tries the enclosing module's vendor directory, then, for
// standard-library-looking paths, the "std" modules (GOROOT/src).
func (st *goState) lookup(mod *goModule, p, fromDir string) string {
	if mod != nil && !mod.enclosing {
		if d := joinDir(mod.dir, "vendor/"+p); st.goDirs[d] {
			return d
		}
	}
	if isGoStdPath(p) {
		for _, m := range st.preferEnclosing(st.std, fromDir) {
			if d := joinDir(m.dir, p); st.goDirs[d] {
				return d
			}
		}
	}
	return ""
}

// joinDir joins a clean directory and a relative path without cleaning:
// a non-clean result can never equal a (clean) workspace directory, so
// lookups stay correct and allocation-light.
func joinDir(dir, rel string) string {
	if rel == "" {
		return dir
	}
	if dir == "." {
		return rel
	}
	return dir + "/" + rel
}

// moduleMatch says which kind of module an unresolved import belongs to.
type moduleMatch int

const (
	matchNone      moduleMatch = iota
	matchWorkspace             // a module inside the root: not external
	matchOutside               // a module outside the root: external
)

// byModulePath maps p through the workspace modules, longest module path
// first. When no directory matches, m reports the longest module path
// that is a prefix of p: an unresolved import of a workspace module is not
// external, one of a module outside the root is.
func (st *goState) byModulePath(p, fromDir string) (dir string, m moduleMatch) {
	for q := p; ; {
		if ms := st.byPath[q]; ms != nil && q != "std" {
			rest := strings.TrimPrefix(p[len(q):], "/")
			for _, mod := range st.preferEnclosing(ms, fromDir) {
				if d := joinDir(mod.dir, rest); st.goDirs[d] {
					return d, matchWorkspace
				}
			}
			if m == matchNone {
				m = matchWorkspace
			}
		}
		if m == matchNone && st.outside[q] {
			m = matchOutside
		}
		i := strings.LastIndexByte(q, '/')
		if i < 0 {
			return "", m
		}
		q = q[:i]
	}
}

// preferEnclosing orders modules so that those containing fromDir come
// first, innermost first, then the others by the number of leading
// directory elements they share with fromDir.
func (st *goState) preferEnclosing(ms []*goModule, fromDir string) []*goModule {
	if len(ms) < 2 {
		return ms
	}
	out := slices.Clone(ms)
	score := func(m *goModule) int {
		if m.dir == "." || fromDir == m.dir || strings.HasPrefix(fromDir, m.dir+"/") {
			return 1<<20 + len(m.dir)
		}
		return sharedDirs(fromDir+"/", m.dir+"/")
	}
	slices.SortStableFunc(out, func(a, b *goModule) int { return score(b) - score(a) })
	return out
}

// gopathDir serves workspaces without go.mod (GOPATH layouts): p is the
// guessed root prefix plus a Go directory, or itself a Go directory (the
// root is GOPATH/src) unless it looks like a standard library path.
func (st *goState) gopathDir(p string, std bool) string {
	if len(st.byDir) > 0 {
		return ""
	}
	if st.gopath != "" {
		if p == st.gopath && st.goDirs["."] {
			return "."
		}
		if rest, ok := strings.CutPrefix(p, st.gopath+"/"); ok && st.goDirs[rest] {
			return rest
		}
	}
	if !std && st.goDirs[p] {
		return p
	}
	return ""
}

func firstElem(p string) string {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return p
}

// isGoStdPath reports whether p looks like a standard library path: its
// first element has no dot.
func isGoStdPath(p string) bool {
	return !strings.Contains(firstElem(p), ".")
}
