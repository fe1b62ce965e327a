package workspace

import (
	"bytes"
	"unicode/utf8"
)

// sniffLen is how much of a file IsBinary looks at, like git and grep do.
const sniffLen = 8 << 10

// IsBinary reports whether content looks like a binary (non-indexable) file
// by inspecting its first 8 KiB: a NUL byte or invalid UTF-8 means binary.
// A UTF-8 BOM is fine; a UTF-16/32 BOM counts as binary because the indexer
// only handles UTF-8 for now. A multi-byte rune cut by the end of the window
// is not held against the content, so callers may pass just the first 8 KiB
// (or any longer prefix) of a file.
func IsBinary(content []byte) bool {
	if len(content) >= 2 && (content[0] == 0xFF && content[1] == 0xFE || content[0] == 0xFE && content[1] == 0xFF) {
		return true
	}
	b := content[:min(len(content), sniffLen)]
	b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	return !utf8.Valid(trimPartialRune(b))
}

// trimPartialRune drops an incomplete (but so far valid-looking) UTF-8
// sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-(utf8.UTFMax-1); i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}
