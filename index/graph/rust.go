package graph

import (
	"path"
	"strings"
)

type rustState struct {
	cargo  map[string]string // directory holding Cargo.toml -> crate name ("" if none)
	crates map[string]string // crate name (underscored) -> its src directory
	upward map[string]string // cache: directory -> innermost Cargo.toml dir, "" if none
}

func (ix *index) rustInit() *rustState {
	if ix.rustSt != nil {
		return ix.rustSt
	}
	st := &rustState{cargo: make(map[string]string), crates: make(map[string]string), upward: make(map[string]string)}
	for _, p := range ix.configs["Cargo.toml"] {
		d := dirOf(p)
		name := cargoCrateName(ix.readConfig(p))
		st.cargo[d] = name
		if name != "" && st.crates[name] == "" {
			st.crates[name] = path.Join(d, "src")
		}
	}
	ix.rustSt = st
	return st
}

// cargoDir returns the innermost directory at or above dir holding a
// Cargo.toml, and whether there is one.
func (st *rustState) cargoDir(dir string) (string, bool) {
	if c, ok := st.upward[dir]; ok {
		return c, c != ""
	}
	c := ""
	if _, ok := st.cargo[dir]; ok {
		c = dir
	} else if parent, ok := parentDir(dir); ok {
		c, _ = st.cargoDir(parent)
	}
	st.upward[dir] = c
	return c, c != ""
}

// crateRoot returns the directory of the crate root module the file belongs
// to, and whether every file directly in it is itself a crate root (src/bin,
// tests/, examples/).
func (ix *index) crateRoot(file string) (root string, allRoots bool) {
	d := dirOf(file)
	if c, ok := ix.rustInit().cargoDir(d); ok {
		src := path.Join(c, "src")
		switch {
		case d == src+"/bin":
			return d, true
		case d == src || strings.HasPrefix(d, src+"/"):
			return src, false
		}
		return d, true
	}
	for r := d; ; {
		if ix.firstFile(path.Join(r, "lib.rs"), path.Join(r, "main.rs")) != "" {
			return r, false
		}
		parent, ok := parentDir(r)
		if !ok {
			return d, false
		}
		r = parent
	}
}

// resolveRust resolves use paths and `mod` declarations: crate::, self::,
// super::, workspace crates by name, and child modules of the current
// module; std/core/alloc and unknown crates are external.
func (ix *index) resolveRust(f *node, p string) target {
	st := ix.rustInit()
	segs := rustSegments(p)
	if len(segs) == 0 {
		return target{}
	}
	root, allRoots := ix.crateRoot(f.Path)
	modDir := strings.TrimSuffix(f.Path, ".rs")
	if b := path.Base(f.Path); b == "mod.rs" || b == "lib.rs" || b == "main.rs" || (allRoots && dirOf(f.Path) == root) {
		modDir = dirOf(f.Path)
	}
	start := modDir
	switch first := segs[0]; {
	case first == "crate":
		start, segs = root, segs[1:]
	case first == "self":
		segs = segs[1:]
	case first == "super":
		for len(segs) > 0 && segs[0] == "super" {
			if start == root {
				return target{}
			}
			start, segs = dirOf(start), segs[1:]
		}
	case len(segs) == 1 && !rustStd[first]:
		// `mod x;`, or `extern crate x;` / `use x;`: a sibling module file,
		// else a workspace crate, else (a missing module file would not
		// compile) an external crate.
		if hit := ix.rustChild(modDir, first); hit != "" {
			return fileTarget(hit)
		}
		if src := st.crates[first]; src != "" {
			return fileTarget(ix.rustModFile(src, src))
		}
		return target{ext: true}
	case st.crates[first] != "":
		start, root, segs = st.crates[first], st.crates[first], segs[1:]
	case ix.rustChild(modDir, first) != "":
		// a child module of the current one (2018 uniform paths)
	case ix.rustChild(root, first) != "":
		start = root // 2015 edition: paths are crate-relative
	default:
		return target{ext: true}
	}
	return fileTarget(ix.rustResolveIn(start, root, segs))
}

// rustSegments strips aliases, use groups, globs and a leading "::" and
// splits the path.
func rustSegments(p string) []string {
	p = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p), ";"))
	p = strings.TrimPrefix(strings.TrimPrefix(p, "mod:"), "::")
	if i := strings.Index(p, " as "); i >= 0 {
		p = p[:i]
	}
	if i := strings.IndexByte(p, '{'); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(p), "*"), "::")
	if p == "" {
		return nil
	}
	return strings.Split(p, "::")
}

// rustChild returns the file of module name under module directory dir.
func (ix *index) rustChild(dir, name string) string {
	return ix.firstFile(path.Join(dir, name+".rs"), path.Join(dir, name, "mod.rs"))
}

// rustModFile returns the file of the module whose directory is dir.
func (ix *index) rustModFile(dir, root string) string {
	if dir == root || dir == "." {
		return ix.firstFile(path.Join(dir, "lib.rs"), path.Join(dir, "main.rs"))
	}
	return ix.firstFile(dir+".rs", dir+"/mod.rs")
}

// rustResolveIn walks segs down from module directory start, dropping
// trailing segments (items rather than modules) until a module file exists.
func (ix *index) rustResolveIn(start, root string, segs []string) string {
	for n := len(segs); n > 0; n-- {
		d := path.Join(start, strings.Join(segs[:n], "/"))
		if hit := ix.firstFile(d+".rs", d+"/mod.rs"); hit != "" {
			return hit
		}
	}
	return ix.rustModFile(start, root)
}

var rustStd = setOf("std", "core", "alloc", "proc_macro", "test")
