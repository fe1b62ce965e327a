package extract

import (
	"bytes"
	"strings"
)

// macroSuffixes end the names of macros that stand before a declaration
// whose type is a constructor's name (`BOOST_INTERPROCESS_FORCEINLINE
// offset_ptr()`), where one word follows the macro.
var macroSuffixes = []string{"API", "EXPORT", "INLINE", "DECL", "NODISCARD", "CONSTEXPR", "ATTRIBUTE", "UNUSED"}

// qualifierWords may stand between a function's parameters and a macro
// after them.
var qualifierWords = map[string]bool{"const": true, "noexcept": true, "override": true, "final": true, "volatile": true, "&": true, "&&": true}

// cMaskMacros blanks the macros cMask describes, line by line, outside
// comments, strings and preprocessor lines. It returns src itself when
// there is none.
func cMaskMacros(src []byte) []byte {
	var out []byte
	blank := func(from, to int) {
		if out == nil {
			out = bytes.Clone(src)
		}
		for k := from; k < to; k++ {
			out[k] = ' '
		}
	}
	inBlock, cont := false, false
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := src[off : off+end]
		code, wasBlock := codeOf(line, inBlock)
		inBlock = wasBlock
		t := bytes.TrimSpace(code)
		directive := cont || len(t) > 0 && t[0] == '#'
		cont = directive && bytes.HasSuffix(bytes.TrimRight(line, " \t\r"), []byte("\\"))
		if !directive && len(t) > 0 {
			for _, r := range macroSpans(string(code)) {
				blank(off+r[0], off+r[1])
			}
			if r, ok := pureSpecifier(string(code)); ok {
				blank(off+r[0], off+r[1])
			}
		}
		off += end + 1
	}
	if out == nil {
		return src
	}
	return out
}

// codeOf returns line with its comments and string literals blanked
// (same length), and whether a block comment is open at its end.
func codeOf(line []byte, inBlock bool) ([]byte, bool) {
	c := bytes.Clone(line)
	var quote byte
	for i := 0; i < len(c); i++ {
		switch {
		case inBlock:
			if c[i] == '*' && i+1 < len(c) && c[i+1] == '/' {
				inBlock = false
				c[i], c[i+1] = ' ', ' '
				i++
			} else {
				c[i] = ' '
			}
		case quote != 0:
			if c[i] == '\\' && i+1 < len(c) {
				c[i], c[i+1] = ' ', ' '
				i++
			} else if c[i] == quote {
				quote = 0
			} else {
				c[i] = ' '
			}
		case c[i] == '"' || c[i] == '\'':
			quote = c[i]
		case c[i] == '/' && i+1 < len(c) && c[i+1] == '/':
			for k := i; k < len(c); k++ {
				c[k] = ' '
			}
			return c, false
		case c[i] == '/' && i+1 < len(c) && c[i+1] == '*':
			inBlock = true
			c[i], c[i+1] = ' ', ' '
			i++
		}
	}
	return c, inBlock
}

// macroSpans returns the byte ranges of a line of code to blank.
func macroSpans(code string) [][2]int {
	words := cWords(code)
	var out [][2]int
	for i, w := range words {
		if !isMacroName(w.text) {
			continue
		}
		span := [2]int{w.start, w.end}
		if w.end < len(code) && code[w.end] == '(' {
			close := cMatchParen(code, w.end)
			if close < 0 {
				continue
			}
			span[1] = close + 1
		}
		rest := strings.TrimSpace(code[span[1]:])
		prev := ""
		if i > 0 {
			prev = words[i-1].text
		}
		before := strings.TrimSpace(code[:w.start])
		switch {
		case before == "" && rest == "":
			// A line that is only a macro, or a macro call without a
			// semicolon.
		case (prev == "class" || prev == "struct" || prev == "union") && i+1 < len(words) && words[i+1].start >= span[1] &&
			strings.TrimSpace(code[w.end:words[i+1].start]) == "":
			// class MACRO Name
		case before == "" && span[1] == w.end && declAfter(code[span[1]:], w.text):
			// MACRO type name(...), MACRO Ctor(...)
		case afterParams(before):
			// f() const MACRO, f() MACRO(args) {
			if rest != "" && !strings.ContainsAny(rest[:1], "{;:=-") && !isMacroName(firstWord(rest)) && !qualifierWords[firstWord(rest)] {
				continue
			}
		case span[1] > w.end && afterName(before) && rest != "" && strings.ContainsAny(rest[:1], ";={"):
			// int n_ GUARDED_BY(mu_);
		default:
			continue
		}
		out = append(out, span)
	}
	return out
}

// pureSpecifier returns the "= 0" of a pure virtual function's
// declaration ending on this line, `virtual Status f(int x) = 0;`: the
// grammar fails on it after a return type named by one identifier (all of
// leveldb's Env), and without it the declaration parses.
func pureSpecifier(code string) ([2]int, bool) {
	eq := strings.LastIndexByte(code, '=')
	if eq < 0 {
		return [2]int{}, false
	}
	rest := strings.TrimSpace(code[eq+1:])
	if !strings.HasPrefix(rest, "0") || strings.TrimSpace(rest[1:]) != ";" || !afterParams(code[:eq]) {
		return [2]int{}, false
	}
	zero := eq + 1 + strings.IndexByte(code[eq+1:], '0')
	return [2]int{eq, zero + 1}, true
}

// statementWords start statements, not declarations.
var statementWords = map[string]bool{"return": true, "else": true, "case": true, "goto": true, "throw": true,
	"co_return": true, "co_yield": true, "delete": true, "new": true, "do": true, "if": true, "for": true,
	"while": true, "switch": true, "catch": true, "sizeof": true}

// afterParams says whether the code before a word ends with a function's
// parameters and maybe qualifiers or other macros, not with a control
// statement's condition (`if (x) MACRO(y);`).
func afterParams(before string) bool {
	for {
		before = strings.TrimSpace(before)
		if strings.HasSuffix(before, ")") {
			// The "(" may be on an earlier line of the declaration.
			open := cMatchOpen(before, len(before)-1)
			ws := cWords(before[:max(open, 0)])
			return (open < 0 || len(ws) > 0 && !statementWords[ws[len(ws)-1].text]) && !statementWords[firstWord(strings.TrimSpace(before))]
		}
		i := strings.LastIndexAny(before, " \t)")
		last := before[i+1:]
		if last == "" || !(qualifierWords[last] || isMacroName(last)) {
			return false
		}
		before = before[:i+1]
	}
}

// afterName says whether the code before a macro call is a declaration's
// type and name (`int n_`, `std::mutex mu_`).
func afterName(before string) bool {
	t := strings.TrimSpace(before)
	ws := cWords(t)
	return len(ws) >= 2 && t != "" && cIdentByte(t[len(t)-1]) && ws[len(ws)-1].end == len(t) && !statementWords[ws[0].text] &&
		!strings.ContainsAny(t, "=(){};,")
}

// cMatchOpen is the index of the "(" opened for the ")" at close, or -1.
func cMatchOpen(s string, close int) int {
	depth := 0
	for i := close; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// declAfter says whether what follows a macro at a line's start is a
// declaration: a type and a name, or a constructor when the macro's name
// says it is an attribute (macroSuffixes).
func declAfter(rest, macro string) bool {
	ws := cWords(rest)
	n := 0
	for _, w := range ws {
		if strings.ContainsAny(strings.TrimSpace(rest[:w.start]), "(;={") {
			break
		}
		n++
	}
	if n >= 2 {
		return true
	}
	for _, s := range macroSuffixes {
		if n == 1 && strings.HasSuffix(macro, s) && strings.Contains(rest, "(") {
			return true
		}
	}
	return false
}

// isMacroName says whether a word is a macro's name: capitals, digits and
// underscores, with an underscore inside and a letter first.
func isMacroName(w string) bool {
	if len(w) < 4 || w[0] < 'A' || w[0] > 'Z' || !strings.Contains(strings.Trim(w, "_"), "_") {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

type cWord struct {
	text       string
	start, end int
}

// cWords are the identifiers of a line of code, with their offsets.
func cWords(code string) []cWord {
	var out []cWord
	for i := 0; i < len(code); {
		if !cIdentByte(code[i]) {
			i++
			continue
		}
		j := i
		for j < len(code) && cIdentByte(code[j]) {
			j++
		}
		if code[i] < '0' || code[i] > '9' {
			out = append(out, cWord{code[i:j], i, j})
		}
		i = j
	}
	return out
}

func firstWord(s string) string {
	if ws := cWords(s); len(ws) > 0 && ws[0].start == 0 {
		return ws[0].text
	}
	return ""
}

// cMatchParen is the index of the ")" closing the "(" at open, or -1.
func cMatchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}
