package docs

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Chunking defaults: about 250 tokens of English a chunk, a fifth of it
// repeated at the start of the next so a sentence cut by a boundary is
// whole in one of them.
const (
	DefaultChunkSize    = 1000
	DefaultChunkOverlap = 200
	MinChunkSize        = 50
)

// unit is a piece of text no longer than the chunk size: a paragraph, a
// sentence or a run of words. para is set on the first unit of a
// paragraph, which joins its predecessor with a blank line.
type unit struct {
	text string
	para bool
}

var (
	paraRE     = regexp.MustCompile(`\n[ \t\r\f\v]*\n`)
	sentenceRE = regexp.MustCompile(`[.!?]["')\]]*\s+`)
)

// Chunk splits text into chunks of at most size bytes (DefaultChunkSize
// when size <= 0, MinChunkSize at least), each starting with up to
// overlap bytes of the end of the previous one (negative: none; 0:
// DefaultChunkOverlap; at most half the size). Whitespace inside a
// paragraph is folded to single spaces; paragraphs are separated by a
// blank line.
func Chunk(text string, size, overlap int) []string {
	if size <= 0 {
		size = DefaultChunkSize
	}
	size = max(size, MinChunkSize)
	switch {
	case overlap == 0:
		overlap = DefaultChunkOverlap
	case overlap < 0:
		overlap = 0
	}
	overlap = min(overlap, size/2)
	var chunks []string
	var cur []unit
	curLen := 0
	flush := func() {
		if len(cur) > 0 {
			chunks = append(chunks, join(cur))
		}
	}
	for _, u := range units(text, size) {
		if len(cur) > 0 && curLen+sepLen(u)+len(u.text) > size {
			flush()
			cur = tail(cur, overlap)
			curLen = len(join(cur))
			if len(cur) > 0 && curLen+sepLen(u)+len(u.text) > size {
				cur, curLen = nil, 0
			}
		}
		if len(cur) > 0 {
			curLen += sepLen(u)
		}
		cur = append(cur, u)
		curLen += len(u.text)
	}
	flush()
	return chunks
}

func sepLen(u unit) int {
	if u.para {
		return 2
	}
	return 1
}

func join(us []unit) string {
	var b strings.Builder
	for i, u := range us {
		if i > 0 {
			if u.para {
				b.WriteString("\n\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(u.text)
	}
	return b.String()
}

// tail is the last units of us whose joined length is at most n; the
// first of them starts a fresh chunk, so it loses its paragraph mark.
func tail(us []unit, n int) []unit {
	i, l := len(us), 0
	for i > 0 {
		add := len(us[i-1].text)
		if i < len(us) {
			add += sepLen(us[i])
		}
		if l+add > n {
			break
		}
		l += add
		i--
	}
	out := append([]unit(nil), us[i:]...)
	if len(out) > 0 {
		out[0].para = false
	}
	return out
}

// units splits text into paragraphs, then sentences, then words, then
// pieces of words, until each is at most size bytes.
func units(text string, size int) []unit {
	var out []unit
	for _, p := range paraRE.Split(text, -1) {
		p = strings.Join(strings.Fields(p), " ")
		if p == "" {
			continue
		}
		first := len(out) > 0
		add := func(s string) {
			out = append(out, unit{text: s, para: first})
			first = false
		}
		if len(p) <= size {
			add(p)
			continue
		}
		for _, s := range sentences(p) {
			if len(s) <= size {
				add(s)
				continue
			}
			for _, w := range words(s, size) {
				add(w)
			}
		}
	}
	return out
}

func sentences(p string) []string {
	var out []string
	last := 0
	for _, m := range sentenceRE.FindAllStringIndex(p, -1) {
		if s := strings.TrimSpace(p[last:m[1]]); s != "" {
			out = append(out, s)
		}
		last = m[1]
	}
	if s := strings.TrimSpace(p[last:]); s != "" {
		out = append(out, s)
	}
	return out
}

// words packs a sentence's words into runs of at most size bytes,
// cutting a longer word at rune boundaries.
func words(s string, size int) []string {
	var out []string
	cur := ""
	for _, w := range strings.Fields(s) {
		for len(w) > size {
			cut := size
			for cut > 0 && !utf8.RuneStart(w[cut]) {
				cut--
			}
			if cut == 0 { // a rune longer than size cannot happen (size >= 50)
				cut = size
			}
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
			out = append(out, w[:cut])
			w = w[cut:]
		}
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) <= size:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}
