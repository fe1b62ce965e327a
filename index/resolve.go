package index

import (
	"path"
	"strings"

	"github.com/parleyhq/parley/index/extract"
)

// Use is the syntax around one identifier use that decides which
// declaration a Go name can mean, read from the text alone: `F` (no
// qualifier), `pkg.F` or `x.F` (a qualifier and a selector). Which of the
// last two it is depends on the file's imports, which DefinitionContext
// holds.
type Use struct {
	// Selector is set when the name follows a "." (x.F, pkg.F, f().F).
	Selector bool
	// Qualifier is the identifier right before the "."; empty when the
	// expression before it is not a plain identifier (f().F, a[i].F).
	Qualifier string
}

// UseAt reads the use of the identifier that contains byte offset off of
// src. Comments between the qualifier and the name are not skipped (gofmt
// never puts them there); whitespace and newlines are.
func UseAt(src []byte, off int) Use {
	if off < 0 || off > len(src) {
		return Use{}
	}
	i := SkipSpaceBack(src, IdentStart(src, off))
	if i == 0 || src[i-1] != '.' {
		return Use{}
	}
	i = SkipSpaceBack(src, i-1)
	end := i
	for i > 0 && IsIdentByte(src[i-1]) {
		i--
	}
	q := string(src[i:end])
	if q == "" || (q[0] >= '0' && q[0] <= '9') {
		return Use{Selector: true}
	}
	return Use{Selector: true, Qualifier: q}
}

// IdentStart returns the offset where the identifier containing or ending
// at off starts (off itself when none does).
func IdentStart(src []byte, off int) int {
	off = min(max(off, 0), len(src))
	for off > 0 && IsIdentByte(src[off-1]) {
		off--
	}
	return off
}

// SkipSpaceBack returns the offset before the blanks (spaces, tabs, line
// ends) that end src[:i].
func SkipSpaceBack(src []byte, i int) int {
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r') {
		i--
	}
	return i
}

// IsIdentByte accepts ASCII identifier bytes and any byte of a multi-byte
// UTF-8 sequence (Go identifiers may be Unicode letters).
func IsIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// goImportName is extract.GoImportName (the extractor marks references
// with the import their qualifier names the same way).
func goImportName(p, explicit string) string { return extract.GoImportName(p, explicit) }

// RankUse ranks a definition for a use in a Go file: RankResolved when the
// syntax settles that the use means it, RankElsewhere when the syntax rules
// it out, and Rank's proximity order otherwise.
//
//   - pkg.F, pkg an import of the file: a package-level F in a directory
//     the import path names is resolved; every other F is ruled out.
//   - x.F, x not an import: a package-level F is ruled out (only a method
//     or a field can follow a value).
//   - F alone: a package-level F in the file's own directory (its package)
//     is resolved.
//
// A resolved declaration in a file whose name restricts it to another
// GOOS or GOARCH or //go:build line (GoPort.Admits) is RankResolvedOtherBuild. Outside Go files
// it is Rank.
func (c DefinitionContext) RankUse(u Use, p, container string) DefinitionRank {
	if !strings.HasSuffix(c.from, ".go") {
		return c.Rank(p)
	}
	pkgLevel := container == ""
	if u.Selector {
		if ip, ok := c.goImport(u.Qualifier); ok {
			if pkgLevel && ImportNamesDir(ip, path.Dir(p)) {
				return c.resolvedRank(p)
			}
			return RankElsewhere
		}
		if pkgLevel {
			return RankElsewhere
		}
		return c.Rank(p)
	}
	if pkgLevel && path.Dir(p) == c.dir {
		return c.resolvedRank(p)
	}
	return c.Rank(p)
}

func (c DefinitionContext) resolvedRank(p string) DefinitionRank {
	build := ""
	if c.build != nil {
		build = c.build(p)
	}
	if c.port.Admits(p, build) {
		return RankResolved
	}
	return RankResolvedOtherBuild
}

// goImport finds the import that binds name in the context's file.
func (c DefinitionContext) goImport(name string) (ImportPath, bool) {
	if name == "" {
		return ImportPath{}, false
	}
	for _, ip := range c.imports {
		if ip.Name == name {
			return ip, true
		}
	}
	return ImportPath{}, false
}

// ImportNamesDir reports whether a Go import path names the
// root-relative directory dir: the directory is the path (GOROOT/src's
// "net/http") or its vendored copy ("vendor/golang.org/x/net/..."), or the
// path ends with the directory (a module path "example.com/m/lib/util"
// for lib/util). "internal/strconv" is not "strconv".
func ImportNamesDir(ip ImportPath, dir string) bool {
	if ip.Relative || dir == "." {
		return false
	}
	if dir == ip.Path || dir == "vendor/"+ip.Path || strings.HasSuffix(dir, "/vendor/"+ip.Path) {
		return true
	}
	return strings.HasSuffix(ip.Path, "/"+dir)
}
