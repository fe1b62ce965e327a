package lsp

import (
	"maps"
	"path/filepath"
	"runtime/debug"
	"slices"
)

// warmSyntax parses, in the background, an opened Python, TypeScript or
// JavaScript document and the modules it imports into its folder's tree
// cache (index.Store.WarmSyntax), so that requests on it, which wait for
// a resolution only the resolve budget (navigation_py.go), find the parses
// done: an editor opens a file well before it asks anything, and a cold
// parse of the buffer alone often exceeds the budget. A Python document
// whose content the index holds is not warmed (index.Store.WarmSyntax):
// its requests parse nothing.
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
	s.warm(f, []string{rel})
}

// warmOpen warms every document open in f, after an index run changed
// the store: one opened before the first run finished was warmed alone,
// as the index did not yet know where its imports lead.
func (s *Server) warmOpen(f *folder) {
	f.mu.Lock()
	rels := slices.Sorted(maps.Keys(f.want))
	f.mu.Unlock()
	s.warm(f, rels)
}

// warm warms rels (root-relative) in turn in one background goroutine
// holding f's resolution slot; a request's cancel ends it.
func (s *Server) warm(f *folder, rels []string) {
	if len(rels) == 0 || f.store == nil || f.ctx.Err() != nil || !f.resolving.CompareAndSwap(false, true) {
		return
	}
	f.late.Store(true)
	f.wg.Add(1)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer f.wg.Done()
		defer f.resolving.Store(false)
		defer f.late.Store(false)
		defer f.store.ResumeResolutions()
		gen := f.store.ResolveGen()
		for _, rel := range rels {
			if f.store.CancelledSince(gen) || f.ctx.Err() != nil {
				return
			}
			t, err := s.text(filepath.Join(f.root, filepath.FromSlash(rel)))
			if err != nil {
				continue
			}
			s.warmOne(f, rel, t.content)
		}
	}()
}

// warmOne warms one document; a resolver bug on it must not take the
// server down.
func (s *Server) warmOne(f *folder, rel string, content []byte) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Errorf("warming %s panicked: %v\n%s", rel, p, debug.Stack())
		}
	}()
	warm := f.store.WarmSyntax(rel, content, s.pyReader(&doc{f: f}))
	if hook := s.testHookWarm; hook != nil && warm != nil {
		hook(warm)
	}
}
