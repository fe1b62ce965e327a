// Package cscan extracts a C file's index records without tree-sitter:
// the C-family lexer (internal/clex) and a parser that builds no tree
// but writes, in the tree-sitter walker's order, the records
// index/extract's generic walker writes from tree-sitter-c's tree under
// lang_c.go's table: symbols (functions and prototypes, structs, unions,
// enums and their enumerators, typedefs, fields, file-level variables,
// #define macros), identifier references with their call flags, #include
// imports, TODO markers, doc lines and complexity. C has no index-time
// descriptors.
//
// Declarations are parsed; function bodies are read as tokens, since
// what the walker records there (references, calls, branches, #define
// macros) needs no statement structure: every identifier, type and
// field name is a reference, a name followed by "(" is a callee, and
// the branch keywords and operators count once each.
//
// Contract: Scan's result equals, record for record, what
// extract.For("c") produces for the same source wherever tree-sitter's
// tree has no error, or Scan returns an error (*errFallback) and the
// caller uses the tree-sitter path. Where gotreesitter builds an error
// tree around the macros headers use (glibc's __THROW after a plain
// function declarator, __BEGIN_DECLS alone on a line, a #define in an
// enum, a macro before a type or a declarator, the #define of a
// keyword), its records are wrong (functions lost or named after a
// macro, ranges starting at the macro) and Scan's follow the compiler's
// reading instead, the macros references; TestScanWhereTreeSitterIsWrong
// holds each such construct. Scan declines what it does not read with
// certainty: GNU and MSVC extensions other than __attribute__,
// statements tree-sitter may read as declarations, and so on
// (errFallback says which). A file cMask changes is read masked, as
// tree-sitter reads it. Scan is a pure function of its input, safe for
// concurrent use, and never panics.
package cscan

import (
	"bytes"
	"fmt"

	"github.com/parleyhq/parley/index/extract"
)

func init() { extract.RegisterScanner("c", Scan) }

// errFallback declines a file: the tree-sitter path extracts it.
type errFallback struct{ why string }

func (e *errFallback) Error() string { return "cscan: " + e.why }

func fail(format string, args ...any) {
	panic(&errFallback{fmt.Sprintf(format, args...)})
}

// Scan extracts src's records. C has no descriptors, so describe is
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
	if bytes.IndexByte(src, 0) >= 0 || bytes.IndexByte(src, '\r') >= 0 {
		return nil, &errFallback{"NUL byte or carriage return"}
	}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return nil, &errFallback{"byte order mark"}
	}
	if spacedContinuation(src) {
		// tree-sitter-c continues a directive's line there too; the
		// lexer does not.
		return nil, &errFallback{"a backslash before blanks and a line break"}
	}
	// Tree-sitter parses the masked bytes and the walker reads names,
	// signatures and docs from the original: so do the lexer and parser
	// (masked) and the emitter (original). Masking keeps every offset.
	masked := extract.CMask(src)
	toks, comments := lex(masked)
	p := newParser(masked, toks, comments)
	p.e.src = src
	p.items(ctxTop)
	if p.i < len(p.toks) {
		fail("unmatched %s", p.text(p.toks[p.i]))
	}
	p.e.flushComments(uint32(len(src)) + 1)
	if reg := p.reg.Regions(p.e.res, masked, []extract.SymbolKind{extract.KindVariable, extract.KindField}); reg != nil {
		return nil, reg
	}
	return p.e.res, nil
}

// spacedContinuation reports whether a backslash is followed by blanks
// and a line break somewhere in src.
func spacedContinuation(src []byte) bool {
	for i := bytes.IndexByte(src, '\\'); i >= 0; {
		j := i + 1
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j > i+1 && j < len(src) && src[j] == '\n' {
			return true
		}
		k := bytes.IndexByte(src[i+1:], '\\')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}
