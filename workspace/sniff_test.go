package workspace

import (
	"bytes"
	"strings"
	"testing"
)

func TestIsBinary(t *testing.T) {
	euro := "€" // 3 bytes: E2 82 AC
	pad := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"empty", "", false},
		{"ascii", "package main\n", false},
		{"utf8", "héllo wörld " + euro, false},
		{"utf8 bom", "\xEF\xBB\xBFhello", false},
		{"nul", "abc\x00def", true},
		{"nul after window", pad(sniffLen) + "\x00", false},
		{"invalid utf8", "abc\xFFdef", true},
		{"invalid continuation", "abc\xE2(def", true},
		{"overlong", "\xC0\xAF", true},
		{"invalid after window", pad(sniffLen) + "\xFF", false},
		{"rune cut at boundary", pad(sniffLen-1) + euro + "tail", false},
		{"rune cut by two", pad(sniffLen-2) + euro + "tail", false},
		{"rune ends at boundary", pad(sniffLen-3) + euro, false},
		{"head passed alone", pad(sniffLen-1) + euro[:1], false},
		{"truncated rune at end", "abc" + euro[:2], false},
		{"invalid just before boundary", pad(sniffLen-2) + "\xFFa" + "tail", true},
		{"utf16le bom", "\xFF\xFEh\x00i\x00", true},
		{"utf16be bom", "\xFE\xFF\x00h\x00i", true},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", true},
	}
	for _, tc := range tests {
		if got := IsBinary([]byte(tc.in)); got != tc.want {
			t.Errorf("%s: IsBinary = %v, want %v", tc.name, got, tc.want)
		}
	}
	// A 4-byte rune cut at every possible offset of the window end.
	emoji := "😀"
	for cut := 1; cut < len(emoji); cut++ {
		in := pad(sniffLen-cut) + emoji + "x"
		if IsBinary([]byte(in)) {
			t.Errorf("emoji cut after %d bytes reported binary", cut)
		}
	}
}

func BenchmarkIsBinary(b *testing.B) {
	src := bytes.Repeat([]byte("func main() { println(\"héllo\") }\n"), 1000)
	b.SetBytes(sniffLen)
	for b.Loop() {
		IsBinary(src)
	}
}
