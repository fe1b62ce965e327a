package permission

import "github.com/parleyhq/parley/agent/config"

// FromConfig builds the policy a resolved configuration describes: its
// permission mode and allow/deny/ask rules.
func FromConfig(cfg *config.Config) (*Policy, error) {
	mode, err := ParseMode(cfg.PermissionMode)
	if err != nil {
		return nil, err
	}
	p := cfg.Permissions
	return New(mode, Rules{Allow: p.Allow, Deny: p.Deny, Ask: p.Ask})
}
