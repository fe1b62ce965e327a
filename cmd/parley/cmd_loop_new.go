package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/agent/ralph"
)

// starterRalph is what `parley loop new` writes.
const starterRalph = `---
# agent: claude -p --dangerously-skip-permissions   # any CLI agent reading the prompt on stdin;
#                                                  # without this line parley's own agent runs
commands:
  - name: status
    run: git status --short
  - name: log
    run: git log --oneline -5
    timeout: 10
args: []
credit: true
---

You are an autonomous coding agent working in a loop ({{ ralph.name }}, iteration {{ ralph.iteration }}).
Each iteration starts with a fresh context: what you know comes from this prompt and the repository.

## Recent commits

{{ commands.log }}

## Working tree

{{ commands.status }}

## Task

Do one small, complete step of the task below, check it (build and tests), commit it, then stop.

TODO: describe the task.
`

func newLoopNewCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "new NAME",
		Short: "Write a starter RALPH.md in the directory NAME",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			dir := args[0]
			path := filepath.Join(dir, ralph.FileName)
			if _, err := os.Stat(path); err == nil {
				return fmt.Errorf("%s already exists", path)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(path, []byte(starterRalph), 0o644); err != nil {
				return err
			}
			fmt.Fprintf(g.stdout, "wrote %s; edit it, then run: parley loop %s\n", path, dir)
			return nil
		},
	}
}
