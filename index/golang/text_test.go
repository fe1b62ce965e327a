package golang

import (
	"strings"
	"testing"
)

// TestGoNotNameAt checks which positions of a Go file are not on a name:
// comment words (but not doc links), literals and keywords.
func TestGoNotNameAt(t *testing.T) {
	const src = "package p\n\n" +
		"// F returns a [T] made by [strings.NewReader]; the test wants it.\n" +
		"func F() T { return T{s: \"want test\", r: 'x'} } // want\n" +
		"/* block want */ var raw = `a\nwant`\n"
	for _, c := range []struct {
		at   string // the text at the position (its first occurrence)
		want bool
	}{
		{"F returns", true},   // a comment word
		{"T] made", false},    // a doc link
		{"NewReader]", false}, // a qualified doc link
		{"strings.", false},
		{"test wants", true},
		{"func", true}, // a keyword
		{"unc F", true},
		{"return", true},
		{"T{", false},
		{"s:", false},
		{"want test", true}, // a string
		{"x'", true},        // a rune
		{"want\n", true},    // the end of a line comment
		{"block", true},
		{"raw", false},
		{"want`", true}, // a raw string's second line
		{"package", true},
		{"p\n", false},
	} {
		off := strings.Index(src, c.at)
		if got := NotNameAt([]byte(src), off); got != c.want {
			t.Errorf("%q: got %v, want %v", c.at, got, c.want)
		}
	}
	// A cursor just after the comment's last word.
	end := strings.Index(src, "// want\n") + len("// want")
	if !NotNameAt([]byte(src), end) {
		t.Errorf("end of a line comment: got false, want true")
	}
}
