package index

import (
	"go/build/constraint"
	"path"
	"runtime"
	"strings"
	"sync"
)

// Go build constraints: go/build's "name_GOOS_GOARCH.go" rule and the
// //go:build line (stored in the file header at index time). A resolved
// Go name often has one declaration per platform (syscall.Syscall,
// os.(*File).Close) and a method as many references as platforms; the
// type checker sees what the build it picked for the use's file includes
// (this machine's when the file is in it, else the first platform that
// has it, as gopls does), so that goes first, and only that is a
// reference the language server reports.

// The lists of go/build's syslist.go (Go 1.26), which the package does
// not export.
var knownOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "js": true, "linux": true, "nacl": true,
	"netbsd": true, "openbsd": true, "plan9": true, "solaris": true, "wasip1": true,
	"windows": true, "zos": true,
}

var knownArch = map[string]bool{
	"386": true, "amd64": true, "amd64p32": true, "arm": true, "armbe": true, "arm64": true,
	"arm64be": true, "loong64": true, "mips": true, "mipsle": true, "mips64": true,
	"mips64le": true, "mips64p32": true, "mips64p32le": true, "ppc": true, "ppc64": true,
	"ppc64le": true, "riscv": true, "riscv64": true, "s390": true, "s390x": true,
	"sparc": true, "sparc64": true, "wasm": true,
}

// goFileTarget is the GOOS and GOARCH a Go file name restricts its build
// to; empty strings for no restriction.
func goFileTarget(p string) (goos, goarch string) {
	name := strings.TrimSuffix(path.Base(p), ".go")
	name = strings.TrimSuffix(name, "_test")
	parts := strings.Split(name, "_")
	if len(parts) < 2 {
		return "", ""
	}
	last := parts[len(parts)-1]
	switch {
	case knownArch[last]:
		goarch = last
		if len(parts) >= 3 && knownOS[parts[len(parts)-2]] {
			goos = parts[len(parts)-2]
		}
	case knownOS[last]:
		goos = last
	}
	return goos, goarch
}

// GoPort is the GOOS and GOARCH a Go file is type-checked for.
type GoPort struct{ OS, Arch string }

// hostPort is the build a file gets when it builds there: gopls's
// default view.
var hostPort = GoPort{runtime.GOOS, runtime.GOARCH}

// otherPorts is the order in which a type checker picks a build for a
// file the host build excludes (gopls's zero-config views, from
// golang.org/x/tools/gopls/internal/cache/port.go: first-class ports,
// then the secondary ones of internal/platform/zosarch.go).
var otherPorts = []GoPort{
	{"darwin", "amd64"}, {"darwin", "arm64"}, {"linux", "amd64"}, {"linux", "arm64"},
	{"windows", "amd64"}, {"linux", "arm"}, {"linux", "386"}, {"windows", "386"},
	{"aix", "ppc64"}, {"dragonfly", "amd64"}, {"freebsd", "386"}, {"freebsd", "amd64"},
	{"freebsd", "arm"}, {"freebsd", "arm64"}, {"illumos", "amd64"}, {"linux", "ppc64"},
	{"linux", "ppc64le"}, {"linux", "mips"}, {"linux", "mipsle"}, {"linux", "mips64"},
	{"linux", "mips64le"}, {"linux", "riscv64"}, {"linux", "s390x"}, {"android", "386"},
	{"android", "amd64"}, {"android", "arm"}, {"android", "arm64"}, {"ios", "arm64"},
	{"ios", "amd64"}, {"js", "wasm"}, {"netbsd", "386"}, {"netbsd", "amd64"},
	{"netbsd", "arm"}, {"netbsd", "arm64"}, {"openbsd", "386"}, {"openbsd", "amd64"},
	{"openbsd", "arm"}, {"openbsd", "arm64"}, {"openbsd", "mips64"}, {"openbsd", "ppc64"},
	{"openbsd", "riscv64"}, {"plan9", "386"}, {"plan9", "amd64"}, {"plan9", "arm"},
	{"solaris", "amd64"}, {"windows", "arm64"}, {"wasip1", "wasm"}, {"linux", "loong64"},
	{"freebsd", "riscv64"},
}

// unixOS is go/build's list of the GOOS values the "unix" tag selects.
var unixOS = map[string]bool{
	"aix": true, "android": true, "darwin": true, "dragonfly": true, "freebsd": true,
	"hurd": true, "illumos": true, "ios": true, "linux": true, "netbsd": true,
	"openbsd": true, "solaris": true,
}

// tag reports whether a //go:build tag is set in port p's default build:
// its GOOS (and the ones it implies), GOARCH, "unix", the compiler "gc",
// every go1.N release tag, "cgo" on the host only (cross builds disable
// cgo) and the GOEXPERIMENTs on by default. Custom tags are off, as in a
// plain `go build`.
func (p GoPort) tag(t string) bool {
	if x, ok := strings.CutPrefix(t, "goexperiment."); ok {
		return p.experiment(x)
	}
	switch {
	case t == p.OS || t == p.Arch || impliesOS(p.OS, t):
		return true
	case t == "unix":
		return unixOS[p.OS]
	case t == "gc":
		return true
	case t == "cgo":
		return p == hostPort
	}
	return strings.HasPrefix(t, "go1.")
}

// experiment reports whether a GOEXPERIMENT is on by default for port p:
// Go 1.26's baseline (internal/buildcfg/exp.go), which decides files
// such as reflect/abi_test.go (goexperiment.regabiargs).
func (p GoPort) experiment(x string) bool {
	switch x {
	case "regabiwrappers", "regabiargs":
		switch p.Arch {
		case "amd64", "arm64", "loong64", "ppc64", "ppc64le", "riscv64", "s390x":
			return true
		}
	case "dwarf5":
		return p.OS != "darwin" && p.OS != "ios" && p.OS != "aix"
	case "randomizedheapbase64", "greenteagc":
		return true
	}
	return false
}

// Admits reports whether file p, whose //go:build expression is build
// ("" for none), is in port's build.
func (port GoPort) Admits(p, build string) bool {
	tos, tarch := goFileTarget(p)
	if tarch != "" && tarch != port.Arch || tos != "" && tos != port.OS && !impliesOS(port.OS, tos) {
		return false
	}
	if build == "" {
		return true
	}
	x := parsedConstraint(build)
	return x == nil || x.Eval(port.tag)
}

// constraints caches parsed //go:build expressions: a tree has a few
// hundred distinct ones, asked of thousands of files per query.
var constraints sync.Map // string -> constraint.Expr (nil when unparsable)

func parsedConstraint(build string) constraint.Expr {
	if x, ok := constraints.Load(build); ok {
		x, _ := x.(constraint.Expr)
		return x
	}
	x, err := constraint.Parse("//go:build " + build)
	if err != nil {
		x = nil
	}
	constraints.Store(build, x)
	return x
}

// PortOf is the build a type checker picks for file p: the host's when
// it admits p, else the first of otherPorts that does (gopls opens a view
// for it), else the host's.
func PortOf(p, build string) GoPort {
	if hostPort.Admits(p, build) {
		return hostPort
	}
	for _, port := range otherPorts {
		if port.Admits(p, build) {
			return port
		}
	}
	return hostPort
}

// goBuildOf returns a file's //go:build expression.
type goBuildOf func(p string) string

// goBuild is the store's goBuildOf, from the resident file headers.
func (s *Store) goBuild(p string) string {
	h, _ := s.Header(p)
	return h.Build
}

// impliesOS: go/build treats android as linux, ios as darwin and illumos
// as solaris.
func impliesOS(goos, target string) bool {
	switch goos {
	case "android":
		return target == "linux"
	case "ios":
		return target == "darwin"
	case "illumos":
		return target == "solaris"
	}
	return false
}
