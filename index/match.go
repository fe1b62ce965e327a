package index

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Match classes for symbol search, best first.
const (
	matchExact      = iota // same spelling
	matchExactFold         // same name ignoring case
	matchPrefix            // name starts with the query (any case)
	matchCamelStart        // query picks word starts from the first word: "hfs" ~ HandleFileServer
	matchCamel             // query picks word starts later on: "hfs" ~ FSTYPE_HFS
	matchSubstring         // query occurs inside the name
	matchFuzzy             // query's letters occur in order
	matchNone
	// matchLater is classifyCheap's answer for a name that needs the
	// full classify.
	matchLater
)

// classify ranks a name against the query. name is the original spelling,
// lowerName its lower-cased form (the store keeps names lower-cased in its
// keys), lowerQuery the lower-cased query. It does not allocate: it runs
// once per symbol in the workspace for every search.
func classify(name, lowerName []byte, query string, lowerQuery []byte) int {
	if len(lowerQuery) == 0 {
		return matchPrefix
	}
	// Every class implies the query's letters occur in order; most names
	// fail this cheap test and are done.
	if !subsequence(lowerName, lowerQuery) {
		return matchNone
	}
	switch {
	case string(name) == query:
		return matchExact
	case bytes.Equal(lowerName, lowerQuery):
		return matchExactFold
	case bytes.HasPrefix(lowerName, lowerQuery):
		return matchPrefix
	}
	if ok, first := camelMatch(name, query); ok {
		if first {
			return matchCamelStart
		}
		return matchCamel
	}
	if bytes.Contains(lowerName, lowerQuery) {
		return matchSubstring
	}
	return matchFuzzy
}

// classifyCheap decides the exact and prefix classes, which need no
// word analysis, and answers matchLater for everything else.
func classifyCheap(name, lowerName []byte, query string, lowerQuery []byte) int {
	switch {
	case len(lowerQuery) == 0:
		return matchPrefix
	case string(name) == query:
		return matchExact
	case bytes.Equal(lowerName, lowerQuery):
		return matchExactFold
	case bytes.HasPrefix(lowerName, lowerQuery):
		return matchPrefix
	}
	return matchLater
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

// maxWords bounds the word starts camelMatch considers; identifiers with
// more words match on their first maxWords.
const maxWords = 32

// camelMatch reports whether query can be split into pieces that each match
// the start of a successive word of name, case-insensitively. Words start at
// the first rune, at an upper-case rune after a lower-case one, at the last
// upper-case rune of an acronym followed by lower case (the "R" of
// "HTTPRequest"), and after '_', '-', '.' or a digit run. first reports a
// match whose first piece starts the name.
func camelMatch(name []byte, query string) (ok, first bool) {
	var buf [maxWords]int
	starts := wordStarts(name, buf[:0])
	if len(starts) == 0 {
		return false, false
	}
	w0 := name[:wordEnd(starts, 0, len(name))]
	for k := commonFoldPrefix(w0, query); k >= 1; k-- {
		if camelFrom(name, starts, 1, query[k:]) {
			return true, true
		}
	}
	return camelFrom(name, starts, 1, query), false
}

func wordEnd(starts []int, w, n int) int {
	if w+1 < len(starts) {
		return starts[w+1]
	}
	return n
}

// camelFrom tries to match query starting at word w. Backtracking is bounded
// by the number of words, which is small for identifiers.
func camelFrom(name []byte, starts []int, w int, query string) bool {
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

func commonFoldPrefix(a []byte, b string) int {
	n := 0
	for n < len(a) && n < len(b) {
		ra, sa := utf8.DecodeRune(a[n:])
		rb, sb := utf8.DecodeRuneInString(b[n:])
		if sa != sb || unicode.ToLower(ra) != unicode.ToLower(rb) {
			break
		}
		n += sa
	}
	return n
}

func isSep(r rune) bool { return r == '_' || r == '-' || r == '.' || r == '$' }

func wordStarts(name []byte, starts []int) []int {
	var prev rune
	prevUpper := false
	for i := 0; i < len(name) && len(starts) < cap(starts); {
		r, size := utf8.DecodeRune(name[i:])
		upper := unicode.IsUpper(r)
		switch {
		case isSep(r):
		case i == 0, isSep(prev):
			starts = append(starts, i)
		case upper && !prevUpper:
			starts = append(starts, i)
		case unicode.IsDigit(r) && !unicode.IsDigit(prev):
			starts = append(starts, i)
		case !upper && prevUpper && unicode.IsLetter(r):
			// "HTTPRequest": the word starts at "R", one rune back.
			_, psize := utf8.DecodeLastRune(name[:i])
			if j := i - psize; len(starts) > 0 && starts[len(starts)-1] < j {
				starts = append(starts, j)
			}
		}
		prev, prevUpper = r, upper
		i += size
	}
	return starts
}
