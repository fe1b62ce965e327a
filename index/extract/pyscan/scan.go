// Package pyscan extracts a Python file's index records without
// tree-sitter: a hand-written lexer and recursive-descent parser build a
// small tree (only the nodes the records need, typed as in
// tree-sitter-python), over which one walk writes the symbols,
// references, imports and TODO markers of index/extract's tree-sitter
// walker, and a port of index/python's describer writes the resolution
// descriptors. Go's index-time facts come from a scanner the same way
// (index/extract/golang_scan.go); tree-sitter stays for query time.
//
// Contract: Scan's result equals, record for record, what
// extract.For("python") with python.Describe produces for the same
// source, or Scan returns an error for which IsFallback is true and the
// caller must use the tree-sitter path. It declines syntax errors and
// syntax whose tree-sitter records it does not replicate (see parse.go).
// Scan is a pure function of its input, safe for concurrent use, and
// never panics.
package pyscan

import (
	"bytes"
	"fmt"

	"github.com/parleyhq/parley/index/extract"
)

func init() { extract.RegisterScanner("python", Scan) }

// Scan extracts src's records; describe adds the resolution descriptors
// (index/python's Describe).
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
		// Python rejects it; tree-sitter's lexer stops a token there.
		// (Invalid UTF-8 in a name declines the file too, in the lexer;
		// in strings and comments it is a declared encoding's.)
		return nil, fallback("NUL byte")
	}
	if loneCR(src) {
		// Python ends a line at a lone carriage return, tree-sitter's
		// comments and strings do not.
		return nil, fallback("carriage return without a line feed")
	}
	toks, comments, err := lex(src)
	if err != nil {
		return nil, err
	}
	t := &tree{src: src, nodes: make([]node, 0, len(toks)), rootStart: uint32(len(src)), names: extract.Names{}}
	if len(toks) > 0 && toks[0].kind != tEOF {
		t.rootStart = toks[0].start
	}
	if len(comments) > 0 && comments[0].start < t.rootStart {
		t.rootStart = comments[0].start
	}
	p := &parser{t: t, toks: toks, src: src}
	p.module()
	res = &extract.Result{Refs: make([]extract.Ref, 0, len(src)/16+8)}
	w := &walker{t: t, src: src, comments: comments, res: res,
		lines: extract.LineStarts(src, nil), vars: map[string]bool{}}
	w.visit(0)
	w.flushComments(uint32(len(src)) + 1)
	if describe {
		describeFile(t, w, res)
	}
	return res, nil
}

func loneCR(src []byte) bool {
	for i := bytes.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(src[i+1:], '\r')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
