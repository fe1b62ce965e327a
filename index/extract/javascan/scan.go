// Package javascan extracts a Java file's index records without
// tree-sitter: a hand-written lexer and a recursive-descent parser that
// builds only the declaration structure (types, members, enum constants,
// local and anonymous classes) and scans bodies and initializers as token
// streams, writing what index/extract's generic tree-sitter walker writes
// for a Java file driven by lang_java.go's table: symbols with kinds,
// containers, ranges, signatures, docs, exported flags and complexity;
// every identifier as a reference, method and constructor callees
// marked; imports; the package; TODO markers. Java has no index-time
// descriptors. Go's and Python's index-time facts come from scanners the
// same way (index/extract/golang_scan.go, index/extract/pyscan).
//
// Contract: Scan's result equals, record for record, what
// extract.For("java") produces for the same source through tree-sitter,
// except where tree-sitter's record is wrong (scan_test.go shows each
// case: files tree-sitter cuts partial by budget), or Scan returns an
// error for which IsFallback is true and the caller must use the
// tree-sitter path. It declines syntax it does not expect in the
// declaration structure, unbalanced brackets and unterminated literals,
// invalid code tree-sitter reads without an error mark its own way (a
// keyword where a name stands), and a few constructs whose tree-sitter
// records it does not replicate (unicode escapes and non-ASCII letters
// outside literals, do statements with compound single-statement
// bodies, conditionals in case labels, module declarations). Inside
// bodies it checks only what the records depend on, so some invalid
// bodies are scanned where tree-sitter would build an error tree; the
// equivalence holds for code tree-sitter parses without errors. Scan is
// a pure function of its input, safe for concurrent use, and never
// panics.
package javascan

import (
	"bytes"
	"fmt"

	"github.com/parleyhq/parley/index/extract"
)

func init() { extract.RegisterScanner("java", Scan) }

// Scan extracts src's records. Java has no descriptors; describe is
// ignored.
func Scan(src []byte, describe bool) (res *extract.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*errFallback); ok {
				res, err = nil, e
				return
			}
			res, err = nil, fallback(fmt.Sprint("scanner panic: ", r))
		}
	}()
	if bytes.IndexByte(src, 0) >= 0 {
		return nil, fallback("NUL byte")
	}
	toks, comments, err := lex(src)
	if err != nil {
		return nil, err
	}
	res = &extract.Result{Refs: make([]extract.Ref, 0, len(src)/16+8)}
	s := &scanner{src: src, toks: toks, comments: comments, res: res,
		lines: extract.LineStarts(src, make([]uint32, 0, len(src)/32+1)), names: extract.Names{}}
	s.file()
	s.flushComments(uint32(len(src)) + 1)
	return res, nil
}
