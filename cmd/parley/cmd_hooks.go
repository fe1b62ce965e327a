package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/agent/hooks"
)

func newHooksCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hooks",
		Short: "List the configured hooks and whether the workspace's are approved",
		Long: `hooks lists the hook commands of the user config and of the workspace's
.parley/config.json. Hooks from the workspace file came with the
repository: they run only after you approved them with "parley hooks
approve", and a changed definition needs a new approval.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			r, hs, err := loadHooks(g)
			if err != nil {
				return err
			}
			if len(hs) == 0 {
				fmt.Fprintln(g.stdout, "no hooks configured")
				return nil
			}
			pending := map[string]bool{}
			for _, h := range r.Unapproved() {
				pending[hooks.Key(r.Root(), h)] = true
			}
			for _, h := range hs {
				status := "user"
				switch {
				case pending[hooks.Key(r.Root(), h)]:
					status = "workspace, NOT APPROVED"
				case h.Workspace:
					status = "workspace, approved"
				}
				matcher := h.Matcher
				if matcher == "" {
					matcher = "*"
				}
				fmt.Fprintf(g.stdout, "%-17s %-12s %gs  %s\n    from %s (%s)\n", h.Event, matcher, h.Timeout, h.Command, h.Source, status)
			}
			return nil
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "approve",
		Short: "Approve the workspace's hooks, as they are now, to run in this workspace",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			r, _, err := loadHooks(g)
			if err != nil {
				return err
			}
			path, err := hooks.DefaultApprovalsFile()
			if err != nil {
				return err
			}
			ap, err := hooks.OpenApprovals(path)
			if err != nil {
				return err
			}
			approved, err := ap.ApproveWorkspace(r)
			if err != nil {
				return err
			}
			if len(approved) == 0 {
				fmt.Fprintln(g.stdout, "no workspace hooks wait for approval")
				return nil
			}
			for _, h := range approved {
				fmt.Fprintf(g.stdout, "approved %s %q: %s\n", h.Event, h.Matcher, h.Command)
			}
			return nil
		},
	})
	return cmd
}

// loadHooks reads the configured hooks of the workspace.
func loadHooks(g *globals) (*hooks.Runner, []config.Hook, error) {
	root, err := g.workspaceRoot()
	if err != nil {
		return nil, nil, err
	}
	cfg, err := config.Load(config.Options{Workspace: root})
	if err != nil {
		return nil, nil, err
	}
	r, err := hooks.FromConfig(cfg, root)
	if err != nil {
		return nil, nil, err
	}
	return r, cfg.Hooks, nil
}
