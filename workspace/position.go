package workspace

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Encoding is the unit in which a client counts characters within a line,
// as negotiated by LSP's positionEncoding.
type Encoding uint8

const (
	// UTF16 counts UTF-16 code units: LSP's default, and what VS Code uses.
	UTF16 Encoding = iota
	// UTF8 counts bytes, which is also how the index stores columns.
	UTF8
	// UTF32 counts Unicode code points.
	UTF32
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	}
	return "utf-16"
}

// ErrPosition reports a position or offset outside the document.
var ErrPosition = errors.New("position outside the document")

// Lines maps between byte offsets and (line, character) positions in one
// text. Only '\n' ends a line, as in the index; a '\r' before it is part of
// the line terminator, so characters past the content clamp before it.
// Invalid UTF-8 bytes count as one unit each (U+FFFD, as editors show
// them). Immutable after NewLines; safe for concurrent use.
type Lines struct {
	text  []byte
	start []int // offset of each line start
}

// NewLines indexes text. The caller must not modify text afterwards.
func NewLines(text []byte) *Lines {
	start := make([]int, 1, 1+len(text)/32)
	for i, c := range text {
		if c == '\n' {
			start = append(start, i+1)
		}
	}
	return &Lines{text: text, start: start}
}

// Count is the number of lines; a text ending in '\n' has an empty last
// line, as LSP counts it.
func (l *Lines) Count() int { return len(l.start) }

// content returns the bytes of line n without its terminator.
func (l *Lines) content(n int) []byte {
	end := len(l.text)
	if n+1 < len(l.start) {
		end = l.start[n+1] - 1
		if end > l.start[n] && l.text[end-1] == '\r' {
			end--
		}
	}
	return l.text[l.start[n]:end]
}

// Offset converts a client position to a byte offset. A character beyond
// the end of the line clamps to the line end, as the LSP specification
// requires; one inside a character (half of a UTF-16 surrogate pair) moves
// to that character's start. A line beyond the last is an error.
func (l *Lines) Offset(line, char uint32, enc Encoding) (int, error) {
	if int64(line) >= int64(len(l.start)) {
		return 0, fmt.Errorf("line %d of %d: %w", line, len(l.start), ErrPosition)
	}
	content := l.content(int(line))
	return l.start[line] + byteIndex(content, char, enc), nil
}

// byteIndex returns the byte index in s of the character at unit index
// char, clamped to len(s).
func byteIndex(s []byte, char uint32, enc Encoding) int {
	if enc == UTF8 {
		n := min(int(char), len(s))
		for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
			n-- // inside a multi-byte character: move to its start
		}
		return n
	}
	units := uint32(0)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		w := uint32(1)
		if enc == UTF16 && r >= 0x10000 {
			w = 2
		}
		if units+w > char {
			return i
		}
		units += w
		i += size
	}
	return len(s)
}

// Position converts a byte offset to a client position. An offset inside a
// multi-byte character reports that character's start; one past the end of
// the text is an error.
func (l *Lines) Position(off int, enc Encoding) (line, char uint32, err error) {
	if off < 0 || off > len(l.text) {
		return 0, 0, fmt.Errorf("offset %d of %d: %w", off, len(l.text), ErrPosition)
	}
	n := searchStarts(l.start, off)
	content := l.content(n)
	col := min(off-l.start[n], len(content))
	for col > 0 && col < len(content) && !utf8.RuneStart(content[col]) {
		col-- // inside a multi-byte character: count up to its start
	}
	return uint32(n), units(content[:col], enc), nil
}

// Character converts a byte column on a line (as the index stores it) to
// the client's unit.
func (l *Lines) Character(line, byteCol uint32, enc Encoding) (uint32, error) {
	if int64(line) >= int64(len(l.start)) {
		return 0, fmt.Errorf("line %d of %d: %w", line, len(l.start), ErrPosition)
	}
	content := l.content(int(line))
	col := byteIndex(content, byteCol, UTF8)
	return units(content[:col], enc), nil
}

// units counts the characters of s in the given encoding.
func units(s []byte, enc Encoding) uint32 {
	if enc == UTF8 {
		return uint32(len(s))
	}
	var n uint32
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		n++
		if enc == UTF16 && r >= 0x10000 {
			n++
		}
		i += size
	}
	return n
}

// searchStarts returns the index of the last line start <= off.
func searchStarts(starts []int, off int) int {
	lo, hi := 0, len(starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if starts[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}
