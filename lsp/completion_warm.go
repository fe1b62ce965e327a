package lsp

import (
	"bytes"
	"runtime/debug"

	"github.com/parleyhq/parley/workspace"
)

// warmCompletion prepares, in the background, for inline completions in
// a document the editor just opened (complete.Engine.Warm: a Go file's
// package and import tables, the lines' token counts): the first request
// in a file otherwise pays for them, at a keystroke. Nothing is done
// without a completion model.
func (s *Server) warmCompletion(abs string, text []byte) {
	f, rel, ok := s.folderOf(abs)
	if !ok || f.store == nil || f.ctx.Err() != nil {
		return
	}
	e := s.completionEngine()
	if !e.Configured() {
		return
	}
	lang := workspace.DetectLanguage(rel, text[:min(len(text), 512)])
	text = bytes.Clone(text) // the document's own buffer changes as the user types
	f.wg.Add(1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer f.wg.Done()
		defer func() {
			if p := recover(); p != nil {
				s.log.Errorf("warming completion for %s panicked: %v\n%s", rel, p, debug.Stack())
			}
		}()
		e.Warm(f.store, rel, lang, text)
	}()
}
