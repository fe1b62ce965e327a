package lsp

import (
	"context"

	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index/nav"
)

// localAt resolves the identifier at pos of d when it names a local of a
// language nav.LocalAt covers (Java, Rust, C, C++ ...): its
// binding and occurrences, all in d's buffer. Definition
// (rankedDefinitions), References and DocumentHighlight ask it first, so
// that a local's answers are its own, not every same-named word of the
// workspace. It parses the buffer, which the tree cache usually has from
// when the document was opened (warm.go) and which otherwise can take
// longer than a request should wait on a large file: like the Python
// and TypeScript resolution it runs within the resolve budget
// (withinBudget), and past it the request answers from the name ranking
// while the parse finishes and warms the cache.
func (s *Server) localAt(ctx context.Context, d *doc, pos protocol.Position) (nav.Local, bool, error) {
	if !nav.HasLocals(d.rel, d.content) {
		return nav.Local{}, false, nil
	}
	off, err := s.offset(d, pos)
	if err != nil {
		return nav.Local{}, false, err
	}
	return withinBudget(ctx, s, d.f, func() (nav.Local, bool, error) {
		l, ok := nav.LocalAt(d.f.store, d.rel, d.content, off)
		return l, ok, nil
	})
}
