package complete

import (
	"strings"
)

// Clean turns a model's raw middle into what the editor may insert at the
// cursor: the rest of the line only when multiline is false; no text the
// suffix already has (the model often repeats the closing `)` or the
// rest of the line); no closing bracket that closes one opened before the
// cursor when the suffix closes it too; nothing past the end of the
// enclosing block; trailing white space dropped. It returns "" when
// nothing useful is left.
func Clean(lang, raw, prefix, suffix string, multiline bool) string {
	s := strings.ReplaceAll(raw, "\r\n", "\n")
	if !multiline {
		s, _, _ = strings.Cut(s, "\n")
	} else {
		s = endOfBlock(lang, s, prefix)
	}
	s = strings.TrimRight(s, " \t\n")
	s = balance(s, suffix)
	s = dropSuffixOverlap(s, suffix)
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

// dropSuffixOverlap removes the longest end of s that the suffix's first
// line starts with (`x + 1 // sum` before the suffix ` // sum` keeps
// `x + 1`); a multi-line s ends where the suffix's line starts.
func dropSuffixOverlap(s, suffix string) string {
	line, _, _ := strings.Cut(suffix, "\n")
	line = strings.TrimRight(line, " \t\r")
	if line == "" {
		return s
	}
	first, _, multi := strings.Cut(s, "\n")
	if multi {
		// A multi-line middle ends where the suffix's line starts.
		if i := strings.LastIndex(s, line); i >= 0 && strings.TrimSpace(s[i+len(line):]) == "" {
			return strings.TrimRight(s[:i], " \t")
		}
		return s
	}
	for k := min(len(first), len(line)); k > 0; k-- {
		// Closers are balance's: a closer the middle opened is its own.
		if strings.HasSuffix(first, line[:k]) && !strings.ContainsAny(line[:k], ")]}") {
			return first[:len(first)-k]
		}
	}
	return s
}

var closers = map[byte]byte{')': '(', ']': '[', '}': '{'}

// balance cuts s before a closing bracket that has no opener in s when
// the suffix's line closes that bracket too: the model repeated the
// closer the user already has. Brackets inside strings are not told
// apart; a string holding one is rare at a completion's edge.
func balance(s, suffix string) string {
	line, _, _ := strings.Cut(suffix, "\n")
	line = strings.TrimSpace(line)
	var stack []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '(', '[', '{':
			stack = append(stack, c)
		case ')', ']', '}':
			if len(stack) > 0 && stack[len(stack)-1] == closers[c] {
				stack = stack[:len(stack)-1]
				continue
			}
			if strings.IndexByte(line, c) >= 0 {
				return strings.TrimRight(s[:i], " \t")
			}
		}
	}
	return s
}

// endOfBlock cuts a multi-line middle where it leaves the block the
// cursor is in: a line that closes more brackets than the middle opened
// (the enclosing block's own closer, which the buffer already has), or,
// for indentation-blocked languages, a line indented less than the
// cursor's block.
func endOfBlock(lang, s, prefix string) string {
	lines := strings.Split(s, "\n")
	if lexiconOf(lang).indentBlock {
		cur := lastLine(prefix)
		base := indentOf(cur)
		if cur == "" {
			// At column 0 after `def f():` the body's lines are deeper
			// than the opening line, whatever the model indents them by.
			base = indentOf(lastLine(strings.TrimRight(prefix, " \t\r\n"))) + 1
		}
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) != "" && indentOf(lines[i]) < base {
				return strings.Join(lines[:i], "\n")
			}
		}
		return s
	}
	depth := 0
	for i, l := range lines {
		for j := 0; j < len(l); j++ {
			switch l[j] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
				if depth < 0 {
					// The rest of this line belongs to the buffer.
					kept := strings.TrimRight(l[:j], " \t")
					if strings.TrimSpace(kept) == "" {
						return strings.Join(lines[:i], "\n")
					}
					return strings.Join(append(lines[:i:i], kept), "\n")
				}
			}
		}
	}
	return s
}
