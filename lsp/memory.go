package lsp

import (
	"errors"
	"path/filepath"

	"github.com/parleyhq/parley/agent"
	"github.com/parleyhq/parley/agent/config"
	"github.com/parleyhq/parley/memory"
	"github.com/parleyhq/parley/tools"
)

// memorySet returns the agent's long-term memory, opening it on first use:
// the primary folder's store beside its sessions, and the user-level one
// (AgentOptions.UserMemoryDir); terminal chats share them. A store that
// cannot be opened (another schema version, an unwritable directory) is
// left out with a warning, so the memory tools say that scope is
// unavailable. Safe for concurrent use.
func (h *agentHost) memorySet() *memory.Set {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.memory != nil {
		return h.memory
	}
	h.memory = &memory.Set{}
	if root := h.s.primaryRoot(); root != "" {
		if dir, err := h.s.opts.StoreDir(root); err != nil {
			h.s.log.Warnf("memory: %v", err)
		} else if st, err := memory.Open(filepath.Join(filepath.Dir(dir), "memory"), memory.Workspace); err != nil {
			h.s.log.Warnf("continuing without this workspace's memories: %v", err)
		} else {
			h.memory.Workspace = st
		}
	}
	if dir := h.s.opts.Agent.UserMemoryDir; dir != "" {
		if st, err := memory.Open(dir, memory.User); err != nil {
			h.s.log.Warnf("continuing without user memories: %v", err)
		} else {
			h.memory.User = st
		}
	}
	h.memory.Anchors = h.hashAnchor
	if h.built != nil {
		h.useEmbeddings(h.built.cfg)
	}
	return h.memory
}

// useEmbeddings makes memory recall hybrid when the configuration names
// an embeddings endpoint. Precondition: h.mu is held.
func (h *agentHost) useEmbeddings(cfg *config.Config) {
	if h.memory == nil || h.memory.Embedder != nil {
		return
	}
	if err := agent.ConfigureMemory(h.memory, cfg); err != nil {
		h.s.log.Warnf("memory search stays lexical: %v", err)
	}
}

// hashAnchor judges anchors against what the editor shows (open buffers)
// and the folders' indexes, whichever folders are open at the time.
func (h *agentHost) hashAnchor(a memory.Anchor) (string, bool, error) {
	h.s.mu.RLock()
	roots := h.s.roots
	h.s.mu.RUnlock()
	if roots == nil {
		return "", false, errors.New("no workspace folder")
	}
	return tools.AnchorHasher(&tools.Env{Roots: roots, Files: agentView{h.s}, Index: serverIndex{h.s}})(a)
}
