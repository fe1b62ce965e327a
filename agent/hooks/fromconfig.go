package hooks

import "github.com/parleyhq/parley/agent/config"

// FromConfig builds the Runner of cfg's hooks for the workspace root, with
// the user's approvals from DefaultApprovalsFile. With no hooks configured
// it returns nil (a nil Runner runs nothing), without reading approvals.
func FromConfig(cfg *config.Config, root string) (*Runner, error) {
	if len(cfg.Hooks) == 0 {
		return nil, nil
	}
	var ap *Approvals
	if needsApproval(cfg.Hooks) {
		path, err := DefaultApprovalsFile()
		if err != nil {
			return nil, err
		}
		if ap, err = OpenApprovals(path); err != nil {
			return nil, err
		}
	}
	return New(cfg.Hooks, root, ap)
}

func needsApproval(hs []config.Hook) bool {
	for _, h := range hs {
		if h.Workspace {
			return true
		}
	}
	return false
}
