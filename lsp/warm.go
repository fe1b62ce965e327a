package lsp

import "runtime/debug"

// warmSyntax parses, in the background, an opened Python, TypeScript or
// JavaScript document and the modules it imports into its folder's tree
// cache (index.Store.WarmSyntax), so that requests on it, which wait for
// a resolution only the resolve budget (navigation_py.go), find the parses
// done: an editor opens a file well before it asks anything, and a cold
// parse of the buffer alone often exceeds the budget.
//
// Warming takes the folder's resolution slot as a late resolution does:
// skipped while a request resolves, and cancelled by the next request
// (awaitLate), which then waits at most for the parse in progress, whose
// tree stays cached.
func (s *Server) warmSyntax(abs string) {
	f, rel, ok := s.folderOf(abs)
	if !ok || f.store == nil || f.ctx.Err() != nil {
		return
	}
	t, err := s.text(abs)
	if err != nil || !f.resolving.CompareAndSwap(false, true) {
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
		defer func() {
			if p := recover(); p != nil {
				s.log.Errorf("warming %s panicked: %v\n%s", rel, p, debug.Stack())
			}
		}()
		warm := f.store.WarmSyntax(rel, t.content, s.pyReader(&doc{f: f}))
		if hook := s.testHookWarm; hook != nil {
			hook(warm)
		}
	}()
}
