package index

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Match classes for symbol search, best first.
const (
	matchExact     = iota // same spelling
	matchExactFold        // same name ignoring case
	matchPrefix           // name starts with the query (any case)
	matchCamel            // query picks word starts: "hfs" ~ HandleFileServer, "newRe" ~ NewReader
	matchSubstring        // query occurs inside the name
	matchFuzzy            // query's letters occur in order
	matchNone
)

// classify ranks name against the query. lowerName and lowerQuery are the
// lower-cased forms (the store keeps names lower-cased in its keys).
func classify(name string, lowerName []byte, query string, lowerQuery []byte) int {
	if len(lowerQuery) == 0 {
		return matchPrefix
	}
	switch {
	case name == query:
		return matchExact
	case bytes.Equal(lowerName, lowerQuery):
		return matchExactFold
	case bytes.HasPrefix(lowerName, lowerQuery):
		return matchPrefix
	case camelMatch(name, query):
		return matchCamel
	case bytes.Contains(lowerName, lowerQuery):
		return matchSubstring
	case subsequence(lowerName, lowerQuery):
		return matchFuzzy
	}
	return matchNone
}

// subsequence reports whether every byte of q occurs in s in order.
func subsequence(s, q []byte) bool {
	for _, c := range q {
		i := bytes.IndexByte(s, c)
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
	return true
}

// camelMatch reports whether query can be split into pieces that each match
// the start of a successive word of name, case-insensitively. Words start at
// the first rune, at an upper-case rune after a lower-case one, at the last
// upper-case rune of an acronym followed by lower case (the "R" of
// "HTTPRequest"), and after '_', '-', '.' or a digit run.
func camelMatch(name, query string) bool {
	starts := wordStarts(name)
	if len(starts) == 0 {
		return false
	}
	return camelFrom(name, starts, 0, query)
}

// camelFrom tries to match query starting at word w. Backtracking is bounded
// by the number of words, which is small for identifiers.
func camelFrom(name string, starts []int, w int, query string) bool {
	if query == "" {
		return true
	}
	for ; w < len(starts); w++ {
		word := name[starts[w]:]
		if w+1 < len(starts) {
			word = name[starts[w]:starts[w+1]]
		}
		n := commonFoldPrefix(word, query)
		for k := n; k >= 1; k-- {
			if camelFrom(name, starts, w+1, query[k:]) {
				return true
			}
		}
	}
	return false
}

func commonFoldPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) {
		ra, sa := utf8.DecodeRuneInString(a[n:])
		rb, sb := utf8.DecodeRuneInString(b[n:])
		if sa != sb || unicode.ToLower(ra) != unicode.ToLower(rb) {
			break
		}
		n += sa
	}
	return n
}

func wordStarts(name string) []int {
	var starts []int
	var prev rune
	prevUpper := false
	for i, r := range name {
		upper := unicode.IsUpper(r)
		isSep := r == '_' || r == '-' || r == '.' || r == '$'
		switch {
		case isSep:
		case i == 0, prev == '_' || prev == '-' || prev == '.' || prev == '$':
			starts = append(starts, i)
		case upper && !prevUpper:
			starts = append(starts, i)
		case unicode.IsDigit(r) && !unicode.IsDigit(prev):
			starts = append(starts, i)
		case !upper && prevUpper && unicode.IsLetter(r):
			// "HTTPRequest": the word starts at "R", one rune back.
			_, size := utf8.DecodeLastRuneInString(name[:i])
			if j := i - size; len(starts) > 0 && starts[len(starts)-1] < j {
				starts = append(starts, j)
			}
		}
		prev, prevUpper = r, upper
	}
	return starts
}
