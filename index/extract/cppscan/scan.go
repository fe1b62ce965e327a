// Package cppscan extracts a C++ file's index records without
// tree-sitter: the C-family lexer (internal/clex) and a parser that
// builds no tree but writes, in the tree-sitter walker's order, the
// records index/extract's generic walker writes from tree-sitter-cpp's
// tree under lang_c.go's table (the "cpp" spec): symbols (namespaces,
// classes, structs, unions, enums and enumerators, typedefs and using
// aliases, functions and methods defined in and out of class,
// constructors, prototypes, fields, file-level variables, #define
// macros), identifier references with their call flags, #include
// imports, TODO markers, doc lines and complexity, then the spec's
// finish step (cppDropHoisted). C++ has no index-time descriptors.
//
// Like tree-sitter, it reads the file as cppMask leaves it (Boost's
// BOOST_ASIO_DECL, BOOST_ASIO_NOEXCEPT... blanked, every offset kept)
// and takes names, signatures and docs from the original bytes.
// Declarations are parsed; function bodies and initializers are read
// as tokens: every identifier, type and field name is a reference, a
// name before "(" is a callee unless it is declared there, and the
// branch keywords and operators count once each.
//
// Contract: Scan's result equals, record for record, what
// extract.For("cpp") produces for the same source when tree-sitter
// reads it without an error, or Scan returns an error (*errFallback)
// and the caller uses the tree-sitter path. It declines what it does
// not read with certainty: macros the mask leaves, function pointers
// and other parenthesized declarators, declarations inside function
// bodies that read as calls, local classes, raw and prefixed string
// literals, conditionals that split a declaration, and so on
// (errFallback says which). Scan is a pure function of its input, safe
// for concurrent use, and never panics.
package cppscan

import (
	"bytes"
	"fmt"

	"github.com/parleyhq/parley/index/extract"
)

func init() { extract.RegisterScanner("cpp", Scan) }

// errFallback declines a file: the tree-sitter path extracts it.
type errFallback struct{ why string }

func (e *errFallback) Error() string { return "cppscan: " + e.why }

func fail(format string, args ...any) {
	panic(&errFallback{fmt.Sprintf(format, args...)})
}

// Scan extracts src's records. C++ has no descriptors, so describe is
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
	masked := extract.CppMask(src)
	toks, comments := lex(masked)
	p := newParser(src, masked, toks, comments)
	p.items(ctxTop)
	if p.i < len(p.toks) {
		fail("unmatched %s", p.text(p.toks[p.i]))
	}
	p.e.flushComments(uint32(len(src)) + 1)
	if reg := p.reg.Regions(p.e.res, masked, []extract.SymbolKind{extract.KindVariable, extract.KindField}); reg != nil {
		return nil, reg // the extractor drops hoisted symbols from the merged records
	}
	extract.CppDropHoisted(src, p.e.res)
	return p.e.res, nil
}
