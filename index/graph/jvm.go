package graph

import (
	"slices"
	"strings"
)

// jvmState indexes Java and Kotlin files by declared package.
type jvmState struct {
	classes  map[string][]string // "a.b.C" (package + file stem) -> files
	pkgDirs  map[string][]string // "a.b" -> directories of files declaring it
	prefixes map[string]bool     // every dotted prefix of a declared package
}

func (ix *index) jvmInit() *jvmState {
	if ix.jvmSt != nil {
		return ix.jvmSt
	}
	st := &jvmState{
		classes:  make(map[string][]string),
		pkgDirs:  make(map[string][]string),
		prefixes: make(map[string]bool),
	}
	for _, p := range ix.order {
		if family(ix.files[p].lang) != "jvm" {
			continue
		}
		pkg := ix.files[p].Package
		key := stem(p)
		if pkg != "" {
			key = pkg + "." + key
			addPrefixes(st.prefixes, pkg, ".")
		}
		st.classes[key] = append(st.classes[key], p)
		d := dirOf(p)
		if ds := st.pkgDirs[pkg]; !slices.Contains(ds, d) {
			st.pkgDirs[pkg] = append(ds, d)
		}
	}
	ix.jvmSt = st
	return st
}

// addPrefixes records "a", "a.b", "a.b.c" for name "a.b.c".
func addPrefixes(set map[string]bool, name, sep string) {
	for i := 0; ; {
		j := strings.Index(name[i:], sep)
		if j < 0 {
			set[name] = true
			return
		}
		set[name[:i+j]] = true
		i += j + len(sep)
	}
}

// resolveJVM resolves Java/Kotlin imports: "a.b.C" to the file declaring
// class C in package a.b (or the file ending in a/b/C.java|.kt), dropping
// trailing members and nested classes until one is found; "a.b.*" to the
// directory unit of package a.b.
func (ix *index) resolveJVM(f *node, p string) target {
	st := ix.jvmInit()
	p = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(p, "static "), ";"))
	if i := strings.Index(p, " as "); i >= 0 { // Kotlin alias
		p = strings.TrimSpace(p[:i])
	}
	if pkg, ok := strings.CutSuffix(p, ".*"); ok {
		if dirs := st.pkgDirs[pkg]; len(dirs) > 0 && pkg != "" {
			return target{to: closest(f.Path, dirs), dir: true, unitFam: "jvm", unitPkg: pkg}
		}
		p = pkg // static on-demand import: a.b.C.*
	}
	for q := p; strings.Contains(q, "."); q = q[:strings.LastIndexByte(q, '.')] {
		if hit := closest(f.Path, st.classes[q]); hit != "" {
			return fileTarget(hit)
		}
		rel := strings.ReplaceAll(q, ".", "/")
		cands := append(ix.withSuffix(rel+".java"), ix.withSuffix(rel+".kt")...)
		if hit := closest(f.Path, cands); hit != "" {
			return fileTarget(hit)
		}
	}
	// Kotlin top-level functions and properties live in no class file:
	// fall back to the package's directory unit.
	if i := strings.LastIndexByte(p, '.'); i > 0 {
		if dirs := st.pkgDirs[p[:i]]; len(dirs) > 0 {
			return target{to: closest(f.Path, dirs), dir: true, unitFam: "jvm", unitPkg: p[:i]}
		}
	}
	return target{ext: jvmExternal(st.prefixes, p)}
}

// jvmExternal: platform packages, or a name whose first two components are
// not a prefix of any workspace package.
func jvmExternal(prefixes map[string]bool, p string) bool {
	parts := strings.SplitN(p, ".", 3)
	if jvmPlatform[parts[0]] {
		return true
	}
	if len(parts) < 2 {
		return !prefixes[parts[0]]
	}
	return !prefixes[parts[0]+"."+parts[1]]
}

var jvmPlatform = setOf("java", "javax", "jakarta", "kotlin", "kotlinx",
	"android", "androidx", "jdk", "sun", "scala", "groovy")

// csState indexes C# files by declared namespace.
type csState struct {
	nsFiles  map[string][]string // namespace -> files, sorted
	prefixes map[string]bool
}

func (ix *index) csInit() *csState {
	if ix.csSt != nil {
		return ix.csSt
	}
	st := &csState{nsFiles: make(map[string][]string), prefixes: make(map[string]bool)}
	for _, p := range ix.order {
		if ns := ix.files[p].Package; ns != "" && ix.files[p].lang == "csharp" {
			st.nsFiles[ns] = append(st.nsFiles[ns], p)
			addPrefixes(st.prefixes, ns, ".")
		}
	}
	ix.csSt = st
	return st
}

// resolveCSharp resolves "using N" to the directory of the files declaring
// namespace N when they share one, else to the first such file; "using
// static N.T" and aliases to the file of type T in namespace N.
func (ix *index) resolveCSharp(f *node, p string) target {
	st := ix.csInit()
	p = strings.TrimSuffix(strings.TrimSpace(p), ";")
	p = strings.TrimPrefix(strings.TrimPrefix(p, "global "), "using ")
	p = strings.TrimSpace(strings.TrimPrefix(p, "static "))
	if i := strings.IndexByte(p, '='); i >= 0 {
		p = strings.TrimSpace(p[i+1:])
	}
	p = strings.TrimPrefix(p, "global::")
	if files := st.nsFiles[p]; len(files) > 0 {
		d := dirOf(files[0])
		for _, q := range files[1:] {
			if dirOf(q) != d {
				return fileTarget(files[0])
			}
		}
		return target{to: d, dir: true, unitFam: "csharp", unitPkg: p}
	}
	if i := strings.LastIndexByte(p, '.'); i > 0 {
		ns, typ := p[:i], p[i+1:]
		if j := strings.IndexByte(typ, '<'); j >= 0 {
			typ = typ[:j]
		}
		for _, q := range st.nsFiles[ns] {
			if stem(q) == typ {
				return fileTarget(q)
			}
		}
	}
	first := firstDotted(p)
	return target{ext: first == "System" || first == "Microsoft" || !st.prefixes[first]}
}
