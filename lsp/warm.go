package lsp

import (
	"path/filepath"
	"runtime/debug"

	"github.com/parleyhq/parley/index/nav"
)

// warmSyntax parses, in the background, an opened document into its
// folder's tree cache (nav.WarmSyntax: a Python, TypeScript or
// JavaScript buffer the index does not hold yet, with the modules it
// imports, or the buffer of a language whose locals are resolved), so
// that requests on it, which wait for a resolution only the resolve budget
// (navigation_py.go), find the parse done: an editor opens a file well
// before it asks anything, and a cold parse often exceeds the budget. A
// Python, TypeScript or JavaScript document whose content the index holds
// is not warmed: its requests read descriptors and parse nothing.
//
// Warming takes the folder's resolution slot as a late resolution does:
// skipped while a request resolves, and cancelled by the next request
// (awaitLate), which then waits at most for the parse in progress, whose
// tree stays cached.
func (s *Server) warmSyntax(abs string) {
	f, rel, ok := s.folderOf(abs)
	if !ok {
		return
	}
	s.warm(f, rel)
}

// warm warms rel (root-relative) in one background goroutine holding f's
// resolution slot; a request's cancel ends it.
func (s *Server) warm(f *folder, rel string) {
	if f.store == nil || f.ctx.Err() != nil || !f.slot.takeLate() {
		return
	}
	f.wg.Add(1)
	s.wg.Add(1)
	go func() {
		var warmed []string
		defer func() {
			// Told once the slot is free again: a request right after
			// it must not find the warming still holding the slot.
			if hook := s.testHookWarm; hook != nil && warmed != nil {
				hook(warmed)
			}
		}()
		defer s.wg.Done()
		defer f.wg.Done()
		defer f.slot.release()
		defer nav.ResumeResolutions(f.store)
		t, err := s.text(filepath.Join(f.root, filepath.FromSlash(rel)))
		if err != nil {
			return
		}
		warmed = s.warmOne(f, rel, t.content)
	}()
}

// warmOne warms one document; a resolver bug on it must not take the
// server down.
func (s *Server) warmOne(f *folder, rel string, content []byte) (warmed []string) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Errorf("warming %s panicked: %v\n%s", rel, p, debug.Stack())
		}
	}()
	return nav.WarmSyntax(f.store, rel, content, s.pyReader(&doc{f: f}))
}
