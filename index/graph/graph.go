// Package graph resolves the imports recorded by index/extract to files and
// package directories of the workspace, and answers dependency questions over
// the result: what a file imports (Deps), who imports a file or its package
// (Dependents) and which targets are imported the most (Hubs).
//
// Contracts:
//
//   - Every path is clean, slash-separated and relative to the workspace root;
//     the root directory itself is ".". A resolved target is always one of the
//     files passed to Build, or a directory that holds at least one of them.
//     Nothing ever resolves outside the workspace file list.
//   - Resolution is a best-effort, per-language emulation of the language's
//     own lookup rules (go.mod module paths and vendoring, Python source roots,
//     Node/TypeScript probing with tsconfig paths and workspace packages, C
//     include search, JVM and C# packages, Rust module files, ...). It never
//     runs a tool and reads only small configuration files via readFile,
//     plus, in LoadEnv, the go.mod and go.work files outside the root that
//     place it in a larger Go build.
//   - Go imports (and JVM "a.b.*", C# namespace and similar package-level
//     imports) resolve to a directory unit: Edge.To is the directory and
//     Edge.ToDir is set.
//   - Edge.External is a hint: set when the import is recognisably outside the
//     workspace (standard library, third-party package), false when unknown.
//   - A Graph is immutable after Build and safe for concurrent use; every
//     method returns fresh slices the caller may modify.
//   - Dependents of a file include the edges to its directory unit; Hubs
//     count distinct importing files and ignore imports from within the
//     target's own unit (a Go external test importing its package).
//
// Per-language rules (details on each resolver):
//
//   - Go: module paths from every go.mod (longest match, enclosing module
//     preferred), the enclosing module's vendor/ tree, module "std"
//     (GOROOT/src) for paths whose first element has no dot, and a guessed
//     import prefix for GOPATH-style workspaces without go.mod. A root
//     inside a module whose go.mod is above it (Env, from LoadEnv) has that
//     module's path plus its own directory as import path; what that
//     module, or another one a go.work uses, holds outside the root is
//     external.
//   - Python: leading dots relative to the file's package; absolute names
//     under the file's source root, ".", "src" and "lib" (module file,
//     package __init__.py, then the parent module, then a namespace dir).
//   - JS/TS: relative specifiers with extension and index probing (and
//     ".js" written for a ".ts" source); bare specifiers through the nearest
//     tsconfig/jsconfig "paths"/"baseUrl", then workspace package.json names.
//   - C/C++: the includer's directory, the root, then the closest file
//     ending in the include path.
//   - Java/Kotlin: package + class (file stem), or the a/b/C.java|.kt path
//     suffix; "a.b.*" to the package directory. C#: namespace directory.
//   - Rust: crate::, self::, super::, mod declarations and workspace crates
//     by Cargo.toml name, with mod.rs/lib.rs/main.rs module semantics.
//   - Ruby, PHP (includes, namespaces, composer PSR-4), Lua, Bash, Swift
//     (SwiftPM Sources/<Module>): see misc.go.
//
// Build is linear in the number of imports: every lookup goes through maps
// (path sets, directory listings, base-name and package indexes), never
// through a scan of all files.
package graph

import (
	"cmp"
	"slices"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// File is one workspace file as the index knows it.
type File struct {
	// Path is slash-separated and relative to the workspace root.
	Path string
	// Lang is the language name (go, python, typescript, ...); empty or
	// "other" for files that are not parsed, such as go.mod or package.json.
	Lang string
	// Package is the package/namespace the file declares, if any.
	Package string
	// Imports are the file's imports as written in the source.
	Imports []extract.Import
}

// Edge is one import of one file.
type Edge struct {
	From   string // importing file
	Import string // as written
	Line   uint32 // 0-based line of the import
	// To is the resolved target: a file path, or a directory path for Go
	// packages and other package-level units; "" if unresolved.
	To       string
	ToDir    bool
	Resolved bool
	// External is set when the import is recognisably outside the workspace
	// (Go standard library or third-party module, node package, Python
	// standard library, system header...); false when unknown.
	External bool
}

// Hub is a heavily imported target.
type Hub struct {
	Path string
	Dir  bool
	// Dependents is the number of distinct importing files, excluding files
	// of the target's own unit (the file itself, or the directory's files).
	Dependents int
	// Lang is the target file's language, or for a directory the language of
	// its importers.
	Lang string
}

// edgeRec is an edge plus what Dependents needs to decide whether a file
// belongs to a directory unit.
type edgeRec struct {
	Edge
	// unitFam is the language family whose files make up a directory unit
	// ("" when files are not members: namespace packages, node packages).
	unitFam string
	// unitPkg, when non-empty, further restricts members to files declaring
	// that package/namespace.
	unitPkg string
}

// Graph is the resolved import graph of a workspace.
type Graph struct {
	// edges holds every edge, grouped by importing file in path order and
	// in line order within a file; byTo lists therefore come out sorted by
	// From, then Line, without a sort.
	edges []edgeRec
	deps  map[string][]edgeRec // importing file -> its edges (sub-slice of edges)
	byTo  map[string][]int32   // target -> indexes into edges
	files map[string]*node
	hubs  []Hub // every target, most dependents first
}

// Build resolves every import of files. readFile reads a workspace file by
// its relative path; it is used for go.mod, tsconfig.json/jsconfig.json,
// package.json, composer.json and Cargo.toml. Its errors are tolerated, and
// it may be nil. env describes the manifests outside the root that matter
// (LoadEnv reads them); the zero Env means none.
func Build(files []File, readFile func(rel string) ([]byte, error), env Env) *Graph {
	ix := newIndex(files, readFile, env)
	total := 0
	for _, f := range ix.files {
		total += len(f.Imports)
	}
	g := &Graph{
		edges: make([]edgeRec, 0, total),
		deps:  make(map[string][]edgeRec, len(ix.files)),
		byTo:  make(map[string][]int32),
		files: ix.files,
	}
	for _, p := range ix.order {
		f := ix.files[p]
		if len(f.Imports) == 0 {
			continue
		}
		first := len(g.edges)
		for _, imp := range f.Imports {
			t := ix.resolve(f, imp.Path)
			g.edges = append(g.edges, edgeRec{
				Edge: Edge{
					From: p, Import: imp.Path, Line: imp.Line,
					To: t.to, ToDir: t.dir && t.to != "", Resolved: t.to != "",
					External: t.ext && t.to == "",
				},
				unitFam: t.unitFam, unitPkg: t.unitPkg,
			})
		}
		mine := g.edges[first:len(g.edges):len(g.edges)]
		slices.SortStableFunc(mine, func(a, b edgeRec) int { return cmp.Compare(a.Line, b.Line) })
		g.deps[p] = mine
		for i := range mine {
			if mine[i].Resolved {
				g.byTo[mine[i].To] = append(g.byTo[mine[i].To], int32(first+i))
			}
		}
	}
	g.hubs = g.computeHubs()
	return g
}

// Deps returns the imports of the file at path, in line order.
func (g *Graph) Deps(path string) []Edge {
	rs := g.deps[path]
	if rs == nil {
		return nil
	}
	out := make([]Edge, len(rs))
	for i := range rs {
		out[i] = rs[i].Edge
	}
	return out
}

// Dependents returns the edges whose target is path. When path is a file it
// also returns the edges that target the directory unit the file belongs to
// (its Go package directory, a JVM package directory, a C# namespace
// directory). The result is sorted by From, then Line.
func (g *Graph) Dependents(p string) []Edge {
	var out []Edge
	for _, i := range g.byTo[p] {
		out = append(out, g.edges[i].Edge)
	}
	f, isFile := g.files[p]
	if !isFile {
		return out
	}
	fam := family(f.lang)
	n := len(out)
	for _, i := range g.byTo[dirOf(p)] {
		r := &g.edges[i]
		if !r.ToDir || r.unitFam == "" || r.unitFam != fam {
			continue
		}
		if r.unitPkg != "" && r.unitPkg != f.Package {
			continue
		}
		out = append(out, r.Edge)
	}
	if n > 0 && len(out) > n {
		slices.SortStableFunc(out, func(a, b Edge) int {
			return cmp.Or(strings.Compare(a.From, b.From), cmp.Compare(a.Line, b.Line))
		})
	}
	return out
}

// Hubs returns up to limit targets with the most distinct importing files,
// most imported first, ties broken by path. limit <= 0 means all.
func (g *Graph) Hubs(limit int) []Hub {
	if limit <= 0 || limit > len(g.hubs) {
		limit = len(g.hubs)
	}
	return slices.Clone(g.hubs[:limit])
}

func (g *Graph) computeHubs() []Hub {
	hubs := make([]Hub, 0, len(g.byTo))
	for to, idxs := range g.byTo {
		h := Hub{Path: to, Dir: g.edges[idxs[0]].ToDir}
		last := ""
		for _, i := range idxs {
			e := &g.edges[i].Edge
			if e.From == last || selfImport(e) {
				continue
			}
			last = e.From
			h.Dependents++
			if h.Lang == "" {
				h.Lang = g.files[e.From].lang
			}
		}
		if h.Dependents == 0 {
			continue
		}
		if !h.Dir {
			h.Lang = g.files[to].lang
		}
		hubs = append(hubs, h)
	}
	slices.SortFunc(hubs, func(a, b Hub) int {
		return cmp.Or(cmp.Compare(b.Dependents, a.Dependents), strings.Compare(a.Path, b.Path))
	})
	return hubs
}

// selfImport reports whether e stays inside one unit: a file importing
// itself, or a file importing its own directory unit (Go external tests).
func selfImport(e *Edge) bool {
	if e.ToDir {
		return dirOf(e.From) == e.To
	}
	return e.From == e.To
}
