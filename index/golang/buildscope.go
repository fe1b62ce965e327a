package golang

import (
	"path"
	"strings"

	"github.com/parleyhq/parley/index"
)

// BuildScope returns whether a file takes part in the Go build that
// from, a root-relative Go file, is compiled in when it refers to a
// declaration in the file decl: the build a type checker such as gopls
// loads for from, and the only one whose references a rename of
// something from refers to must keep consistent.
//
//   - from itself always is (a file no platform builds, such as a
//     //go:build ignore generator, is checked on its own);
//   - its file name and //go:build line admit the platform picked for
//     from (index.PortOf: this machine's, or the first that has from);
//   - it is in from's module (the nearest directory with a go.mod), unless
//     the root has a go.work, whose modules build together: without one,
//     a module sees another module of the tree as a published version,
//     not as these files; or it is a non-test file of decl's package in
//     another module (std's strings from a file of cmd): the type
//     checker loads that package, without its tests, as a dependency,
//     and gopls reports the references in it.
//   - it is not under a directory the go command ignores (testdata, or a
//     name starting with "_" or "."), unless from is in that directory;
//   - it is not in a vendor directory, unless from or decl is in that
//     vendor tree: `./...` does not match vendored packages, so a type
//     checker loads them as dependencies only, and gopls reports no
//     references there (on GOROOT/src, a third of the false hits were in
//     std's and cmd's vendor trees).
//
// The language server applies it to Go references (lsp/navigation.go);
// the CLI and the agent, which have no editor buffer to stand in, keep
// every reference and mark the other builds' uncertain.
func BuildScope(s *index.Store, from, decl string) func(p string) bool {
	_, work := s.Header("go.work")
	modules := map[string]string{}
	var moduleOf func(dir string) string
	moduleOf = func(dir string) string {
		if m, ok := modules[dir]; ok {
			return m
		}
		m := ""
		mod := "go.mod"
		if dir != "." {
			mod = dir + "/go.mod"
		}
		switch _, ok := s.Header(mod); {
		case ok:
			m = dir
		case dir != ".":
			m = moduleOf(path.Dir(dir))
		}
		modules[dir] = m
		return m
	}
	fromMod, declDir := moduleOf(path.Dir(from)), path.Dir(decl)
	port := index.PortOf(from, buildOf(s, from))
	fromIgnored := ignoredGoDir(path.Dir(from))
	fromVendor, declVendor := vendorTree(path.Dir(from)), vendorTree(path.Dir(decl))
	return func(p string) bool {
		if !strings.HasSuffix(p, ".go") || p == from {
			return true
		}
		if !port.Admits(p, buildOf(s, p)) {
			return false
		}
		if !work && moduleOf(path.Dir(p)) != fromMod &&
			(path.Dir(p) != declDir || strings.HasSuffix(p, "_test.go")) {
			return false
		}
		if d := ignoredGoDir(path.Dir(p)); d != "" && d != fromIgnored {
			return false
		}
		if v := vendorTree(path.Dir(p)); v != "" && v != fromVendor && v != declVendor {
			return false
		}
		return true
	}
}

// ignoredGoDir returns the first directory of dir (a prefix of it) that
// the go command ignores, or "".
func ignoredGoDir(dir string) string {
	if dir == "." {
		return ""
	}
	end := 0
	for _, elem := range strings.Split(dir, "/") {
		end += len(elem) + 1
		if elem == "testdata" || strings.HasPrefix(elem, "_") || strings.HasPrefix(elem, ".") {
			return dir[:end-1]
		}
	}
	return ""
}

// vendorTree returns the vendor directory dir is in (a prefix of it
// ending in "vendor"), or "".
func vendorTree(dir string) string {
	end := 0
	for _, elem := range strings.Split(dir, "/") {
		end += len(elem) + 1
		if elem == "vendor" {
			return dir[:end-1]
		}
	}
	return ""
}
