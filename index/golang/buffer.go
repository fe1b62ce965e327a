package golang

import (
	"errors"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/index"
)

// ErrNoReferences is wrapped by the error of a references request at a
// position that names nothing references can be asked of: a predeclared
// name (nil, len, error), a member of unsafe, a keyword, a word in a
// comment or string. gopls refuses them as well; answering every
// occurrence of the word would be wrong and, for nil, cost 100k hits.
var ErrNoReferences = errors.New("no references can be asked of it")

// BufferReferences answers the Go references the buffer alone settles:
// a local's (LocalReferences), and none, with an error wrapping
// ErrNoReferences, where the position names no declaration
// (NotNameAt, PredeclaredAt). ok is false for everything else, and
// for files other than Go.
func BufferReferences(s *index.Store, from string, src []byte, off int, name string) (hits []index.RefHit, ok bool, err error) {
	if !strings.HasSuffix(from, ".go") {
		return nil, false, nil
	}
	if hits, ok := LocalReferences(s, from, src, off, name); ok {
		return hits, true, nil
	}
	if NotNameAt(src, off) {
		return nil, false, fmt.Errorf("%s here is a keyword or a word in a comment or string: %w", name, ErrNoReferences)
	}
	if PredeclaredAt(s, from, src, off, name) {
		return nil, false, fmt.Errorf("%s is predeclared: %w", name, ErrNoReferences)
	}
	return nil, false, nil
}
