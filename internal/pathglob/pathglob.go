// Package pathglob matches root-relative, slash-separated paths against
// doublestar patterns (github.com/bmatcuk/doublestar/v4) and refuses, when
// a pattern is compiled, every pattern the matcher could not honour. The
// permission rules ("read(secrets/**)") and the glob and grep tools share
// it, so a pattern means the same thing wherever the user or the model
// writes it.
//
// Syntax (doublestar's): "*" and "?" match within one path segment; a "**"
// segment matches any number of segments, none included, so "a/**" also
// matches "a" and "**/x" matches "x"; "[abc]", "[a-z]" and the negated
// "[!a]" and "[^a]" match one character; "{a,b}" alternatives may nest and
// contain "/"; "\" makes the next character literal. A pattern matches the
// whole path, case-sensitively; "*.go" matches "a.go" but not "dir/a.go".
//
// Compile refuses empty patterns, malformed ones (an unclosed "[" or "{", a
// stray "}", an empty class, a trailing "\"), and patterns whose braces
// expand to more than MaxAlternatives patterns: doublestar tries the
// alternatives by backtracking, so twenty "{a,a}" groups cost 2^20 matches
// of the rest of the pattern (0.1 s against one path), and thirty cost
// minutes.
//
// Contracts: a Pattern is immutable and safe for concurrent use; matching
// never fails and takes time polynomial in the lengths of pattern and path
// (see BenchmarkMatchPathological).
package pathglob

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// MaxAlternatives bounds the patterns a pattern's braces expand to.
const MaxAlternatives = 256

// Pattern is a validated pattern. The zero Pattern matches nothing.
type Pattern struct{ pattern string }

// Compile validates pattern.
func Compile(pattern string) (Pattern, error) {
	switch {
	case pattern == "":
		return Pattern{}, errors.New("empty pattern")
	case !doublestar.ValidatePattern(pattern):
		return Pattern{}, fmt.Errorf("malformed pattern %q: an unclosed [ or {, a } without {, an empty [] or a trailing \\ (write \\{ or \\[ for a literal brace or bracket)", pattern)
	case alternatives(pattern) > MaxAlternatives:
		return Pattern{}, fmt.Errorf("pattern %q: its {...} groups expand to more than %d alternatives", pattern, MaxAlternatives)
	}
	return Pattern{pattern}, nil
}

// String returns the pattern as compiled.
func (p Pattern) String() string { return p.pattern }

// Match reports whether the slash-separated relative path name matches.
// The root ("." or "") is matched as the empty path, which "**" matches.
func (p Pattern) Match(name string) bool {
	if p.pattern == "" {
		return false
	}
	if name == "." {
		name = ""
	}
	return doublestar.MatchUnvalidated(p.pattern, name)
}

// Escape quotes a literal path so that its pattern matches only that path.
func Escape(path string) string {
	var b strings.Builder
	for _, r := range path {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// alternatives counts the patterns p's brace groups expand to, the way
// doublestar expands them (each alternative of the first group followed by
// the rest of the pattern), saturating just above MaxAlternatives. It
// skips escaped characters and character classes as doublestar does; p has
// passed ValidatePattern.
func alternatives(p string) int {
	n := 1
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(p, i)
		case '{':
			end, commas := group(p, i)
			sum, from := 0, i+1
			for _, c := range append(commas, end) {
				sum = min(sum+alternatives(p[from:c]), MaxAlternatives+1)
				from = c + 1
			}
			n = min(n*sum, MaxAlternatives+1)
			i = end
		}
	}
	return n
}

// classEnd returns the index of the "]" closing the class opened at i.
func classEnd(p string, i int) int {
	for i++; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case ']':
			return i
		}
	}
	return len(p)
}

// group returns the index of the "}" closing the group opened at open and
// the indices of the group's own commas (not those of nested groups).
func group(p string, open int) (end int, commas []int) {
	depth := 0
	for i := open; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			i = classEnd(p, i)
		case '{':
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth--; depth == 0 {
				return i, commas
			}
		}
	}
	return len(p), commas
}
