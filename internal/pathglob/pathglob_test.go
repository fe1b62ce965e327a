package pathglob

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		// Braces, nested and across segments.
		{"secrets/{prod,staging}/**", "secrets/prod/key.pem", true},
		{"secrets/{prod,staging}/**", "secrets/staging/a/b", true},
		{"secrets/{prod,staging}/**", "secrets/dev/key.pem", false},
		{"*.{go,mod}", "go.mod", true},
		{"*.{go,mod}", "a.sum", false},
		{"{cmd,internal/{a,b}}/*.go", "internal/b/x.go", true},
		{"{cmd,internal/{a,b}}/*.go", "internal/c/x.go", false},
		{"{a,b/c}", "b/c", true},
		{`\{x\}.go`, "{x}.go", true},
		{"[{]x", "{x", true},

		// Classes, negated with ! and ^.
		{"[!a]", "b", true},
		{"[!a]", "a", false},
		{"[^a]", "a", false},
		{"[a-c]*.go", "b1.go", true},
		{"[a-c]*.go", "d1.go", false},
		{"[!.]*", ".env", false},

		// ** at every position.
		{"**", "a/b/c", true},
		{"**", ".", true},
		{"**/x", "x", true},
		{"**/x", "a/b/x", true},
		{"**/x", "a/b/xy", false},
		{"a/**", "a", true},
		{"a/**", "a/b/c", true},
		{"a/**", "ab/c", false},
		{"a/**/b", "a/b", true},
		{"a/**/b", "a/x/y/b", true},
		{"a/**/b", "a/x/y/c", false},
		{"**/a/**", "x/a/y", true},
		{"**/a/**", "x/b/y", false},
		{"a**b", "axb", true}, // ** inside a segment is *
		{"a**b", "ax/b", false},

		// * and ? stay within a segment; the whole path must match.
		{"*.go", "a.go", true},
		{"*.go", "dir/a.go", false},
		{"src/*", "src/x/y.c", false},
		{"?.txt", "a.txt", true},
		{"?.txt", "ab.txt", false},
		{"a", "a/b", false},

		// Case-sensitive.
		{"README.md", "readme.md", false},

		// The root.
		{"**", "", true},
		{"src/**", ".", false},
		{".*", ".", false},
	}
	for _, tt := range tests {
		p, err := Compile(tt.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.pattern, err)
			continue
		}
		if got := p.Match(tt.name); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func TestZeroPatternMatchesNothing(t *testing.T) {
	for _, name := range []string{"", ".", "a"} {
		if (Pattern{}).Match(name) {
			t.Errorf("the zero Pattern matches %q", name)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	for _, bad := range []string{
		"", "[", "[]", "a[b", "{a,b", "a}", "a/{b,c", `a\`,
		strings.Repeat("{a,b}", 9),             // 512 alternatives
		"{" + strings.Repeat("x,", 256) + "x}", // 257
		"{a,b}{" + strings.Repeat("c,", 128) + "c}",
	} {
		if p, err := Compile(bad); err == nil {
			t.Errorf("Compile(%q) = %q, want an error", bad, p)
		}
	}
	for _, good := range []string{
		strings.Repeat("{a,b}", 8), // 256
		"{" + strings.Repeat("x,", 255) + "x}",
		"[{]" + strings.Repeat("{a,b}", 8), // a brace in a class is literal
		`\{` + strings.Repeat("{a,b}", 8),
		"{a,{b,{c,d}}}",
	} {
		if _, err := Compile(good); err != nil {
			t.Errorf("Compile(%q): %v", good, err)
		}
	}
}

func TestAlternatives(t *testing.T) {
	tests := []struct {
		pattern string
		want    int
	}{
		{"abc", 1},
		{"{a,b}", 2},
		{"{a,b}{c,d,e}", 6},
		{"{a,{b,c}}", 3},
		{"{a,{b,c}{d,e}}", 5},
		{"{a,b}/**/{c,d}", 4},
		{"[{,]{a,b}", 2},
		{`\{a,b\}`, 1},
		{"{}", 1},
		{"{,a}", 2},
		{strings.Repeat("{a,b}", 30), MaxAlternatives + 1},
	}
	for _, tt := range tests {
		if got := alternatives(tt.pattern); got != tt.want {
			t.Errorf("alternatives(%q) = %d, want %d", tt.pattern, got, tt.want)
		}
	}
}

// pathological are patterns that backtracked exponentially in the
// matchers pathglob replaced (sixteen "**" segments took 0.76 s against
// one path), or in doublestar itself (alternatives), with a path that
// nearly matches.
var pathological = []struct {
	name, pattern, path string
	want                bool
}{
	{"doublestars", strings.Repeat("**/", 16) + "x", strings.Repeat("a/", 40) + "b", false},
	{"doublestars-match", strings.Repeat("**/", 16) + "x", strings.Repeat("a/", 40) + "x", true},
	{"doublestar-segments", strings.Repeat("**/a/", 16) + "**/b", strings.Repeat("a/", 15) + "c/b", false},
	{"stars", strings.Repeat("*a", 30) + "b", strings.Repeat("a", 60), false},
	{"alternatives", strings.Repeat("{a,a}", 8) + "c", strings.Repeat("a", 8) + "b", false},
	{"alternatives-doublestars", strings.Repeat("**/{a,a}/", 8) + "x", strings.Repeat("a/", 40) + "b", false},
}

// TestMatchPathological checks that the pathological patterns compile and
// give the right answer; BenchmarkMatchPathological shows their cost.
func TestMatchPathological(t *testing.T) {
	for _, tt := range pathological {
		p, err := Compile(tt.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := p.Match(tt.path); got != tt.want {
			t.Errorf("%s: %q matches %q = %v, want %v", tt.name, tt.pattern, tt.path, got, tt.want)
		}
	}
}

// BenchmarkMatchPathological: each case runs in microseconds (before
// doublestar, the "doublestars" case took 0.76 s per match).
func BenchmarkMatchPathological(b *testing.B) {
	for _, tt := range pathological {
		p, err := Compile(tt.pattern)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				p.Match(tt.path)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	for _, lit := range []string{"a.go", "a{b,c}.go", "x[1]/*?.txt", `back\slash`, "src/{a}/b"} {
		p, err := Compile(Escape(lit))
		if err != nil {
			t.Errorf("Compile(Escape(%q)): %v", lit, err)
			continue
		}
		if !p.Match(lit) {
			t.Errorf("Escape(%q) = %q does not match it", lit, p)
		}
		if lit != "a.go" && p.Match("a.go") {
			t.Errorf("Escape(%q) = %q matches a.go", lit, p)
		}
	}
}
