package index

import (
	"bytes"
	"strings"
)

// DefaultMaxFileSize is the size above which files are not parsed.
const DefaultMaxFileSize = 1 << 20

// goSizeFactor scales the size limit for Go files. The limit protects
// against the tree-sitter grammars' cost on huge files; Go is parsed by
// go/parser and a hand-written scanner, tens of times faster, and Go's
// generated files hold code navigation needs: the compiler's rewrite
// rules and opcode tables (cmd/compile/internal/ssa's rewriteAMD64.go,
// 1.9 MB, and opGen.go, 3.0 MB) call methods thousands of times.
const goSizeFactor = 8

// sizeLimit is the size above which the file at rel is listed but not
// parsed, for a run whose limit is max.
func sizeLimit(rel string, max int64) int64 {
	if strings.HasSuffix(rel, ".go") {
		return goSizeFactor * max
	}
	return max
}

// Unparsed reports whether a run with the default limits lists the file
// at rel with content src without extracting it: too large, or minified
// (tools that replay the indexer's work, such as scripts/idxscale, skip
// what it skips).
func Unparsed(rel string, src []byte) bool {
	_, min := minified(src)
	return min || int64(len(src)) > sizeLimit(rel, DefaultMaxFileSize)
}

// minified reports files whose lines average over 1000 bytes: bundles and
// minified scripts, whose symbols are useless and whose parse is slow.
func minified(src []byte) (avg int, ok bool) {
	if len(src) < 16<<10 {
		return 0, false
	}
	avg = len(src) / (bytes.Count(src, []byte{'\n'}) + 1)
	return avg, avg > 1000
}
