package complete

import (
	"strings"
)

// Lexical facts about the cursor that decide what a completion may be,
// from the text alone: they run at every keystroke, for every language,
// before any parse.

// lexicon is how a language writes comments and strings, as far as
// finding whether the cursor is inside one needs.
type lexicon struct {
	line        []string    // line comment openers
	block       [][2]string // block comment delimiters
	quotes      string      // one-character string delimiters
	triple      bool        // """ and ''' strings (Python)
	indentBlock bool        // blocks by indentation (Python)
}

var cLike = lexicon{line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: `"'`}

var lexicons = map[string]lexicon{
	"go":         {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'`"},
	"python":     {line: []string{"#"}, quotes: `"'`, triple: true, indentBlock: true},
	"typescript": {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'`"},
	"tsx":        {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'`"},
	"javascript": {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "\"'`"},
	"ruby":       {line: []string{"#"}, quotes: `"'`},
	"bash":       {line: []string{"#"}, quotes: `"'`},
	"lua":        {line: []string{"--"}, block: [][2]string{{"--[[", "]]"}}, quotes: `"'`},
	"php":        {line: []string{"//", "#"}, block: [][2]string{{"/*", "*/"}}, quotes: `"'`},
	"sql":        {line: []string{"--"}, block: [][2]string{{"/*", "*/"}}, quotes: `'`},
	"yaml":       {line: []string{"#"}, quotes: `"'`},
	"toml":       {line: []string{"#"}, quotes: `"'`},
	"rust":       {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: `"`},
	"markdown":   {},
}

func lexiconOf(lang string) lexicon {
	if l, ok := lexicons[lang]; ok {
		return l
	}
	return cLike
}

// inCommentOrString reports whether the end of prefix lies inside a
// comment or a string literal of lang. It scans the whole prefix once;
// an unterminated one-line string ends at its line's end, except Go's and
// JavaScript's backquoted ones, which may span lines.
func inCommentOrString(lang, prefix string) bool {
	lx := lexiconOf(lang)
	i, n := 0, len(prefix)
	for i < n {
		if lx.triple && i+3 <= n && (prefix[i:i+3] == `"""` || prefix[i:i+3] == `'''`) {
			end := strings.Index(prefix[i+3:], prefix[i:i+3])
			if end < 0 {
				return true
			}
			i += 3 + end + 3
			continue
		}
		if open, close, ok := blockAt(lx, prefix, i); ok {
			end := strings.Index(prefix[i+len(open):], close)
			if end < 0 {
				return true
			}
			i += len(open) + end + len(close)
			continue
		}
		if lineAt(lx, prefix, i) {
			nl := strings.IndexByte(prefix[i:], '\n')
			if nl < 0 {
				return true
			}
			i += nl + 1
			continue
		}
		if q := prefix[i]; strings.IndexByte(lx.quotes, q) >= 0 {
			j, closed := closeQuote(prefix, i, q)
			if !closed {
				return true
			}
			i = j
			continue
		}
		i++
	}
	return false
}

func blockAt(lx lexicon, s string, i int) (open, close string, ok bool) {
	for _, b := range lx.block {
		if strings.HasPrefix(s[i:], b[0]) {
			return b[0], b[1], true
		}
	}
	return "", "", false
}

func lineAt(lx lexicon, s string, i int) bool {
	for _, l := range lx.line {
		if strings.HasPrefix(s[i:], l) {
			return true
		}
	}
	return false
}

// closeQuote finds the end of the string opened by quote q at s[i]: the
// index after its closing quote, or closed false when s ends inside it.
// A one-line string (not `) that meets a newline is closed there.
func closeQuote(s string, i int, q byte) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			return j + 1, true
		case '\n':
			if q != '`' {
				return j + 1, true
			}
		}
	}
	return len(s), false
}

// wantsMultiline decides, from the text around the cursor, whether a
// completion may span lines: at an empty line (or the end of an opening
// line) inside a block that has no body yet, the body is wanted; anywhere
// else the rest of the current line is.
func wantsMultiline(lang, prefix, suffix string) bool {
	lineStart := strings.LastIndexByte(prefix, '\n') + 1
	before := prefix[lineStart:]
	after, _, _ := strings.Cut(suffix, "\n")
	if strings.TrimSpace(after) != "" {
		return false
	}
	last := strings.TrimRight(prefix, " \t")
	if strings.TrimSpace(before) != "" {
		// The cursor ends an opening line: `func f() {|`.
		return opensBlock(lang, last)
	}
	prev := strings.TrimRight(prefix[:lineStart], " \t\r\n")
	if !opensBlock(lang, prev) {
		return false
	}
	// The block is empty when what follows closes it (or, by
	// indentation, is not deeper than the opening line).
	next := firstNonBlankLine(suffix[len(after):])
	if lexiconOf(lang).indentBlock {
		return next == "" || indentOf(next) <= indentOf(lastLine(prev))
	}
	t := strings.TrimSpace(next)
	return t == "" || strings.HasPrefix(t, "}") || strings.HasPrefix(t, ")") || strings.HasPrefix(t, "]") || strings.HasPrefix(t, "end")
}

func opensBlock(lang, s string) bool {
	if s == "" {
		return false
	}
	if lexiconOf(lang).indentBlock {
		return strings.HasSuffix(s, ":")
	}
	switch s[len(s)-1] {
	case '{', '(', '[':
		return true
	}
	return strings.HasSuffix(s, "=>") || strings.HasSuffix(s, " do") || strings.HasSuffix(s, " then")
}

func firstNonBlankLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}

func lastLine(s string) string { return s[strings.LastIndexByte(s, '\n')+1:] }

// indentOf is the width of s's leading white space (a tab counts 4).
func indentOf(s string) int {
	w := 0
	for _, c := range s {
		switch c {
		case ' ':
			w++
		case '\t':
			w += 4
		default:
			return w
		}
	}
	return w
}
