package ledger

import (
	"slices"
	"strings"
)

// allmanHeaders are the languages in which braceBodies also takes a "{"
// on a line of its own as a body's start when the lines before it are a
// function's header: C and C++, where Boost and many others write every
// body so, and where a grammar's error (a template default argument
// written with "&&" and "!", an #if splitting a class's head) can leave
// a whole class without symbols, and so without bodies to elide.
var allmanHeaders = map[string]bool{"c": true, "cpp": true}

// headerTail are the words C++ allows after a function's parameters and
// before its body.
var headerTail = []string{"const", "noexcept", "override", "final", "volatile", "&", "&&", "mutable"}

// allmanHeader says whether the lines before line n (a lone "{") end a
// function's header: the last line of code ends in ")", maybe followed by
// qualifiers (const, noexcept, override, an upper-case macro), and the
// header it closes, from the line where its parentheses open, does not
// start a control statement nor declare a type.
func allmanHeader(lines []string, n int) bool {
	p := n - 1
	for p >= 1 && strings.TrimSpace(lines[p-1]) == "" {
		p--
	}
	if p < 1 {
		return false
	}
	last := lines[p-1]
	if i := strings.Index(last, "//"); i >= 0 {
		last = last[:i] // f(x) // never throws
	}
	f := strings.Fields(last)
	for len(f) > 0 && (slices.Contains(headerTail, f[len(f)-1]) || isMacroWord(f[len(f)-1])) {
		f = f[:len(f)-1]
	}
	if len(f) == 0 || !strings.HasSuffix(f[len(f)-1], ")") {
		return false
	}
	depth, q := 0, p
	for ; q >= 1 && q > p-12; q-- {
		depth += strings.Count(lines[q-1], ")") - strings.Count(lines[q-1], "(")
		if depth <= 0 {
			break
		}
	}
	if depth > 0 || q < 1 {
		return false
	}
	t := strings.TrimSpace(lines[q-1])
	if strings.HasPrefix(t, "}") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.Contains(t, "=>") {
		return false
	}
	words := strings.FieldsFunc(t, func(r rune) bool { return !isWordRune(r) && r != '_' })
	if len(words) == 0 {
		return strings.HasPrefix(t, ":") // a constructor's initializer list
	}
	switch words[0] {
	case "if", "else", "for", "while", "switch", "do", "try", "catch", "return", "sizeof", "decltype", "static_assert":
		return false
	}
	if rest, ok := strings.CutPrefix(t, "template"); ok {
		t = skipAngles(rest)
	}
	open := strings.IndexByte(t, '(')
	if before := strings.Fields(t[:max(open, 0)]); len(before) == 1 && isMacroWord(before[0]) {
		return false // BOOST_NAMESPACE_BEGIN(detail) opens declarations
	}
	for _, w := range strings.FieldsFunc(t[:max(open, 0)], func(r rune) bool { return !isWordRune(r) && r != '_' }) {
		if slices.Contains(typeKeywords, w) {
			return false
		}
	}
	return true
}

// isMacroWord says whether a word is an upper-case macro name
// (BOOST_NOEXCEPT, ABSL_ATTRIBUTE_LIFETIME_BOUND).
func isMacroWord(w string) bool {
	return len(w) > 2 && strings.ContainsRune(w, '_') && strings.ToUpper(w) == w && !strings.ContainsAny(w, "()")
}

// skipAngles returns s after its leading template parameter list, the
// "<...>" it opens with (after spaces), or s when it opens with none.
func skipAngles(s string) string {
	t := strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(t, "<") {
		return s
	}
	depth := 0
	for i, c := range t {
		switch c {
		case '<':
			depth++
		case '>':
			if depth--; depth == 0 {
				return t[i+1:]
			}
		}
	}
	return s
}

// oneLineBody says whether a trimmed line is a whole body, "{ return x; }".
func oneLineBody(t string) bool {
	t = strings.TrimSuffix(t, ";")
	return len(t) > 2 && t[0] == '{' && t[len(t)-1] == '}' && braceDelta(t) == 0
}
