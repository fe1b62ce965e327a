package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/hooks"
	"github.com/parleyhq/parley/agent/prompts"
)

func newCommandsCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "commands",
		Short: "List the prompt commands (/NAME) and whether the workspace's shell lines are approved",
		Long: `commands lists the prompt commands of the workspace (.parley/commands/*.md)
and of your config directory (parley/commands/*.md), which /NAME args runs
in parley chat, the editor chat and over ACP. A workspace command's shell
lines ("!` + "`cmd`" + `" or a line starting with "!") came with the repository:
they run only after you approved them with "parley commands approve", and
a changed line needs a new approval.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			set, ap, err := loadPromptCommands(g)
			if err != nil {
				return err
			}
			for _, p := range set.Problems {
				fmt.Fprintln(g.stderr, "parley:", p)
			}
			if len(set.List()) == 0 {
				fmt.Fprintln(g.stdout, "no prompt commands")
				return nil
			}
			for _, c := range set.List() {
				status := string(c.Source)
				switch {
				case c.NeedsApproval(ap):
					status += ", shell NOT APPROVED"
				case c.Source == prompts.Workspace && len(c.ShellLines()) > 0:
					status += ", shell approved"
				}
				fmt.Fprintf(g.stdout, "/%-20s %s\n    %s (%s)\n", strings.TrimSpace(c.Name+" "+c.ArgumentHint), c.Description, c.Path, status)
				for _, l := range c.ShellLines() {
					fmt.Fprintf(g.stdout, "    ! %s\n", l)
				}
			}
			return nil
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "approve [NAME...]",
		Short: "Approve the shell lines of the workspace's prompt commands (all, or those named) as they are now",
		RunE: func(_ *cobra.Command, names []string) error {
			set, ap, err := loadPromptCommands(g)
			if err != nil {
				return err
			}
			n := 0
			for _, c := range set.List() {
				if !c.NeedsApproval(ap) || (len(names) > 0 && !contains(names, c.Name)) {
					continue
				}
				if err := ap.Approve(c.Key()); err != nil {
					return err
				}
				n++
				fmt.Fprintf(g.stdout, "approved /%s: %s\n", c.Name, strings.Join(c.ShellLines(), "; "))
			}
			if n == 0 {
				fmt.Fprintln(g.stdout, "no prompt commands wait for approval")
			}
			return nil
		},
	})
	return cmd
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s || x == "/"+s {
			return true
		}
	}
	return false
}

// loadPromptCommands reads the workspace's prompt commands (with the
// REPL's built-ins reserved, as parley chat sees them) and the approvals.
func loadPromptCommands(g *globals) (*prompts.Set, *hooks.Approvals, error) {
	root, err := g.workspaceRoot()
	if err != nil {
		return nil, nil, err
	}
	path, err := hooks.DefaultApprovalsFile()
	if err != nil {
		return nil, nil, err
	}
	ap, err := hooks.OpenApprovals(path)
	if err != nil {
		return nil, nil, err
	}
	return prompts.Load(prompts.Dirs(root), replBuiltins...), ap, nil
}
