package extract

import (
	"bytes"
	"slices"
	"strings"
)

// gotreesitter v0.24's C and C++ grammars lose the rest of a file on two
// preprocessor habits common in Boost, so the C and C++ extractors mask
// them before parsing (cMask, the spec's mask, which ParseTree uses too).
// Like tsMask, masking keeps every byte's offset; names, signatures and
// docs are read from the original source.
//
// A null directive, a line holding only "#" (Boost.Interprocess puts one
// after its include guard): the grammar reads it as the start of a
// directive that never ends, and a 1,350-line header gave one symbol, its
// include guard. cMask blanks the "#".
//
// A conditional whose branches each hold another head of the declaration
// that follows it (Boost.Beast writes one for its documentation):
//
//	#if BOOST_BEAST_DOXYGEN
//	template<bool isRequest, class Fields = fields>
//	class header : public Fields
//	#else
//	template<class Fields>
//	class header<true, Fields> : public Fields
//	#endif
//	{
//
// Two heads with one body do not parse, and the class, its members and
// the rest of the file lost their symbols. A conditional on a Doxygen
// macro (one whose name has "DOXYGEN", tested alone, negated or not) is
// resolved as a compiler resolves it, the macro undefined: the branch a
// build takes stays and the directives and the other branch are blanked
// (Beast's "#if BOOST_BEAST_DOXYGEN" branches also close one class in one
// and the next class's head in the other). Any other conditional whose
// every branch ends inside a declaration (its last line of code ends in
// none of ";", "{", "}", "," nor a backslash) keeps its first branch
// alone. A conditional whose branches are whole declarations is left
// alone, and its branches' symbols are all extracted.
//
// And one habit of all C++: a function returning a reference or pointer
// to a type named by one identifier after a specifier, `const T &get()
// const;`, `virtual Status* f();`, `static Node *make();` (with a
// primitive or qualified type, `const int&` or `const std::string&`, it
// parses): the grammar fails on it and on the class around it, whose
// other members lose their symbols too (Boost's interprocess_mutex: none
// of its 14 members). cMaskRefReturn blanks the "&" or "*": `const T
// get() const;` parses, the function's range still starts where its text
// does, and its signature is read from the source.
//
// And macros the grammar cannot expand, in C++ only (cMaskMacros), which
// cost a class all its members wherever they stand: an attribute or
// export macro between "class" and the name (`class LEVELDB_EXPORT Env`,
// `class ABSL_ATTRIBUTE_WARN_UNUSED FixedArray`), before a declaration
// (`FMT_API void f();`, `BOOST_INTERPROCESS_FORCEINLINE offset_ptr()`),
// after a function's parameters (`get() BOOST_NOEXCEPT`,
// `data() ABSL_ATTRIBUTE_LIFETIME_BOUND {`, `LOCKS_EXCLUDED(mu_);`), and
// a line that is only a macro call without a semicolon
// (`BOOST_COPYABLE_AND_MOVABLE(intrusive_ptr)`). A macro is a name in
// capitals with an underscore; such names are blanked, with their
// arguments.

// cMask is src as it is parsed, or src itself when nothing is masked.
func cMask(src []byte) []byte {
	return cMaskRefReturn(cMaskDirectives(src))
}

// cppMask is cMask and cMaskMacros, for C++.
func cppMask(src []byte) []byte {
	return cMaskMacros(cMask(src))
}

// cMaskDirectives blanks null directives and the directives and branches
// of the conditionals cMask describes.
func cMaskDirectives(src []byte) []byte {
	if !bytes.Contains(src, []byte("#")) {
		return src
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	var blank []int // lines to blank
	var stack []cCond
	for i, l := range lines {
		switch d := cDirective(l); d {
		case "":
			continue
		case "#":
			blank = append(blank, i)
		case "if", "ifdef", "ifndef":
			stack = append(stack, cCond{start: i, doxygen: cDoxygen(lines[i])})
		case "else", "elif", "elifdef", "elifndef":
			if n := len(stack); n > 0 {
				stack[n-1].arms = append(stack[n-1].arms, i)
			}
		case "endif":
			n := len(stack)
			if n == 0 {
				continue
			}
			c := stack[n-1]
			stack = stack[:n-1]
			blank = append(blank, c.blanked(lines, i)...)
		}
	}
	if len(blank) == 0 {
		return src
	}
	out := bytes.Clone(src)
	off := make([]int, len(lines)+1)
	for i, l := range lines {
		off[i+1] = off[i] + len(l)
	}
	for _, i := range blank {
		for k := off[i]; k < off[i+1]; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	return out
}

// cCond is an open conditional: the line of its #if and of each #else
// and #elif, and whether a build takes its first branch (doxygen 1) or
// not (2) when it tests a Doxygen macro alone (0 when not).
type cCond struct {
	start   int
	arms    []int
	doxygen int
}

// blanked returns the lines of the conditional ending at line end that
// are blanked: the directives and the branches a build does not take,
// when that is known (see cMask); none otherwise.
func (c cCond) blanked(lines [][]byte, end int) []int {
	span := func(from, to int) []int {
		var out []int
		for k := from; k <= to; k++ {
			out = append(out, k)
		}
		return out
	}
	switch {
	case c.doxygen != 0 && len(c.arms) <= 1:
		split := end // the #else, or the #endif when there is none
		if len(c.arms) == 1 {
			split = c.arms[0]
		}
		if c.doxygen == 1 { // the first branch stays
			return append([]int{c.start}, span(split, end)...)
		}
		return append(span(c.start, split), end) // the #else branch stays
	case len(c.arms) > 0 && c.headsOnly(lines, end):
		return append([]int{c.start}, span(c.arms[0], end)...)
	}
	return nil
}

// cDoxygen says whether a build takes the first branch of a conditional
// on a Doxygen macro, as cCond.doxygen, from the #if line.
func cDoxygen(line []byte) int {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(line)), "#"))
	neg := false
	switch {
	case strings.HasPrefix(t, "ifdef"):
		t = t[len("ifdef"):]
	case strings.HasPrefix(t, "ifndef"):
		t, neg = t[len("ifndef"):], true
	case strings.HasPrefix(t, "if"):
		t = strings.TrimSpace(t[len("if"):])
		if r, ok := strings.CutPrefix(t, "!"); ok {
			t, neg = strings.TrimSpace(r), true
		}
		if r, ok := strings.CutPrefix(t, "defined"); ok {
			t = strings.TrimSpace(r)
			if r, ok := strings.CutPrefix(t, "("); ok {
				t, _ = strings.CutSuffix(strings.TrimSpace(r), ")")
			}
		}
	default:
		return 0
	}
	if i := strings.Index(t, "//"); i >= 0 {
		t = t[:i]
	}
	t = strings.TrimSpace(t)
	if !strings.Contains(t, "DOXYGEN") || strings.ContainsFunc(t, func(r rune) bool { return !(r == '_' || cIdentRune(r)) }) {
		return 0
	}
	if neg {
		return 1
	}
	return 2
}

func cIdentRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// headsOnly says whether every branch of the conditional ending at line
// end ends inside a declaration.
func (c cCond) headsOnly(lines [][]byte, end int) bool {
	bounds := append(append([]int{c.start}, c.arms...), end)
	for k := 0; k+1 < len(bounds); k++ {
		if !cOpenEnded(lines[bounds[k]+1 : bounds[k+1]]) {
			return false
		}
	}
	return true
}

// cOpenEnded says whether the last line of code in lines ends inside a
// declaration: not a directive, not a comment, and not ending a
// statement, a block or a list item.
func cOpenEnded(lines [][]byte) bool {
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimSpace(string(lines[i]))
		switch {
		case t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "/*"):
			continue
		case strings.HasPrefix(t, "#"):
			return false
		}
		return !strings.HasSuffix(t, ";") && !strings.HasSuffix(t, "{") && !strings.HasSuffix(t, "}") &&
			!strings.HasSuffix(t, ",") && !strings.HasSuffix(t, "\\")
	}
	return false
}

// cDirective is the name of the preprocessor directive on a line ("if",
// "endif", "#" for a null directive), or "" for a line of code.
func cDirective(line []byte) string {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || t[0] != '#' {
		return ""
	}
	t = bytes.TrimSpace(t[1:])
	if len(t) == 0 {
		return "#"
	}
	end := 0
	for end < len(t) && (t[end] >= 'a' && t[end] <= 'z') {
		end++
	}
	return string(t[:end])
}

// refSpecifiers are the specifiers after which a function returning a
// reference or pointer to a type of one identifier does not parse.
var refSpecifiers = []string{"const", "virtual", "static", "inline", "friend", "constexpr", "extern"}

// cMaskRefReturn blanks the "&" or "*" of each function declarator
// returning a reference or pointer to a type of one identifier after a
// specifier (see cMask), outside comments and literals. It returns src
// itself when there is none.
func cMaskRefReturn(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			if e := bytes.Index(src[i+2:], []byte("*/")); e >= 0 {
				i += e + 3
			} else {
				i = len(src)
			}
		case c == '"' || c == '\'':
			for i++; i < len(src) && src[i] != c && src[i] != '\n'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		case cIdentByte(c):
			j := i
			for j < len(src) && cIdentByte(src[j]) {
				j++
			}
			if (i == 0 || !cIdentByte(src[i-1])) && slices.Contains(refSpecifiers, string(src[i:j])) {
				if from, to, ok := cRefReturn(src[j:]); ok {
					if out == nil {
						out = bytes.Clone(src)
					}
					for k := j + from; k < j+to; k++ {
						out[k] = ' '
					}
				}
			}
			i = j - 1
		}
	}
	if out == nil {
		return src
	}
	return out
}

// cRefReturn says whether the text after a specifier is spaces, one
// identifier (not a keyword: a primitive type parses), "&" or "*", and a
// function's name and its "(" (or operator), and returns the offsets of
// its "&" and "*" run.
func cRefReturn(b []byte) (from, to int, ok bool) {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i == 0 || i >= len(b) || !cIdentByte(b[i]) || b[i] >= '0' && b[i] <= '9' {
		return 0, 0, false
	}
	j := i
	for j < len(b) && cIdentByte(b[j]) {
		j++
	}
	if cKeywords[string(b[i:j])] {
		return 0, 0, false
	}
	k := j
	for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '&' || b[k] == '*') {
		k++
	}
	from = j + bytes.IndexAny(b[j:k], "&*")
	if from < j {
		return 0, 0, false
	}
	to = j + bytes.LastIndexAny(b[j:k], "&*") + 1
	name := k
	for k < len(b) && (cIdentByte(b[k]) || b[k] == ':' || b[k] == '~') {
		k++
	}
	if k == name || b[name] >= '0' && b[name] <= '9' {
		return 0, 0, false
	}
	if string(b[name:k]) == "operator" || bytes.HasSuffix(b[name:k], []byte("::operator")) {
		return from, to, true
	}
	for k < len(b) && (b[k] == ' ' || b[k] == '\t') {
		k++
	}
	return from, to, k < len(b) && b[k] == '('
}

// cKeywords are the words after `const` that name no class: primitive
// types (which parse) and other keywords.
var cKeywords = map[string]bool{
	"char": true, "int": true, "short": true, "long": true, "float": true, "double": true, "bool": true,
	"void": true, "unsigned": true, "signed": true, "wchar_t": true, "char8_t": true, "char16_t": true,
	"char32_t": true, "auto": true, "return": true, "const": true, "volatile": true, "struct": true,
	"class": true, "enum": true, "union": true, "typename": true, "decltype": true,
}

func cIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
