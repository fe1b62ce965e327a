package workspace

import (
	"strings"
	"testing"
)

// Expected outcomes for Match: not matched, ignored, or re-included by "!".
const (
	none = iota
	ign
	keep
)

func TestIgnoreMatch(t *testing.T) {
	tests := []struct {
		name  string
		base  string
		rules string
		path  string
		dir   bool
		want  int
	}{
		{"floating glob top", "", "*.o", "a.o", false, ign},
		{"floating glob nested", "", "*.o", "x/y/a.o", false, ign},
		{"floating glob no match", "", "*.o", "a.c", false, none},
		{"leading slash anchors", "", "/*.o", "a.o", false, ign},
		{"leading slash anchors nested", "", "/*.o", "x/a.o", false, none},
		{"middle slash anchors", "", "doc/frotz/", "doc/frotz", true, ign},
		{"middle slash anchors not nested", "", "doc/frotz/", "a/doc/frotz", true, none},
		{"middle slash file", "", "a/b", "a/b", false, ign},
		{"middle slash not floating", "", "a/b", "x/a/b", false, none},
		{"dir-only matches dir anywhere", "", "frotz/", "a/frotz", true, ign},
		{"dir-only skips file", "", "frotz/", "a/frotz", false, none},
		{"plain name matches file", "", "foo", "x/foo", false, ign},
		{"plain name matches dir", "", "foo", "foo", true, ign},
		{"negation re-includes", "", "*.log\n!important.log", "important.log", false, keep},
		{"negation leaves others", "", "*.log\n!important.log", "x.log", false, ign},
		{"last match wins", "", "!a.log\n*.log", "a.log", false, ign},
		{"escaped bang is literal", "", `\!important`, "!important", false, ign},
		{"escaped bang not negation", "", `\!important`, "important", false, none},
		{"escaped hash is literal", "", `\#file`, "#file", false, ign},
		{"hash line is comment", "", "#file", "#file", false, none},
		{"hash mid-line literal", "", "a#b", "a#b", false, ign},
		{"trailing spaces trimmed", "", "foo   ", "foo", false, ign},
		{"escaped trailing space kept", "", `foo\ `, "foo ", false, ign},
		{"escaped trailing space not trimmed name", "", `foo\ `, "foo", false, none},
		{"escaped then unescaped spaces", "", `foo\  `, "foo ", false, ign},
		{"tab not trimmed", "", "foo\t", "foo", false, none},
		{"crlf line ending", "", "*.o\r\nx", "a.o", false, ign},
		{"utf8 bom skipped", "", "\xEF\xBB\xBF*.o", "a.o", false, ign},
		{"blank lines ignored", "", "\n\n  \n", "a", false, none},
		{"lone bang matches nothing", "", "!", "a", false, none},
		{"lone slash matches nothing", "", "/", "a", true, none},
		{"trailing backslash never matches", "", `foo\`, `foo\`, false, none},
		{"leading doublestar top", "", "**/foo", "foo", false, ign},
		{"leading doublestar deep", "", "**/foo", "a/b/foo", false, ign},
		{"leading doublestar not suffix", "", "**/foo", "afoo", false, none},
		{"leading doublestar path", "", "**/foo/bar", "x/foo/bar", false, ign},
		{"leading doublestar path top", "", "**/foo/bar", "foo/bar", false, ign},
		{"trailing doublestar inside", "", "abc/**", "abc/x", false, ign},
		{"trailing doublestar deep", "", "abc/**", "abc/x/y", false, ign},
		{"trailing doublestar not dir itself", "", "abc/**", "abc", true, none},
		{"middle doublestar zero dirs", "", "a/**/b", "a/b", false, ign},
		{"middle doublestar one dir", "", "a/**/b", "a/x/b", false, ign},
		{"middle doublestar many dirs", "", "a/**/b", "a/x/y/b", false, ign},
		{"middle doublestar not partial", "", "a/**/b", "a/xb", false, none},
		{"doublestar glued is star", "", "a**b", "axxb", false, ign},
		{"doublestar glued not slash", "", "a/x**b", "a/xy/b", false, none},
		{"doublestar alone", "", "**", "a/b/c", false, ign},
		{"star one level", "", "foo/*", "foo/bar", false, ign},
		{"star not two levels", "", "foo/*", "foo/bar/baz", false, none},
		{"doc txt", "", "doc/*.txt", "doc/notes.txt", false, ign},
		{"doc txt deeper", "", "doc/*.txt", "doc/server/arch.txt", false, none},
		{"question one char", "", "?.go", "a.go", false, ign},
		{"question not two", "", "?.go", "ab.go", false, none},
		{"question not slash", "", "a?b", "a/b", false, none},
		{"class", "", "[abc].txt", "b.txt", false, ign},
		{"class miss", "", "[abc].txt", "d.txt", false, none},
		{"negated class bang", "", "[!abc].txt", "d.txt", false, ign},
		{"negated class caret", "", "[^abc].txt", "a.txt", false, none},
		{"range", "", "x[a-c]", "xb", false, ign},
		{"range miss", "", "x[a-c]", "xd", false, none},
		{"posix class", "", "[[:digit:]]*", "1abc", false, ign},
		{"posix class miss", "", "[[:digit:]]*", "abc", false, none},
		{"bracket first member", "", "[]]", "]", false, ign},
		{"negated bracket first member", "", "[!]]", "a", false, ign},
		{"class suffix", "", "*.[oa]", "lib.a", false, ign},
		{"class escape", "", `[\]]x`, "]x", false, ign},
		{"unterminated class never", "", "[abc", "[abc", false, none},
		{"unknown posix class never", "", "[[:nope:]]", "a", false, none},
		{"class never matches slash", "", "a[/]b", "a/b", false, none},
		{"star suffix fast path no slash", "", "/*.go", "a/b.go", false, none},
		{"prefix fast path", "", "tmp*", "tmpfile", false, ign},
		{"prefix fast path anchored no slash", "", "/x/tmp*", "x/tmp/a", false, none},
		{"pathological stars stay linear", "", "*a*a*a*a*a*a*a*a*a*a*a*a*[b]", strings.Repeat("a", 20000) + "c", false, none},
		{"base anchored", "sub", "/x", "sub/x", false, ign},
		{"base anchored not root", "sub", "/x", "x", false, none},
		{"base anchored not deeper", "sub", "/x", "sub/y/x", false, none},
		{"base floating deeper", "sub", "x", "sub/y/x", false, ign},
		{"base floating other dir", "sub", "x", "other/x", false, none},
		{"base prefix is not parent", "sub", "x", "subway/x", false, none},
		{"base doublestar", "a/b", "**/c", "a/b/c", false, ign},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ParseIgnore(tt.base, []byte(tt.rules))
			m, ignored := r.Match(tt.path, tt.dir)
			got := none
			switch {
			case m && ignored:
				got = ign
			case m:
				got = keep
			}
			if got != tt.want {
				t.Errorf("rules %q (base %q) on %q dir=%v: got %d, want %d", tt.rules, tt.base, tt.path, tt.dir, got, tt.want)
			}
		})
	}
}

func TestTrimTrailingSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"a  ":    "a",
		`a\ `:    `a\ `,
		`a\  `:   `a\ `,
		"a \t":   "a \t",
		`a\`:     `a\`,
		"  ":     "",
		"a b  c": "a b  c",
	} {
		if got := trimTrailingSpaces(in); got != want {
			t.Errorf("trimTrailingSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}

// globSeeds exercise every branch of compileGlob and of the reference.
var globSeeds = []struct{ pat, text string }{
	{"*.go", "a.go"}, {"a/**/b", "a/x/y/b"}, {"**/foo", "x/foo"}, {"abc/**", "abc/d/e"},
	{"a**b", "a/b"}, {"[!a-c]x", "dx"}, {"[[:alpha:]]", "q"}, {"[[:x]", "["}, {"[]-]", "-"},
	{`\*`, "*"}, {`**\/x`, "a/x"}, {"*/*", "a/b"}, {"*a*a*a*b", "aaaaaaaaaaaaaaaa"},
	{"[a-]", "-"}, {"[z-a]", "m"}, {"[\\", "x"}, {"a[b", "a[b"}, {"***/x", "a/b/x"},
	{"x/***", "x/y"}, {"?", "/"}, {"[[:]", ":"}, {"*", ""}, {"**/", ""}, {"a/*/b/**/c*", "a/q/b/c1"},
}

// TestGlobAgainstWildmatch checks the NFA/fast-path compiler against the
// port of git's wildmatch on the seed corpus (the fuzz target does the rest).
func TestGlobAgainstWildmatch(t *testing.T) {
	for _, s := range globSeeds {
		g := compileGlob(s.pat)
		if got, want := g.match(s.text), wildmatchRef(s.pat, s.text); got != want {
			t.Errorf("glob %q on %q: got %v, wildmatch says %v", s.pat, s.text, got, want)
		}
	}
}

// FuzzIgnorePattern parses arbitrary ignore files and matches arbitrary
// paths (must not panic), and differentially checks single patterns against
// the wildmatch port.
func FuzzIgnorePattern(f *testing.F) {
	for _, s := range globSeeds {
		f.Add(s.pat, s.text, false)
	}
	f.Add("*.log\n!keep.log\n/build/\n#c\n\\#x  \n", "a/keep.log", true)
	f.Fuzz(func(t *testing.T, rules, path string, isDir bool) {
		for _, base := range []string{"", "a", "a/b"} {
			r := ParseIgnore(base, []byte(rules))
			r.Match(path, isDir)
		}
		// Outside ASCII NUL (impossible in C strings) both must agree.
		if len(rules) > 64 || len(path) > 64 || strings.IndexByte(rules, 0) >= 0 || strings.IndexByte(path, 0) >= 0 {
			return
		}
		g := compileGlob(rules)
		if got, want := g.match(path), wildmatchRef(rules, path); got != want {
			t.Errorf("glob %q on %q: got %v, wildmatch says %v", rules, path, got, want)
		}
	})
}

func BenchmarkIgnoreMatch(b *testing.B) {
	r := ParseIgnore("", []byte("*.o\n/build/\nnode_modules/\n**/testdata/**/*.golden\n!keep.o\ndoc/*.txt\n[Tt]emp*\n"))
	paths := []string{"src/runtime/proc.go", "a/b/c/x.o", "keep.o", "x/testdata/y/z.golden", "Temporary"}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range paths {
			r.Match(p, false)
		}
	}
}

// TestGlobRandomDifferential compares against wildmatch on many small
// patterns over an alphabet dense in special characters, where random
// fuzzing rarely lands.
func TestGlobRandomDifferential(t *testing.T) {
	const patAlpha, textAlpha = "ab/*?[]!^-\\:", "ab/-]["
	rng := uint64(42)
	next := func(n int) int {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	gen := func(alpha string, max int) string {
		b := make([]byte, next(max+1))
		for i := range b {
			b[i] = alpha[next(len(alpha))]
		}
		return string(b)
	}
	failures, matches := 0, 0
	for range 20000 {
		pat := gen(patAlpha, 9)
		g := compileGlob(pat)
		for range 10 {
			text := gen(textAlpha, 7)
			if wildmatchRef(pat, text) {
				matches++
			}
			if got, want := g.match(text), wildmatchRef(pat, text); got != want {
				t.Errorf("glob %q on %q: got %v, wildmatch says %v", pat, text, got, want)
				if failures++; failures > 20 {
					t.FailNow()
				}
			}
		}
	}
	// Guard the generator: a corpus of non-matches would prove little.
	if matches < 1000 {
		t.Errorf("only %d positive cases; generator too weak", matches)
	}
}
