// Package rustscan extracts a Rust file's index records without
// tree-sitter: a hand-written lexer and a recursive-descent parser that
// builds no tree but writes, in the tree-sitter walker's order, the
// records index/extract's generic walker writes from tree-sitter-rust's
// tree under lang_rust.go's table: symbols (items, impl blocks as
// containers, fields, variants), identifier references with their call
// flags, imports (use, extern crate, mod x;), TODO markers, doc lines
// and complexity. Rust has no index-time descriptors.
//
// Contract: Scan's result equals, record for record, what
// extract.For("rust") produces for the same source, or Scan returns an
// error (*errFallback) and the caller uses the tree-sitter path. It
// declines syntax errors and syntax whose tree-sitter records it does
// not replicate with certainty. Scan is a pure function of its input,
// safe for concurrent use, and never panics.
//
// One difference is deliberate: tree-sitter stops at its parse budget
// on some large files (proc-macro2's fallback.rs), at a point that moves
// between runs, and stores them partial; the scanner reads them whole
// (see TestWholeWhereTreeSitterCuts).
package rustscan

import (
	"bytes"
	"fmt"

	"github.com/parleyhq/parley/index/extract"
)

func init() { extract.RegisterScanner("rust", Scan) }

// Scan extracts src's records. Rust has no descriptors, so describe is
// ignored.
func Scan(src []byte, describe bool) (res *extract.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*errFallback); ok {
				res, err = nil, e
				return
			}
			res, err = nil, &errFallback{fmt.Sprint("scanner panic: ", r)}
		}
	}()
	if bytes.IndexByte(src, 0) >= 0 {
		return nil, &errFallback{"NUL byte"}
	}
	if bytes.HasPrefix(src, []byte("#!")) && !bytes.HasPrefix(src, []byte("#![")) || bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return nil, &errFallback{"shebang or byte order mark"}
	}
	toks, comments := lex(src)
	p := newParser(src, toks, comments)
	p.file()
	return p.finish(), nil
}
