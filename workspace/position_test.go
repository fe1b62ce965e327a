package workspace

import (
	"errors"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// The text mixes 1-, 2-, 3- and 4-byte characters, a CRLF line and a
// trailing newline: "é" is 2 bytes / 1 UTF-16 unit, "中" 3 bytes / 1 unit,
// "😀" 4 bytes / 2 units (a surrogate pair).
const posText = "aé中😀b\r\nx😀\n\n"

func TestLinesOffset(t *testing.T) {
	l := NewLines([]byte(posText))
	if l.Count() != 4 {
		t.Fatalf("Count = %d, want 4", l.Count())
	}
	for _, tc := range []struct {
		line, char uint32
		enc        Encoding
		want       int
	}{
		{0, 0, UTF16, 0},
		{0, 1, UTF16, 1},  // before é
		{0, 2, UTF16, 3},  // before 中
		{0, 3, UTF16, 6},  // before 😀
		{0, 4, UTF16, 6},  // inside the surrogate pair: its start
		{0, 5, UTF16, 10}, // before b
		{0, 6, UTF16, 11}, // line end, before \r\n
		{0, 99, UTF16, 11},
		{0, 4, UTF32, 10},
		{0, 3, UTF32, 6},
		{0, 2, UTF8, 1}, // inside é: its start
		{0, 3, UTF8, 3},
		{0, 50, UTF8, 11},
		{1, 1, UTF16, 14},
		{1, 3, UTF16, 18},
		{1, 9, UTF16, 18}, // clamps before \n
		{2, 0, UTF16, 19},
		{2, 5, UTF16, 19},
		{3, 0, UTF16, 20}, // the empty line after the final newline
	} {
		got, err := l.Offset(tc.line, tc.char, tc.enc)
		if err != nil || got != tc.want {
			t.Errorf("Offset(%d, %d, %s) = %d, %v; want %d", tc.line, tc.char, tc.enc, got, err, tc.want)
		}
	}
	if _, err := l.Offset(4, 0, UTF16); !errors.Is(err, ErrPosition) {
		t.Errorf("line past the end: err = %v", err)
	}
}

func TestLinesPosition(t *testing.T) {
	l := NewLines([]byte(posText))
	for _, tc := range []struct {
		off        int
		enc        Encoding
		line, char uint32
	}{
		{0, UTF16, 0, 0},
		{3, UTF16, 0, 2},
		{6, UTF16, 0, 3},
		{8, UTF16, 0, 3}, // inside 😀: its start
		{10, UTF16, 0, 5},
		{10, UTF32, 0, 4},
		{10, UTF8, 0, 10},
		{12, UTF16, 0, 6}, // on the \n of a CRLF: the line end
		{14, UTF16, 1, 1},
		{18, UTF16, 1, 3},
		{20, UTF16, 3, 0},
	} {
		line, char, err := l.Position(tc.off, tc.enc)
		if err != nil || line != tc.line || char != tc.char {
			t.Errorf("Position(%d, %s) = %d:%d, %v; want %d:%d", tc.off, tc.enc, line, char, err, tc.line, tc.char)
		}
	}
	for _, off := range []int{-1, len(posText) + 1} {
		if _, _, err := l.Position(off, UTF16); !errors.Is(err, ErrPosition) {
			t.Errorf("Position(%d): err = %v", off, err)
		}
	}
}

func TestLinesCharacter(t *testing.T) {
	l := NewLines([]byte(posText))
	// Byte column 10 on line 0 is "b": after a, é, 中, 😀.
	for enc, want := range map[Encoding]uint32{UTF16: 5, UTF32: 4, UTF8: 10} {
		if got, err := l.Character(0, 10, enc); err != nil || got != want {
			t.Errorf("Character(0, 10, %s) = %d, %v; want %d", enc, got, err, want)
		}
	}
	if _, err := l.Character(9, 0, UTF16); !errors.Is(err, ErrPosition) {
		t.Errorf("Character past the end: err = %v", err)
	}
}

// FuzzLines checks, for arbitrary text, that every character boundary
// survives a round trip through each encoding, and that UTF-16 counts agree
// with the standard library's encoder.
func FuzzLines(f *testing.F) {
	f.Add([]byte(posText))
	f.Add([]byte("\xff\xfe\r\r\n\x00😀"))
	f.Fuzz(func(t *testing.T, text []byte) {
		l := NewLines(text)
		for off := 0; off <= len(text); off++ {
			if off < len(text) && !utf8.RuneStart(text[off]) {
				continue
			}
			for _, enc := range []Encoding{UTF16, UTF8, UTF32} {
				line, char, err := l.Position(off, enc)
				if err != nil {
					t.Fatalf("Position(%d, %s): %v", off, enc, err)
				}
				back, err := l.Offset(line, char, enc)
				if err != nil {
					t.Fatalf("Offset(%d, %d, %s): %v", line, char, enc, err)
				}
				content := l.content(int(line))
				if end := l.start[line] + len(content); off <= end && back != off {
					t.Fatalf("offset %d -> %d:%d (%s) -> %d", off, line, char, enc, back)
				}
			}
			line, char, _ := l.Position(off, UTF16)
			prefix := l.text[l.start[line]:min(off, l.start[line]+len(l.content(int(line))))]
			if want := len(utf16.Encode([]rune(string(prefix)))); int(char) != want {
				t.Fatalf("offset %d: UTF-16 char %d, want %d", off, char, want)
			}
		}
	})
}
