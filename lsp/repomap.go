package lsp

import (
	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/index/repomap"
)

// repoMap renders the repo map of the primary (first) workspace folder
// for a session's system prompt, personalised toward the documents open
// in the editor. It is built once per session, at its first turn, so the
// prompt stays cacheable; "" when disabled or without a folder. A failure
// is logged: the agent works without a map.
func (s *Server) repoMap(c *config.Config) string {
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
	v, _ := s.maps.LoadOrStore(f, repomap.New(f.store, f.root))
	m := v.(*repomap.Mapper)
	var focus []string
	for _, abs := range s.overlays.Paths() {
		if of, rel, ok := s.folderOf(abs); ok && of == f {
			focus = append(focus, rel)
		}
	}
	out, err := m.Build(repomap.Options{Tokens: c.RepoMapTokens, Focus: focus, Count: agent.TokenCounter(c.Model)})
	if err != nil {
		s.log.Warnf("repo map: %v", err)
		return ""
	}
	return out
}
