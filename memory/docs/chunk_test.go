package docs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestChunk(t *testing.T) {
	para := func(n int, w string) string { return strings.TrimSpace(strings.Repeat(w+" ", n)) }
	tests := []struct {
		name          string
		text          string
		size, overlap int
		want          []string
	}{
		{"empty", " \n\n ", 100, -1, nil},
		{"one short paragraph, whitespace folded", "a  b\n c", 100, -1, []string{"a b c"}},
		{"paragraphs packed", "one.\n\ntwo.\n\nthree.", 100, -1, []string{"one.\n\ntwo.\n\nthree."}},
		{"paragraphs split at the size", para(10, "aaaa") + "\n\n" + para(10, "bbbb"), 60, -1,
			[]string{para(10, "aaaa"), para(10, "bbbb")}},
		{"long paragraph split at sentences", "First sentence here. Second sentence here. Third one!", 50, -1,
			[]string{"First sentence here. Second sentence here.", "Third one!"}},
		{"overlap repeats the last sentence", "Alpha beta gamma. Delta epsilon zeta. Eta theta iota.", 50, 20,
			[]string{"Alpha beta gamma. Delta epsilon zeta.", "Delta epsilon zeta. Eta theta iota."}},
		{"a long word is cut", strings.Repeat("x", 120), 50, -1, []string{strings.Repeat("x", 50), strings.Repeat("x", 50), strings.Repeat("x", 20)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Chunk(tt.text, tt.size, tt.overlap)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("Chunk = %q\nwant    %q", got, tt.want)
			}
		})
	}
}

// checkChunks is what every chunking must satisfy: chunks within the
// size, valid UTF-8 from valid input, and every word of the input that
// fits a chunk found in one.
func checkChunks(t *testing.T, text string, size, overlap int) {
	chunks := Chunk(text, size, overlap)
	limit := max(size, MinChunkSize)
	if size <= 0 {
		limit = DefaultChunkSize
	}
	seen := map[string]bool{}
	for _, c := range chunks {
		if len(c) > limit || strings.TrimSpace(c) == "" {
			t.Fatalf("chunk of %d bytes (limit %d): %q", len(c), limit, c)
		}
		if utf8.ValidString(text) && !utf8.ValidString(c) {
			t.Fatalf("invalid UTF-8 chunk %q", c)
		}
		for _, w := range strings.Fields(c) {
			seen[w] = true
		}
	}
	for _, w := range strings.Fields(text) {
		if len(w) <= limit && !seen[w] {
			t.Fatalf("word %q of the input is in no chunk", w)
		}
	}
}

func FuzzChunk(f *testing.F) {
	f.Add("Hello world. This is a test.\n\nA new paragraph!", 60, 20)
	f.Add(strings.Repeat("ünïcödé ", 40), 50, -1)
	f.Add("", 0, 0)
	f.Fuzz(func(t *testing.T, text string, size, overlap int) {
		if size > 1<<16 || len(text) > 1<<16 {
			return
		}
		checkChunks(t, text, size, overlap)
	})
}
