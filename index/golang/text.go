package golang

import (
	"go/scanner"
	"go/token"

	"github.com/parleyhq/parley/index"
)

// NotNameAt reports whether byte offset off of src, a Go file, is on a
// keyword or in a comment or a string or rune literal rather than on an
// identifier of the program, outside a doc link ("[Name]", "[pkg.Name]"
// in a comment, which gopls resolves to Name). A word there names
// nothing: gopls finds no identifier, and answering references with
// every occurrence of the word (test, want, const: tens of thousands on
// GOROOT/src) was the slowest references query the language server had
// after predeclared names.
//
// go/scanner tokenizes as the compiler does (raw strings, nested quotes,
// comment forms), which a hand-written scan would have to repeat.
func NotNameAt(src []byte, off int) bool {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return false
		}
		start := file.Offset(pos)
		if start > off {
			return false
		}
		end := start + len(lit)
		if tok.IsKeyword() {
			end = start + len(tok.String())
			if off <= end {
				return true
			}
			continue
		}
		switch tok {
		case token.STRING, token.CHAR:
			if off < end {
				return true
			}
		case token.COMMENT:
			// A line comment ends at the end of its last word, where
			// a cursor after that word stands.
			if off < end || (off == end && len(lit) > 1 && lit[1] == '/') {
				return !inDocLink(lit, off-start)
			}
		}
	}
}

// inDocLink reports whether offset i of comment text c is inside
// brackets holding only a (qualified, possibly starred) name: a doc
// link.
func inDocLink(c string, i int) bool {
	link := func(b byte) bool { return index.IsIdentByte(b) || b == '.' || b == '*' }
	l := i
	for l > 0 && link(c[l-1]) {
		l--
	}
	r := i
	for r < len(c) && link(c[r]) {
		r++
	}
	return l > 0 && c[l-1] == '[' && r < len(c) && c[r] == ']'
}
