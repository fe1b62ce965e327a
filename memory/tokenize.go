package memory

import (
	"strings"
	"unicode"
)

// tokenize splits text into lowercase terms of letters and digits for the
// BM25 index. Identifiers split at case changes and underscores as well as
// kept whole ("parseConfig" gives "parseconfig", "parse", "config") so a
// query can name either. Stop words carry no signal and are dropped;
// plurals are folded (see stem).
func tokenize(text string) []string {
	var out []string
	for _, word := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		parts := splitIdent(word)
		whole := strings.ToLower(strings.ReplaceAll(word, "_", ""))
		if len(parts) > 1 {
			out = appendTerm(out, whole)
		}
		for _, p := range parts {
			out = appendTerm(out, strings.ToLower(p))
		}
	}
	return out
}

func appendTerm(out []string, t string) []string {
	if len(t) < 2 || stopWords[t] {
		return out
	}
	return append(out, stem(t))
}

// stem folds the regular English plural ("builds", "parsers") onto the
// singular, the one inflection that most often separates a memory from a
// query that means it. Fuller stemmers (Porter, Snowball) also merge
// identifiers and names that only look inflected ("address" -> "addr"),
// which hurts recall of code terms more than it helps prose.
func stem(t string) string {
	if len(t) > 3 && strings.HasSuffix(t, "s") && !strings.HasSuffix(t, "ss") && !strings.HasSuffix(t, "us") && !strings.HasSuffix(t, "is") {
		return t[:len(t)-1]
	}
	return t
}

// splitIdent splits at underscores and lower-to-upper case changes.
func splitIdent(word string) []string {
	var parts []string
	start := 0
	runes := []rune(word)
	for i := 0; i < len(runes); i++ {
		switch {
		case runes[i] == '_':
			if i > start {
				parts = append(parts, string(runes[start:i]))
			}
			start = i + 1
		case i > start && unicode.IsUpper(runes[i]) && unicode.IsLower(runes[i-1]):
			parts = append(parts, string(runes[start:i]))
			start = i
		}
	}
	if start < len(runes) {
		parts = append(parts, string(runes[start:]))
	}
	return parts
}

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for from has have if in into is it its
		of on or so that the their then there these this to was were will with we you your our i me my do does
		did what which who how when where why should would can could`) {
		m[w] = true
	}
	return m
}()
