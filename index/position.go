package index

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// IdentAt returns the identifier containing or ending at byte offset off
// of src; ok is false when there is none (or it is a number).
func IdentAt(src []byte, off int) (name string, ok bool) {
	off = min(max(off, 0), len(src))
	isIdent := func(r rune) bool { return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	start, end := off, off
	for end < len(src) {
		r, n := utf8.DecodeRune(src[end:])
		if !isIdent(r) {
			break
		}
		end += n
	}
	for start > 0 {
		r, n := utf8.DecodeLastRune(src[:start])
		if !isIdent(r) {
			break
		}
		start -= n
	}
	if start == end {
		return "", false
	}
	word := string(src[start:end])
	if r, _ := utf8.DecodeRuneInString(word); unicode.IsDigit(r) {
		return "", false // a number literal
	}
	return word, true
}

// LineColOffset converts a 1-based line and 1-based byte column of src
// (how `parley defs FILE:LINE:COL`, the tools and gopls's command line
// count) to a byte offset.
func LineColOffset(src []byte, line, col int) (int, error) {
	if line < 1 || col < 1 {
		return 0, fmt.Errorf("line and column start at 1")
	}
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("line %d is past the end (%d lines)", line, l)
		}
		off += i + 1
	}
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	if col-1 > end {
		return 0, fmt.Errorf("column %d is past the end of line %d (%d bytes)", col, line, end)
	}
	return off + col - 1, nil
}
