package extract

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// maxSignature caps stored signature lines; longer ones end in "…".
const maxSignature = 200

// maxDoc caps stored doc lines.
const maxDoc = 200

// SignatureAt returns the trimmed source line that starts at byte offset
// off, capped at maxSignature bytes on a rune boundary.
func SignatureAt(src []byte, off int) string {
	if off < 0 || off > len(src) {
		return ""
	}
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src) - off
	}
	// Trimmed as bytes, so that only the capped part of a minified
	// file's line is copied.
	line := bytes.TrimSpace(src[off : off+end])
	line = bytes.TrimSpace(bytes.TrimSuffix(line, []byte("{")))
	if len(line) <= maxSignature {
		return string(line)
	}
	cut := maxSignature
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return string(line[:cut]) + "…"
}

// capString shortens s to at most n bytes on a rune boundary, marking the cut.
func capString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// DocLine returns the first non-empty line of a comment's text with comment
// markers (//, #, /*, *, --, ///, """) removed.
func DocLine(comment string) string {
	for _, line := range strings.Split(comment, "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{"///", "//!", "//", "/**", "/*", "*/", "--[[", "--", "#", "\"\"\"", "'''", "*"} {
			line = strings.TrimSpace(strings.TrimPrefix(line, p))
		}
		line = strings.TrimSpace(strings.TrimSuffix(line, "*/"))
		line = strings.TrimSpace(strings.TrimSuffix(line, "\"\"\""))
		if line != "" {
			return capString(line, maxDoc)
		}
	}
	return ""
}

var todoTags = [...]string{"TODO", "FIXME", "HACK", "XXX"}

// hasTodoTag reports whether a comment may hold a marker (ScanTodos
// decides), so that only those comments are copied out of the source. It
// looks for the tags' rarer letters, X (FIXME, XXX), D (TODO) and K (HACK),
// and checks the bytes around each: searching for every tag by its first
// letter stopped at most capitals of prose ("The", "For", "How") and cost
// 1.5x as much over GOROOT/src's comments (35 against 23 ms).
func hasTodoTag(b []byte) bool {
	return around(b, 'X', "FIXME", 2) || around(b, 'X', "XXX", 0) ||
		around(b, 'D', "TODO", 2) || around(b, 'K', "HACK", 3)
}

// around reports whether tag occurs in b with its byte at index at being c.
func around(b []byte, c byte, tag string, at int) bool {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], c)
		if j < 0 {
			return false
		}
		i += j
		if s := i - at; s >= 0 && s+len(tag) <= len(b) && string(b[s:s+len(tag)]) == tag {
			return true
		}
		i++
	}
}

// ScanTodos appends the TODO/FIXME/HACK/XXX markers found in a comment whose
// first line is startLine. A tag counts only as a whole upper-case word, so
// "todos" or "XXXL" are not markers.
func ScanTodos(comment string, startLine uint32, out []Todo) []Todo {
	line := startLine
	for len(comment) > 0 {
		text := comment
		if i := strings.IndexByte(comment, '\n'); i >= 0 {
			text, comment = comment[:i], comment[i+1:]
		} else {
			comment = ""
		}
		if t, ok := todoInLine(text); ok {
			t.Line = line
			out = append(out, t)
		}
		line++
	}
	return out
}

func todoInLine(text string) (Todo, bool) {
	for _, tag := range todoTags {
		i := strings.Index(text, tag)
		for i >= 0 {
			before := i == 0 || !isWordByte(text[i-1])
			after := i+len(tag) == len(text) || !isWordByte(text[i+len(tag)])
			if before && after {
				rest := strings.TrimSpace(text[i+len(tag):])
				if strings.HasPrefix(rest, "(") { // TODO(owner): text
					if j := strings.IndexByte(rest, ')'); j > 0 {
						rest = rest[j+1:]
					}
				}
				rest = strings.TrimLeft(rest, ":- ")
				rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "*/"))
				return Todo{Tag: tag, Text: capString(rest, maxDoc)}, true
			}
			j := strings.Index(text[i+1:], tag)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return Todo{}, false
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
