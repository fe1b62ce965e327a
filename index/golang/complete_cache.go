package golang

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/parleyhq/parley/index"
	"github.com/parleyhq/parley/index/extract"
)

// goDirs is the store's Go files by directory, rebuilt when a path comes
// or goes (index.Store.PathGen), and each directory's symbols by
// container, kept while its files' content hashes are unchanged: a
// completion asks for them at every keystroke, and every keystroke writes
// the buffer to the store, so neither can follow WriteGen. Kept with the
// store (index.Store.Attach).
type goDirs struct {
	mu    sync.Mutex
	gen   uint64
	dirs  []goDir
	st    *index.Store
	byDir map[string]*dirSymbols
	refs  map[string]*dirRefs
	files map[string]hashedSymbols
}

// hashedSymbols is a file's decoded symbols and the content hash they
// were read at: a directory whose one file changed (the buffer being
// edited) decodes that file again, not the others.
type hashedSymbols struct {
	hash uint64
	syms []extract.Symbol
}

// dirSymbols is one directory's symbols by container ("" for the
// top-level ones), and the digest of its files' hashes they were read at.
type dirSymbols struct {
	sum         uint64
	byContainer map[string][]index.SymbolHit

	// api is the directory's exported API by the port a requesting
	// file builds on (exportedAPI): a package like syscall exports
	// thousands of names over hundreds of platform files, and
	// filtering them again at every keystroke cost tens of ms.
	mu  sync.Mutex
	api map[index.GoPort]dirAPI
}

// dirAPI is a directory's exported top-level declarations outside test
// files: those that build on one port (same), and all of them.
type dirAPI struct{ same, all []index.SymbolHit }

// exportedAPI is ds's dirAPI for port, computed once per port. The
// slices are shared: callers must not modify them.
func (ds *dirSymbols) exportedAPI(st *index.Store, port index.GoPort) dirAPI {
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if a, ok := ds.api[port]; ok {
		return a
	}
	var a dirAPI
	builds := portFilter(st, port)
	for _, h := range ds.byContainer[""] {
		if !h.Symbol.Exported || h.Symbol.Kind == extract.KindPackage || strings.HasSuffix(h.Path, "_test.go") {
			continue
		}
		a.all = append(a.all, h)
		if builds(h.Path) {
			a.same = append(a.same, h)
		}
	}
	if ds.api == nil {
		ds.api = map[index.GoPort]dirAPI{}
	}
	ds.api[port] = a
	return a
}

// dirRefs is the names a directory's files but one refer to, and the
// digest of those files' hashes they were read at.
type dirRefs struct {
	sum     uint64
	exclude string
	refs    map[string]bool
}

// refsOf is the names d's files other than exclude refer to (the
// package's own use of names, which ranks the members a completion
// offers; exclude is the buffer being typed, which changes at every
// keystroke and whose names the caller reads itself).
func (g *goDirs) refsOf(d goDir, exclude string) map[string]bool {
	var sum uint64
	for _, p := range d.files {
		if p != exclude {
			h, _ := g.st.Header(p)
			sum = sum*1099511628211 + h.Hash + 1
		}
	}
	g.mu.Lock()
	dr, ok := g.refs[d.dir]
	g.mu.Unlock()
	if ok && dr.sum == sum && dr.exclude == exclude {
		return dr.refs
	}
	dr = &dirRefs{sum: sum, exclude: exclude, refs: map[string]bool{}}
	for _, p := range d.files {
		if p == exclude {
			continue
		}
		refs, _, err := g.st.FileNames(p)
		if err != nil {
			continue
		}
		for _, r := range refs {
			dr.refs[r] = true
		}
	}
	g.mu.Lock()
	if g.refs == nil || len(g.refs) >= maxCachedDirs {
		g.refs = make(map[string]*dirRefs, 16)
	}
	g.refs[d.dir] = dr
	g.mu.Unlock()
	return dr.refs
}

// dirOf is the directory entry of dir, ok false when it has no Go files.
func (g *goDirs) dirOf(dir string) (goDir, bool) {
	dirs := g.list()
	i, ok := slices.BinarySearchFunc(dirs, dir, func(d goDir, dir string) int { return strings.Compare(d.dir, dir) })
	if !ok {
		return goDir{}, false
	}
	return dirs[i], true
}

// maxCachedDirs bounds byDir (a few hundred directories are touched in
// an editing session; tens of MB on GOROOT/src at most).
const maxCachedDirs = 1024

// symbolsOf returns d's symbol table, read again when one of its files
// changed.
func (g *goDirs) symbolsOf(d goDir) *dirSymbols {
	var sum uint64
	hashes := make([]uint64, len(d.files))
	for i, p := range d.files {
		h, _ := g.st.Header(p)
		hashes[i] = h.Hash
		sum = sum*1099511628211 + h.Hash + 1
	}
	g.mu.Lock()
	ds, ok := g.byDir[d.dir]
	g.mu.Unlock()
	if ok && ds.sum == sum {
		return ds
	}
	ds = &dirSymbols{sum: sum, byContainer: map[string][]index.SymbolHit{}}
	for i, p := range d.files {
		syms, err := g.fileSymbols(p, hashes[i])
		if err != nil {
			continue
		}
		for _, s := range syms {
			ds.byContainer[s.Container] = append(ds.byContainer[s.Container], index.SymbolHit{Path: p, Symbol: s})
		}
	}
	g.mu.Lock()
	if g.byDir == nil || len(g.byDir) >= maxCachedDirs {
		g.byDir = make(map[string]*dirSymbols, 64)
	}
	g.byDir[d.dir] = ds
	g.mu.Unlock()
	return ds
}

type goDir struct {
	dir   string
	files []string
}

type goDirsKey struct{}

func goDirsOf(s *index.Store) *goDirs {
	return s.Attach(goDirsKey{}, func() any { return &goDirs{st: s, gen: ^uint64(0)} }).(*goDirs)
}

func (g *goDirs) list() []goDir {
	gen := g.st.PathGen()
	g.mu.Lock()
	defer g.mu.Unlock()
	if gen == g.gen {
		return g.dirs
	}
	byDir := map[string][]string{}
	for _, h := range g.st.Files() {
		if strings.HasSuffix(h.Path, ".go") {
			d := path.Dir(h.Path)
			byDir[d] = append(byDir[d], h.Path)
		}
	}
	g.dirs = g.dirs[:0:0]
	for d, files := range byDir {
		slices.Sort(files)
		g.dirs = append(g.dirs, goDir{d, files})
	}
	slices.SortFunc(g.dirs, func(a, b goDir) int { return strings.Compare(a.dir, b.dir) })
	g.gen = gen
	return g.dirs
}

// fileSymbols is p's symbols, decoded again only when its hash changed.
func (g *goDirs) fileSymbols(p string, hash uint64) ([]extract.Symbol, error) {
	g.mu.Lock()
	e, ok := g.files[p]
	g.mu.Unlock()
	if ok && e.hash == hash {
		return e.syms, nil
	}
	syms, err := g.st.Symbols(p)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	if g.files == nil || len(g.files) >= maxCachedFiles {
		g.files = make(map[string]hashedSymbols, 256)
	}
	g.files[p] = hashedSymbols{hash, syms}
	g.mu.Unlock()
	return syms, nil
}
