package mentions

import (
	"sort"
	"strings"
)

// Complete completes the mention word being typed (what follows "@",
// without it) the way a shell completes a path, for a terminal's Tab:
// the special mentions and the roots' indexed files that start with
// word give their longest common prefix, and a space after a single
// match. When nothing starts with word, the best fuzzy match among the
// files replaces it. ok is false when there is nothing to add. Safe for
// concurrent use.
func Complete(roots []Root, word string) (string, bool) {
	var match []string
	for _, k := range []Kind{KindDiagnostics, KindChanges} {
		if strings.HasPrefix(string(k), word) {
			match = append(match, string(k))
		}
	}
	for _, r := range roots {
		paths := filesOf(r.Store).paths // sorted
		i := sort.SearchStrings(paths, word)
		for ; i < len(paths) && strings.HasPrefix(paths[i], word); i++ {
			match = append(match, paths[i])
		}
	}
	switch len(match) {
	case 0:
		if best, _ := matchFiles(roots, word, 1); len(best) == 1 {
			return best[0].Mention.Path + " ", true
		}
		return "", false
	case 1:
		return match[0] + " ", true
	}
	common := match[0]
	for _, m := range match[1:] {
		for !strings.HasPrefix(m, common) {
			common = common[:len(common)-1]
		}
	}
	return common, len(common) > len(word)
}
