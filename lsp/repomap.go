package lsp

import (
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/index/repomap"
	"github.com/parleyhq/parley/internal/tokcount"
)

// repoMap returns the repo map of the primary (first) workspace folder for
// a session's system prompt before a turn whose message is msg ("" for a
// compaction), personalised toward the files the session's messages name
// and the documents open in the editor. ls.mapFocus decides whether the
// map changes (repomap.Focus: only when the focus does materially, since
// a new map costs the prompt cache). "" when disabled or without a folder.
// A failure is logged: the agent works without a map.
func (s *Server) repoMap(c *config.Config, ls *liveSession, msg string) string {
	if c.RepoMapTokens <= 0 {
		return ""
	}
	s.mu.RLock()
	roots := s.roots
	s.mu.RUnlock()
	if roots == nil || len(roots.Paths()) == 0 {
		return ""
	}
	f, _, ok := s.folderOf(roots.Paths()[0])
	if !ok {
		return ""
	}
	if ls.mapFocus == nil || ls.mapConfig != c {
		v, _ := s.maps.LoadOrStore(f, repomap.New(f.store, f.root))
		ls.mapFocus = repomap.NewFocus(v.(*repomap.Mapper), repomap.Options{Tokens: c.RepoMapTokens, Count: tokcount.Counter(c.Model)})
		ls.mapConfig = c
	}
	var open []string
	for _, abs := range s.overlays.Paths() {
		if of, rel, ok := s.folderOf(abs); ok && of == f {
			open = append(open, rel)
		}
	}
	out, _, err := ls.mapFocus.Update(msg, open)
	if err != nil {
		s.log.Warnf("repo map: %v", err)
	}
	return out
}
