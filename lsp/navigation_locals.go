package lsp

import (
	"go.lsp.dev/protocol"

	"github.com/parleyhq/parley/index"
)

// localAt resolves the identifier at pos of d when it names a local of a
// language index.Store.LocalAt covers (Java, Rust, C, C++ ...): its
// binding and occurrences, all in d's buffer. Definition gets it through
// index.Store.DefinitionsAt; References and DocumentHighlight answer its
// occurrences, not every same-named word of the workspace. It costs one
// parse of the buffer, kept in the store's tree cache, so it runs inline
// rather than under the resolve budget.
func (s *Server) localAt(d *doc, pos protocol.Position) (index.Local, bool, error) {
	off, err := s.offset(d, pos)
	if err != nil {
		return index.Local{}, false, err
	}
	l, ok := d.f.store.LocalAt(d.rel, d.content, off)
	return l, ok, nil
}
