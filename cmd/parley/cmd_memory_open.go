package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/parleyhq/parley/agent"

	"github.com/parleyhq/parley/memory"
)

// memoryDirs are the workspace's memory store (beside its index and
// sessions) and the user-level one (in the data directory itself, shared
// by every workspace).
func (g *globals) memoryDirs(wsDir string) (workspace, user string, err error) {
	if _, err := g.dataBase(); err != nil {
		return "", "", err
	}
	return filepath.Join(wsDir, "memory"), userMemoryDir(g), nil
}

// openMemorySet opens the workspace and user memory stores. A store that
// cannot be opened (another schema version, an unwritable directory) is
// left out with a warning: the chat goes on without memories of that
// scope. The caller must Close the set.
func openMemorySet(g *globals, wsDir string, warn func(error)) *memory.Set {
	wsPath, userPath, err := g.memoryDirs(wsDir)
	if err != nil {
		warn(fmt.Errorf("continuing without long-term memory: %w", err))
		return &memory.Set{}
	}
	set := &memory.Set{}
	if set.Workspace, err = memory.Open(wsPath, memory.Workspace); err != nil {
		warn(fmt.Errorf("continuing without this workspace's memories: %w", err))
	}
	if set.User, err = memory.Open(userPath, memory.User); err != nil {
		warn(fmt.Errorf("continuing without user memories: %w", err))
	}
	return set
}

// memoryEventLines is how the terminal shows auto-recall: one line per
// recalled memory, or the failure.
func memoryEventLines(e agent.Event) string {
	if len(e.Memories) == 0 {
		return "◇ " + e.Text + "\n"
	}
	var b strings.Builder
	for _, m := range e.Memories {
		fmt.Fprintf(&b, "◇ recalled [%s] %s: %s\n", m.ID, m.Type, clip(strings.Join(strings.Fields(m.Content), " "), 100))
	}
	return b.String()
}

// userMemoryDir is the user-level memory store's directory ("" when there
// is no data directory; the server then has workspace memories only).
func userMemoryDir(g *globals) string {
	base, err := g.dataBase()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "memory")
}
