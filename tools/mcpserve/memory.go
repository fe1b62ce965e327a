package mcpserve

import (
	"errors"
	"fmt"

	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools"
)

// Memory tools: recall_memories is served whenever Options.OpenMemory is
// set; remember and forget_memory change what every later session of the
// workspace (and, for user memories, of every workspace) is told, so they
// are served only with Options.MemoryWrites.
var (
	MemoryReadTools  = []string{"recall_memories"}
	MemoryWriteTools = []string{"remember", "forget_memory"}
)

// MemoryOpener opens the memory stores for one call; release closes them.
// A store is held by one process at a time (package memory), so the
// server holds it only while a memory tool runs, never between calls: a
// `parley chat` started meanwhile gets it.
type MemoryOpener func() (set *memory.Set, release func(), err error)

// withMemory runs f with the memory stores open in a copy of env, one
// memory call at a time (two opens of a store would collide). A store
// another process holds is the client's to retry: an error result.
func (s *Server) withMemory(env *tools.Env, f func(*tools.Env) (*tools.Result, error)) (*tools.Result, error) {
	s.memMu.Lock()
	defer s.memMu.Unlock()
	set, release, err := s.opts.OpenMemory()
	if errors.Is(err, memory.ErrLocked) {
		return tools.Errorf("long-term memory is in use by another parley process (a chat or the editor); try again once it ends: %v", err), nil
	}
	if err != nil {
		return nil, fmt.Errorf("open memory: %w", err)
	}
	defer release()
	e := *env
	e.Memory = set
	return f(&e)
}

func isMemoryTool(name string) bool {
	return name == "recall_memories" || name == "remember" || name == "forget_memory"
}
