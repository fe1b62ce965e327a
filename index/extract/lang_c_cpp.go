package extract

import "bytes"

// A ".h" file is C to workspace.DetectLanguage, yet many are C++
// (gmpxx.h, z3++.h, ncurses' cursesw.h, libstdc++'s configuration
// headers). tree-sitter-c reads their classes, templates and namespaces
// as errors, with records to match, at several times the C++ path's
// cost: 1.9 s against 0.4 s for z3++.h, 1.4 s against 0.3 s for
// gmpxx.h, 43% of a cold index of /usr/include. Universal Ctags reads
// ".h" as C++ too. The C extractor hands such a file to the C++ one
// (tsExtractor.Extract); tools/readoutline.go makes the same choice for
// outlines, on looser evidence, since an outline is read once.

// cppLineStarts are the starts of lines (after blanks) only C++ has.
var cppLineStarts = [][]byte{[]byte("namespace "), []byte("template <"), []byte("template<"),
	[]byte("public:"), []byte("private:"), []byte("protected:"),
	[]byte("using namespace ")}

// LooksCpp reports whether C source src is C++: at least two lines
// start with a construct only C++ has (a namespace, a template, an
// access label, a class with a body or bases) outside the branches of
// conditionals on __cplusplus, where C headers keep their C++ (glibc's
// string.h: extern "C++" and templates under #ifdef __cplusplus).
func LooksCpp(src []byte) bool {
	seen := 0
	var conds []cond
	inCpp := func() bool {
		for _, c := range conds {
			if c.cppOnly {
				return true
			}
		}
		return false
	}
	continued := false // the line before ended in a backslash (a macro's body)
	for len(src) > 0 {
		line := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		wasContinued := continued
		continued = bytes.HasSuffix(bytes.TrimRight(line, " \t\r"), []byte("\\"))
		if wasContinued {
			continue
		}
		line = bytes.TrimLeft(line, " \t")
		if len(line) > 0 && line[0] == '#' {
			conds = cppCondition(bytes.TrimLeft(line[1:], " \t"), conds)
			continue
		}
		if len(line) < 6 || inCpp() || !(line[0] == 'n' || line[0] == 't' || line[0] == 'p' || line[0] == 'e' ||
			line[0] == 'u' || line[0] == 'c') {
			continue
		}
		if cppLine(line) {
			if seen++; seen == 2 {
				return true
			}
		}
	}
	return false
}

// cond is an open conditional as LooksCpp follows it.
type cond struct{ aboutCpp, cppOnly bool }

// cppCondition applies directive d (after its "#") to the conditionals
// open: an #if or #ifdef testing __cplusplus opens a C++ only branch,
// an #ifndef or a negated test a C one, whose #else is C++ only.
func cppCondition(d []byte, conds []cond) []cond {
	about := bytes.Contains(d, []byte("__cplusplus"))
	squashed := bytes.ReplaceAll(d, []byte(" "), nil)
	negated := bytes.HasPrefix(d, []byte("ifndef")) || bytes.Contains(squashed, []byte("!defined")) ||
		bytes.Contains(squashed, []byte("!__cplusplus"))
	switch n := len(conds); {
	case bytes.HasPrefix(d, []byte("if")):
		return append(conds, cond{aboutCpp: about, cppOnly: about && !negated})
	case bytes.HasPrefix(d, []byte("else")) && n > 0:
		c := &conds[n-1]
		c.cppOnly = c.aboutCpp && !c.cppOnly
	case bytes.HasPrefix(d, []byte("elif")) && n > 0:
		conds[n-1].cppOnly = false
	case bytes.HasPrefix(d, []byte("endif")) && n > 0:
		return conds[:n-1]
	}
	return conds
}

func cppLine(line []byte) bool {
	for _, p := range cppLineStarts {
		if bytes.HasPrefix(line, p) {
			return true
		}
	}
	// class NAME {, class NAME : public B; not "class" in prose.
	rest, ok := bytes.CutPrefix(line, []byte("class "))
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && (rest[i] == '_' || rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= 'A' && rest[i] <= 'Z' || rest[i] >= '0' && rest[i] <= '9') {
		i++
	}
	rest = bytes.TrimLeft(rest[i:], " \t")
	return i > 0 && (len(rest) == 0 || rest[0] == '{' || rest[0] == ':' && !bytes.HasPrefix(rest, []byte("::")))
}
