package lsp

import (
	"github.com/parleyhq/parley/agent/complete"
	"github.com/parleyhq/parley/agent/config"
)

// completionSettings builds the engine's settings from the configuration
// files and environment (config.Options of the agent) and the client's
// agent layer: a workspace file cannot hand a key to a URL it chose
// (config's rules), and the editor's settings never carry keys.
func (s *Server) completionSettings() (complete.Settings, error) {
	o := s.opts.Agent.Config
	o.Workspace = s.primaryRoot()
	cfg, err := config.Load(o)
	if err != nil {
		return complete.Settings{}, err
	}
	if err := cfg.Merge(s.agents.clientLayer(), "initializationOptions"); err != nil {
		return complete.Settings{}, err
	}
	return complete.FromConfig(cfg)
}
