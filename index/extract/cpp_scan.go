package extract

import (
	"slices"
	"strings"
)

// LineSpan is a range of lines, 1-based and inclusive.
type LineSpan struct{ Start, End int }

// CppSpans are the lines of a C++ file that hold no declaration, found
// by ScanCpp from its text alone.
type CppSpans struct {
	// Bodies are the insides of function bodies: from the line after the
	// "{" (or from a constructor's initializer list on lines of its own)
	// to the line before the "}" (or the "}" line itself when code
	// precedes it), or the one line of a body alone under its header
	// ("{ return x; }").
	Bodies []LineSpan
	// Macros are the lines continuing a #define: its name and parameters
	// stay.
	Macros []LineSpan
	// Values are the lines after the "=" that ends a declaration's line
	// at declaration level, to its ";": a constant's or alias's value
	// over several lines (`static constexpr bool value =`), a data
	// table's rows.
	Values []LineSpan
	// DocOnly are the branches of conditionals on a Doxygen macro that no
	// build compiles: declarations repeated for the documentation, which
	// cMask blanks before parsing.
	DocOnly []LineSpan
}

// ScanCpp finds the function bodies of a C++ file by a scan of its
// braces, whatever the grammar made of it: at declaration level (the
// file, a namespace, a class), a "{" opens a function body when the
// declaration before it, since the last ";", "{" or "}" there, has
// parentheses and is no type's head nor an initializer. gotreesitter's
// C++ grammar loses functions whose template parameters hold a macro
// (`template <typename T, FMT_ENABLE_IF(...)>`), whose return type
// trails (`auto f(...)\n    -> R {`) or whose initializer list spans
// lines; the outline then kept their bodies whole, and the locals the
// grammar read as declarations of the file were indexed as its symbols.
//
// Preprocessor lines are skipped but for the conditionals: every branch
// is scanned from the state at its #if, and the first branch's state
// goes on after the #endif, so two branches that each open a
// declaration's body do not unbalance the braces. Comments, string and
// character literals are skipped.
func ScanCpp(lines []string) CppSpans {
	s := cppScan{}
	for n, line := range lines {
		s.line(n+1, line)
	}
	return s.spans
}

// cppFrame is an open brace: its line, and whether its inside is a
// declaration scope (a namespace, a class) or a function's body.
type cppFrame struct {
	line        int
	scope, body bool
	alone       bool // a whole body on a line of its own: "{ return x; }"
}

// cppScan is the state of ScanCpp between lines.
type cppScan struct {
	spans  CppSpans
	stack  []cppFrame
	header strings.Builder // the declaration since the last ";", "{" or "}" at declaration level
	block  bool            // inside a block comment
	cont   bool            // the last line was a directive ending in "\"
	conds  []cppCond       // the open conditionals
	define int             // the line of a #define continued on the next lines
	value  int             // the line ending in the "=" of a declaration whose value follows
	init   int             // the line opening a constructor's initializer list
}

// cppCond is an open conditional: the scan's state at its #if, and after
// its first branch once an #else or #elif was met.
type cppCond struct {
	at, first *cppState
	line      int // of the #if, then of the #else
	doc       int // docBranch of the #if
	arms      int // the #else and #elif met
}

// cppState is what a conditional's branch changes.
type cppState struct {
	stack  []cppFrame
	header string
}

func (s *cppScan) save() *cppState {
	return &cppState{stack: slices.Clone(s.stack), header: s.header.String()}
}

func (s *cppScan) restore(st *cppState) {
	s.stack = slices.Clone(st.stack)
	s.header.Reset()
	s.header.WriteString(st.header)
}

// declLevel says whether the scan is outside every function body and
// other braces (an initializer, an enum).
func (s *cppScan) declLevel() bool {
	return len(s.stack) == 0 || s.stack[len(s.stack)-1].scope
}

func (s *cppScan) line(n int, line string) {
	if s.cont || !s.block && strings.HasPrefix(strings.TrimSpace(line), "#") {
		if !s.cont {
			s.directive(n, strings.TrimSpace(strings.TrimSpace(line)[1:]))
		}
		s.cont = strings.HasSuffix(strings.TrimRight(line, " \t\r"), "\\")
		if !s.cont && s.define > 0 {
			s.spans.Macros = append(s.spans.Macros, LineSpan{s.define + 1, n})
			s.define = 0
		}
		return
	}
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case s.block:
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				s.block = false
				i++
			}
			continue
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
				s.header.WriteByte(c)
			}
			continue
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			i = len(line)
			continue
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			s.block = true
			i++
			continue
		case c == '"' || c == '\'' && !digitSeparator(line, i):
			quote = c
		case c == '{':
			s.open(n)
			if t := strings.TrimSpace(line); i == strings.IndexByte(line, '{') && strings.HasPrefix(t, "{") && s.stack[len(s.stack)-1].body {
				s.stack[len(s.stack)-1].alone = cppOneLineBody(t)
			}
			continue
		case c == '}':
			s.close(n, strings.TrimSpace(line[:i]) == "")
			continue
		case c == ':' && s.declLevel() && !strings.HasPrefix(line[i:], "::") && accessLabel(s.header.String()):
			s.header.Reset()
			continue
		case c == ':' && s.declLevel() && !strings.HasPrefix(line[i:], "::") && strings.TrimSpace(line[:i]) == "" && endsParams(s.header.String()):
			s.init = n // a constructor's initializer list on lines of its own
		case c == ';' && s.declLevel():
			s.header.Reset()
			s.init = 0
			if s.value > 0 && n > s.value {
				s.spans.Values = append(s.spans.Values, LineSpan{s.value + 1, n})
			}
			s.value = 0
			continue
		}
		if s.declLevel() {
			s.header.WriteByte(c)
		}
	}
	if s.declLevel() {
		if s.value == 0 && endsAssign(s.header.String()) {
			s.value = n
		}
		s.header.WriteByte(' ')
	}
}

// endsAssign says whether a declaration so far ends with the "=" before
// its value (not "==", "<=", ">=", "!=" nor `operator=`).
func endsAssign(h string) bool {
	h = strings.TrimSpace(h)
	if !strings.HasSuffix(h, "=") {
		return false
	}
	h = strings.TrimSpace(h[:len(h)-1])
	return h != "" && !strings.ContainsAny(h[len(h)-1:], "=!<>") && !strings.HasSuffix(h, "operator")
}

// directive follows the conditionals: every branch is scanned from the
// state at the #if, and the first branch's state goes on after the
// #endif, as if the first branch alone were compiled. The bodies found
// in every branch are kept. The branch of a conditional on a Doxygen
// macro that a build does not compile is elided whole: it repeats
// declarations for the documentation, which the index does not read
// either (index/extract blanks it before parsing).
func (s *cppScan) directive(n int, d string) {
	k := len(s.conds)
	switch {
	case strings.HasPrefix(d, "define") && strings.HasSuffix(strings.TrimRight(d, " \t\r"), "\\"):
		s.define = n
	case strings.HasPrefix(d, "if"):
		s.conds = append(s.conds, cppCond{at: s.save(), line: n, doc: docBranch(d)})
	case strings.HasPrefix(d, "el") && k > 0:
		c := &s.conds[k-1]
		if c.first == nil {
			c.first = s.save()
		}
		if c.arms++; c.doc == 2 && c.arms == 1 {
			s.spans.DocOnly = append(s.spans.DocOnly, LineSpan{c.line + 1, n - 1})
		}
		c.line = n
		s.restore(c.at)
	case strings.HasPrefix(d, "endif") && k > 0:
		c := s.conds[k-1]
		if c.first != nil {
			s.restore(c.first)
		}
		if c.doc == 1 && c.arms == 1 || c.doc == 2 && c.arms == 0 {
			s.spans.DocOnly = append(s.spans.DocOnly, LineSpan{c.line + 1, n - 1})
		}
		s.conds = s.conds[:k-1]
	}
}

// docBranch says which branch of a conditional on a Doxygen macro alone
// (its name has "DOXYGEN") a build skips, from its directive (after the
// "#"): 1 when it skips the #else branch (`#ifndef BOOST_X_DOXYGEN`,
// `#if !defined(...)`), 2 when it skips the first (`#if BOOST_BEAST_DOXYGEN`),
// 0 for any other conditional.
func docBranch(d string) int {
	neg := false
	switch {
	case strings.HasPrefix(d, "ifdef"):
		d = d[len("ifdef"):]
	case strings.HasPrefix(d, "ifndef"):
		d, neg = d[len("ifndef"):], true
	default:
		d = strings.TrimSpace(d[len("if"):])
		if r, ok := strings.CutPrefix(d, "!"); ok {
			d, neg = strings.TrimSpace(r), true
		}
		if r, ok := strings.CutPrefix(d, "defined"); ok {
			d = strings.TrimSpace(r)
			if r, ok := strings.CutPrefix(d, "("); ok {
				d, _ = strings.CutSuffix(strings.TrimSpace(r), ")")
			}
		}
	}
	if i := strings.Index(d, "//"); i >= 0 {
		d = d[:i]
	}
	d = strings.TrimSpace(d)
	if !strings.Contains(d, "DOXYGEN") || strings.ContainsFunc(d, func(r rune) bool { return !cIdentRune(r) && r != '_' }) {
		return 0
	}
	if neg {
		return 1
	}
	return 2
}

// open handles a "{" on line n.
func (s *cppScan) open(n int) {
	f := cppFrame{line: n}
	if s.declLevel() {
		switch cppHeaderKind(s.header.String()) {
		case "scope":
			f.scope = true
			s.value = 0
		case "body":
			f.body = true
			s.value = 0
			if s.init > 0 {
				f.line = s.init - 1 // the initializer list goes with the body
			}
		}
		s.header.Reset()
		s.init = 0
	}
	s.stack = append(s.stack, f)
}

// close handles a "}" on line n (first: nothing precedes it on the line).
func (s *cppScan) close(n int, first bool) {
	k := len(s.stack)
	if k == 0 {
		s.header.Reset()
		return // unbalanced: a conditional's branches, or a macro
	}
	f := s.stack[k-1]
	s.stack = s.stack[:k-1]
	if s.declLevel() {
		s.header.Reset()
		s.init = 0
	}
	if f.scope || f.body {
		s.value = 0
	}
	if !f.body {
		return
	}
	if f.alone && f.line == n {
		s.spans.Bodies = append(s.spans.Bodies, LineSpan{n, n})
		return
	}
	start := f.line + 1
	end := n
	if first {
		end = n - 1
	}
	if end >= start {
		s.spans.Bodies = append(s.spans.Bodies, LineSpan{start, end})
	}
}

// endsParams says whether a declaration so far ends with a function's
// parameters, maybe followed by qualifiers or macros (noexcept,
// BOOST_NOEXCEPT): what a constructor's initializer list follows.
func endsParams(h string) bool {
	f := strings.Fields(h)
	for len(f) > 0 && (slices.Contains(cppHeaderTail, f[len(f)-1]) || isMacroName(f[len(f)-1])) {
		f = f[:len(f)-1]
	}
	return len(f) > 0 && strings.HasSuffix(f[len(f)-1], ")")
}

// digitSeparator says whether the quote at i separates digits (1'000).
func digitSeparator(line string, i int) bool {
	return i > 0 && i+1 < len(line) && isHexDigit(line[i-1]) && isHexDigit(line[i+1])
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// accessLabel says whether a declaration so far is only an access
// specifier, before its ":".
func accessLabel(h string) bool {
	f := strings.Fields(h)
	if len(f) == 0 {
		return false
	}
	switch f[len(f)-1] {
	case "public", "private", "protected", "signals", "slots", "Q_SIGNALS", "Q_SLOTS":
		return true
	}
	return false
}

// cWordsOf returns the offsets of the identifiers in s.
func cWordsOf(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if !cIdentRune(rune(s[i])) && s[i] != '_' {
			i++
			continue
		}
		j := i
		for j < len(s) && (cIdentRune(rune(s[j])) || s[j] == '_') {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// cppHeaderKind classifies the declaration before a "{" at declaration
// level: "scope" for a namespace, extern "C", a class, struct or union
// (its members are declarations), "body" for a function, and "" for the
// rest (an enum, an initializer, a macro call opening a block).
func cppHeaderKind(h string) string {
	h = strings.TrimSpace(h)
	if h == "" {
		return ""
	}
	if strings.ContainsAny(h[len(h)-1:], "=,([") || strings.HasSuffix(h, "return") {
		return "" // an initializer, an argument
	}
	top := cppTopLevel(h)
	for _, w := range cWordsOf(top) {
		switch top[w[0]:w[1]] {
		case "namespace", "extern":
			return "scope"
		case "enum":
			return ""
		case "class", "struct", "union":
			if typeHead(top[w[1]:]) {
				return "scope"
			}
		}
	}
	open := strings.IndexByte(top, '(')
	if open < 0 {
		return ""
	}
	if before := strings.Fields(top[:open]); len(before) == 1 && isMacroName(before[0]) &&
		strings.TrimSpace(top[strings.LastIndexByte(top, ')')+1:]) == "" {
		return "" // BOOST_NAMESPACE_BEGIN(detail) {: declarations
	}
	if strings.Contains(top[:open], "=") && !strings.Contains(top[:open], "operator") {
		return "" // a lambda or a call assigned
	}
	return "body"
}

// typeHead says whether the words after a class keyword name the type
// being defined (`class X : public Y`, `struct MACRO X final`, `struct
// {`), not a function returning one (`struct stat *f(void)`): at most one
// name besides macros and "final", or a base clause (a ":" that is not
// "::") before any parenthesis.
func typeHead(after string) bool {
	names := 0
	for _, w := range strings.FieldsFunc(after, func(r rune) bool { return !cIdentRune(r) && r != '_' }) {
		if w != "final" && !isMacroName(w) && w != "alignas" {
			names++
		}
	}
	if names <= 1 && !strings.Contains(after, "(") {
		return true
	}
	open := strings.IndexByte(after, '(')
	if open < 0 {
		open = len(after)
	}
	head := strings.ReplaceAll(after[:open], "::", "")
	return strings.Contains(head, ":")
}

// cppTopLevel returns h with the text inside parentheses, brackets and
// template parameter lists removed (the parentheses themselves stay):
// `template <class T> void f(struct s x)` is "template void f()".
func cppTopLevel(h string) string {
	var b strings.Builder
	paren, angle := 0, 0
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c == '(' || c == '[':
			if paren == 0 && angle == 0 {
				b.WriteByte('(')
			}
			paren++
			continue
		case c == ')' || c == ']':
			if paren > 0 {
				paren--
			}
			if paren == 0 && angle == 0 {
				b.WriteByte(')')
			}
			continue
		case paren > 0:
			continue
		case c == '<' && templateAngle(h, i):
			angle++
			continue
		case c == '>' && angle > 0:
			angle--
			continue
		case angle > 0:
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// templateAngle says whether the "<" at i opens a template's parameters
// or arguments (it follows a name or "template"), not a comparison or
// operator< (which at declaration level only names an operator).
func templateAngle(h string, i int) bool {
	j := i
	for j > 0 && h[j-1] == ' ' {
		j--
	}
	if j == 0 || !(cIdentRune(rune(h[j-1])) || h[j-1] == '_') {
		return false
	}
	k := j
	for k > 0 && (cIdentRune(rune(h[k-1])) || h[k-1] == '_') {
		k--
	}
	return h[k:j] != "operator" && i+1 < len(h) && h[i+1] != '<' && h[i+1] != '='
}

// cppHeaderTail are the words C++ allows after a function's parameters
// and before its body or initializer list.
var cppHeaderTail = []string{"const", "noexcept", "override", "final", "volatile", "&", "&&", "mutable"}

// cppOneLineBody says whether a trimmed line is a whole body, "{ return
// x; }".
func cppOneLineBody(t string) bool {
	t = strings.TrimSuffix(t, ";")
	return len(t) > 2 && t[0] == '{' && t[len(t)-1] == '}' && strings.Count(t, "{") == strings.Count(t, "}")
}
