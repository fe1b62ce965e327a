package index

import (
	"path"
	"runtime"
	"strings"
)

// Go file-name build constraints (go/build's "name_GOOS_GOARCH.go"
// rule). A resolved Go name often has one declaration per platform
// (syscall.Syscall, os.(*File).Close); the type checker sees the one the
// build includes, so the one whose file builds with the use's file, or
// with this machine when the use's file has no constraint, goes first.

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

// buildsWith reports whether target, a Go file, can be in the same build
// as from: the GOOS and GOARCH its name requires are from's, or this
// machine's where from's name requires none.
func buildsWith(from, target string) bool {
	tos, tarch := goFileTarget(target)
	if tos == "" && tarch == "" {
		return true
	}
	fos, farch := goFileTarget(from)
	if fos == "" {
		fos = runtime.GOOS
	}
	if farch == "" {
		farch = runtime.GOARCH
	}
	return (tarch == "" || tarch == farch) && (tos == "" || tos == fos || impliesOS(fos, tos))
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
